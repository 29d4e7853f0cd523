package io.notify.gateway.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.KeyUse;
import com.nimbusds.jose.jwk.OctetSequenceKey;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import com.nimbusds.jose.jwk.gen.OctetSequenceKeyGenerator;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.notify.common.config.ConfigException;
import io.notify.common.config.Settings;
import io.notify.devstack.Await;
import io.notify.gateway.config.GatewayConfig;
import io.notify.gateway.config.RemoteJwks;
import io.notify.gateway.metrics.GatewayMetrics;
import io.notify.gateway.support.JwksServer;
import io.notify.gateway.support.TestConfig;
import io.notify.gateway.support.Tokens;
import java.net.URI;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Keys from a JWKS URL the test serves itself (docs/gateway.md, "Keys from a JWKS URL"). */
@Timeout(60)
class RemoteKeySetTest {

    private static final Duration WAIT = Duration.ofSeconds(10);
    private static Tokens a;
    private static Tokens b;

    private final GatewayMetrics metrics = new GatewayMetrics(new SimpleMeterRegistry());
    private final AtomicLong nanos = new AtomicLong();
    private final List<AutoCloseable> closing = new ArrayList<>();

    @BeforeAll
    static void keys() {
        a = new Tokens("key-a");
        b = new Tokens("key-b");
    }

    @AfterEach
    void close() throws Exception {
        for (AutoCloseable c : closing) {
            c.close();
        }
    }

    private JwksServer server(JwksServer s) {
        closing.add(s);
        return s;
    }

    /** refresh, ttl, refetch-min-interval; fetch timeout 300 ms. */
    private RemoteKeySet ring(JwksServer server, Path caFile, Duration refresh, Duration ttl, Duration refetchMin) {
        RemoteKeySet ring = RemoteKeySet.create(new RemoteJwks(server.url(), caFile, refresh, ttl, refetchMin, Duration.ofMillis(300)),
                metrics, nanos::get);
        closing.add(ring);
        return ring;
    }

    /** A ring over plain HTTP, started (its first fetch done or failed). */
    private RemoteKeySet started(JwksServer server, Duration refresh, Duration ttl, Duration refetchMin) {
        RemoteKeySet ring = ring(server, null, refresh, ttl, refetchMin);
        ring.start();
        return ring;
    }

    private static TokenVerifier verifier(KeyRing ring) {
        return new TokenVerifier(ring, TestConfig.ISSUER, TestConfig.AUDIENCE, Duration.ZERO, Clock.systemUTC());
    }

    private static AuthRejection refused(TokenVerifier v, String token) {
        return assertInstanceOf(AuthResult.Rejected.class, v.verify(token)).reason();
    }

    private static boolean accepted(TokenVerifier v, String token) {
        return v.verify(token) instanceof AuthResult.Authenticated;
    }

    private static List<String> kids(KeyRing ring) {
        return ring.keys().stream().map(PinnedKey::kid).toList();
    }

    private double count(String name, String... tags) {
        return metrics.count(name, tags);
    }

    @Test
    void fetchesTheKeysAtStartAndSelectsThemByKid() {
        JwksServer jwks = server(JwksServer.http()).serve(a.publicJwk(), b.publicJwk());
        RemoteKeySet ring = ring(jwks, null, Duration.ofHours(1), Duration.ofHours(2), Duration.ofMinutes(1));
        TokenVerifier v = verifier(ring);
        assertEquals(AuthRejection.KEYS_UNAVAILABLE, refused(v, a.valid("alice")), "nothing before start");

        ring.start();

        assertEquals(1, jwks.hits());
        assertEquals(List.of("key-a", "key-b"), kids(ring));
        assertEquals("alice", assertInstanceOf(AuthResult.Authenticated.class, v.verify(a.valid("alice"))).userId());
        assertTrue(accepted(v, b.valid("bob")));
        assertEquals(AuthRejection.BAD_SIGNATURE, refused(v, a.badSignature("eve")));
        assertEquals(1, count("notify.gateway.jwks.refreshes", "trigger", "startup"));
        assertEquals(2.0, metrics.registry().get("notify.gateway.jwks.keys").gauge().value());
    }

    @Test
    void rotationBothKeysVerifyDuringTheOverlapAndTheOldKidIsRefusedOnceTheEndpointDropsIt() {
        JwksServer jwks = server(JwksServer.http()).serve(a.publicJwk());
        // refreshed every 100 ms; an unknown kid may refetch once (the clock of the rate limit stands still)
        RemoteKeySet ring = started(jwks, Duration.ofMillis(100), Duration.ofMinutes(10), Duration.ofMinutes(1));
        TokenVerifier v = verifier(ring);
        assertTrue(accepted(v, a.valid("alice")));

        jwks.serve(a.publicJwk(), b.publicJwk()); // the identity provider publishes the new key first
        Await.until(() -> "the new key fetched, in force: " + kids(ring), WAIT, () -> kids(ring).contains("key-b"));
        assertTrue(accepted(v, a.valid("alice")), "old key during the overlap");
        assertTrue(accepted(v, b.valid("bob")), "new key during the overlap");

        jwks.serve(b.publicJwk()); // then withdraws the old one
        Await.until(() -> "the old key dropped, in force: " + kids(ring), WAIT, () -> kids(ring).equals(List.of("key-b")));
        assertEquals(AuthRejection.UNKNOWN_KEY, refused(v, a.valid("alice")));
        assertTrue(accepted(v, b.valid("bob")));
        assertTrue(count("notify.gateway.jwks.refreshes", "trigger", "scheduled") >= 2);
    }

    @Test
    void unknownKidsTriggerAtMostOneRefetchPerRateLimitWindow() throws Exception {
        JwksServer jwks = server(JwksServer.http()).serve(a.publicJwk());
        RemoteKeySet ring = started(jwks, Duration.ofHours(1), Duration.ofHours(2), Duration.ofSeconds(30));
        TokenVerifier v = verifier(ring);
        assertEquals(1, jwks.hits());
        jwks.serve(a.publicJwk(), b.publicJwk());
        Tokens ghost = new Tokens("key-nobody-has");
        String token = ghost.valid("mallory");

        List<AuthRejection> first = burst(v, token);
        ring.awaitFetches(); // every fetch asked for so far has run

        assertTrue(first.stream().allMatch(r -> r == AuthRejection.UNKNOWN_KEY), first.toString());
        assertEquals(2, jwks.hits(), "200 tokens of an unknown kid: one refetch");
        assertEquals(1, count("notify.gateway.jwks.refreshes", "trigger", "unknown_kid"));
        assertEquals(199, count("notify.gateway.jwks.refetches.limited"));
        assertTrue(accepted(v, b.valid("bob")), "the one refetch brought the new key");

        nanos.addAndGet(Duration.ofSeconds(29).toNanos());
        burst(v, token);
        ring.awaitFetches();
        assertEquals(2, jwks.hits(), "still within the window: no refetch");

        nanos.addAndGet(Duration.ofSeconds(1).toNanos());
        burst(v, token);
        ring.awaitFetches();
        assertEquals(3, jwks.hits(), "the next window: one more");
        assertEquals(2, count("notify.gateway.jwks.refreshes", "trigger", "unknown_kid"));
    }

    /** 200 verifications of {@code token} from 8 threads at once. */
    private static List<AuthRejection> burst(TokenVerifier v, String token) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            CountDownLatch go = new CountDownLatch(1);
            List<Future<List<AuthRejection>>> threads = new ArrayList<>();
            for (int t = 0; t < 8; t++) {
                threads.add(pool.submit(() -> {
                    go.await();
                    List<AuthRejection> out = new ArrayList<>();
                    for (int i = 0; i < 25; i++) {
                        out.add(refused(v, token));
                    }
                    return out;
                }));
            }
            go.countDown();
            List<AuthRejection> all = new ArrayList<>();
            for (Future<List<AuthRejection>> f : threads) {
                all.addAll(f.get());
            }
            return all;
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aNodeWhoseJwksCannotBeFetchedStartsWithinABoundAndRefusesTokensUntilKeysArrive() {
        JwksServer jwks = server(JwksServer.http()).serve(a.publicJwk()).hang(); // never answers until released
        RemoteKeySet ring = ring(jwks, null, Duration.ofHours(1), Duration.ofHours(2), Duration.ofMillis(100));
        TokenVerifier v = verifier(ring);

        long t0 = System.nanoTime();
        ring.start();
        long tookMs = (System.nanoTime() - t0) / 1_000_000;

        assertTrue(tookMs < 5_000, "start waited " + tookMs + " ms");
        assertEquals(AuthRejection.KEYS_UNAVAILABLE, refused(v, a.valid("alice")));
        assertEquals(1, count("notify.gateway.jwks.fetch.failures", "trigger", "startup"));
        jwks.release();
        Await.until("keys after the endpoint answers", WAIT, () -> accepted(v, a.valid("alice")));
        assertTrue(count("notify.gateway.jwks.refreshes", "trigger", "scheduled") >= 1, "a retry brought them");
    }

    @Test
    void keysNotConfirmedWithinTheCacheTtlAreDroppedAndComeBackWithTheEndpoint() {
        JwksServer jwks = server(JwksServer.http()).serve(a.publicJwk());
        RemoteKeySet ring = started(jwks, Duration.ofMillis(100), Duration.ofMillis(600), Duration.ofMillis(100));
        TokenVerifier v = verifier(ring);
        assertTrue(accepted(v, a.valid("alice")));

        jwks.fail(503);
        Await.until("keys expired", WAIT, () -> ring.keys().isEmpty());
        assertEquals(AuthRejection.KEYS_UNAVAILABLE, refused(v, a.valid("alice")));
        assertEquals(1, count("notify.gateway.jwks.expirations"));
        assertTrue(count("notify.gateway.jwks.fetch.failures", "trigger", "scheduled") >= 1);

        jwks.serve(a.publicJwk());
        Await.until("keys back", WAIT, () -> accepted(v, a.valid("alice")));
    }

    @Test
    void aFailedFetchKeepsTheKeysInForce() throws Exception {
        JwksServer jwks = server(JwksServer.http()).serve(a.publicJwk());
        RemoteKeySet ring = started(jwks, Duration.ofHours(1), Duration.ofHours(2), Duration.ofSeconds(30));
        TokenVerifier v = verifier(ring);
        jwks.fail(500);
        assertEquals(AuthRejection.UNKNOWN_KEY, refused(v, b.valid("bob"))); // asks for a refetch, which fails
        ring.awaitFetches();
        assertEquals(1, count("notify.gateway.jwks.fetch.failures", "trigger", "unknown_kid"));
        assertTrue(accepted(v, a.valid("alice")));
    }

    @Test
    void httpsIsTrustedThroughTheConfiguredCaFileOnly() {
        JwksServer jwks = server(JwksServer.https()).serve(a.publicJwk());
        RemoteKeySet trusting = ring(jwks, jwks.caFile(), Duration.ofHours(1), Duration.ofHours(2), Duration.ofMinutes(1));
        trusting.start();
        assertTrue(accepted(verifier(trusting), a.valid("alice")));

        RemoteKeySet jvmDefault = started(jwks, Duration.ofHours(1), Duration.ofHours(2), Duration.ofMinutes(1));
        assertEquals(List.of(), jvmDefault.keys(), "a self-signed certificate the JVM does not trust");
        assertEquals(1, count("notify.gateway.jwks.fetch.failures", "trigger", "startup"));
    }

    @Test
    void keysThatCannotBePinnedAreSkippedAndASetWithoutAnyIsAFailedFetch() throws Exception {
        OctetSequenceKey hmac = new OctetSequenceKeyGenerator(256).keyID("hmac").generate();
        JWK encryption = new ECKeyGenerator(Curve.P_256).keyID("enc").keyUse(KeyUse.ENCRYPTION).generate().toPublicJWK();
        JwksServer jwks = server(JwksServer.http()).serve(List.of(hmac, encryption, a.publicJwk()));
        RemoteKeySet ring = started(jwks, Duration.ofHours(1), Duration.ofHours(2), Duration.ofMinutes(1));
        assertEquals(List.of("key-a"), kids(ring));

        JwksServer none = server(JwksServer.http()).serve(List.of(hmac, encryption));
        RemoteKeySet empty = started(none, Duration.ofHours(1), Duration.ofHours(2), Duration.ofMinutes(1));
        assertEquals(List.of(), empty.keys());
        assertEquals(1, count("notify.gateway.jwks.fetch.failures", "trigger", "startup"));
    }

    // --- settings -------------------------------------------------------------------------------

    private static GatewayConfig load(Map<String, String> jwt) {
        Map<String, String> m = TestConfig.base();
        m.remove("notify.gateway.jwt.hmac-secret");
        m.putAll(jwt);
        return GatewayConfig.load(Settings.of(m));
    }

    private static String refusedKey(Map<String, String> jwt) {
        String message = assertThrows(ConfigException.class, () -> load(jwt)).getMessage();
        return message.substring(0, message.indexOf(':'));
    }

    @Test
    void theJwksUrlHasDefaultsAndIsValidatedNamingTheKey() {
        RemoteJwks d = load(Map.of("notify.gateway.jwt.jwks-url", "https://idp.example/.well-known/jwks.json")).jwt().jwks();
        assertEquals(Duration.ofMinutes(5), d.refreshInterval());
        assertEquals(Duration.ofHours(1), d.cacheTtl());
        assertEquals(Duration.ofSeconds(30), d.refetchMinInterval());
        assertEquals(Duration.ofSeconds(5), d.fetchTimeout());
        assertNull(d.caFile());
        for (String loopback : List.of("http://127.0.0.1:8080/jwks", "http://localhost/jwks", "http://[::1]:9/jwks", "http://127.1.2.3/j")) {
            assertEquals(loopback, load(Map.of("notify.gateway.jwt.jwks-url", loopback)).jwt().jwks().url().toString());
        }

        Function<String, String> url = u -> refusedKey(Map.of("notify.gateway.jwt.jwks-url", u));
        assertEquals("notify.gateway.jwt.jwks-url", url.apply("http://idp.example/jwks"), "plain http off loopback");
        assertEquals("notify.gateway.jwt.jwks-url", url.apply("http://10.0.0.1/jwks"));
        assertEquals("notify.gateway.jwt.jwks-url", url.apply("file:///etc/jwks.json"));
        assertEquals("notify.gateway.jwt.jwks-url", url.apply("https://user:pw@idp.example/jwks"));
        assertEquals("notify.gateway.jwt.jwks-url", url.apply("not a url"));
        String https = "https://idp.example/jwks";
        assertEquals("notify.gateway.jwt.jwks-url", refusedKey(Map.of("notify.gateway.jwt.jwks-url", https,
                "notify.gateway.jwt.jwks-file", "/etc/jwks.json")), "never two key sources");
        assertEquals("notify.gateway.jwt.jwks-url", refusedKey(Map.of("notify.gateway.jwt.jwks-url", https,
                "notify.gateway.jwt.hmac-secret", "0123456789abcdef0123456789abcdef")));
        assertEquals("notify.gateway.jwt.jwks-cache-ttl", refusedKey(Map.of("notify.gateway.jwt.jwks-url", https,
                "notify.gateway.jwt.jwks-refresh-interval", "10m", "notify.gateway.jwt.jwks-cache-ttl", "10m")));
        assertEquals("notify.gateway.jwt.jwks-refetch-min-interval", refusedKey(Map.of("notify.gateway.jwt.jwks-url", https,
                "notify.gateway.jwt.jwks-refetch-min-interval", "10ms")));
        assertEquals("notify.gateway.jwt.jwks-ca-file", refusedKey(Map.of("notify.gateway.jwt.jwks-url", "http://127.0.0.1/j",
                "notify.gateway.jwt.jwks-ca-file", "/etc/ca.pem")));
        assertEquals("notify.gateway.jwt.jwks-file", refusedKey(Map.of()), "no key source at all");
    }

    @Test
    void anUnreadableCaFileFailsFastNamingTheKey() {
        RemoteJwks settings = new RemoteJwks(URI.create("https://127.0.0.1:1/jwks"), Path.of("/nonexistent/ca.pem"),
                Duration.ofMinutes(5), Duration.ofHours(1), Duration.ofSeconds(30), Duration.ofSeconds(1));
        ConfigException e = assertThrows(ConfigException.class, () -> RemoteKeySet.create(settings, metrics));
        assertTrue(e.getMessage().startsWith("notify.gateway.jwt.jwks-ca-file"), e.getMessage());
    }
}
