package io.notify.registry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.notify.devstack.RedisOptions;
import io.notify.devstack.RedisServer;
import io.notify.devstack.TestCertificate;
import io.notify.protocol.stream.StreamId;
import io.notify.registry.lease.NodeRegistry;
import io.notify.registry.route.RedisRouteLookup;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Both sides of the registry reach a Redis that requires a password ({@code redis://:pw@…}) and
 * one that speaks only TLS to them ({@code rediss://…?ca-file=…}), each on a server of the test's
 * own; a wrong password or an untrusted certificate leaves the registry unavailable, never open.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RedisSecurityIT {

    private static final Duration LOOKUP = Duration.ofMillis(500);
    /** How long a refused URI is watched: many heartbeats (250 ms) and reconnect attempts. */
    private static final Duration REFUSED_FOR = Duration.ofSeconds(3);
    private final StreamId user = StreamId.forUser("secure-1");

    @Test
    void aPasswordProtectedRedisIsUsedWithThePasswordAndRefusedWithoutIt() throws Exception {
        String password = "s3cret \"with\" spaces";
        try (RedisServer server = RedisServer.start(RedisOptions.defaults().withPassword(password))) {
            String userInfo = URLEncoder.encode(password, StandardCharsets.UTF_8).replace("+", "%20");
            assertRoutes("redis://:" + userInfo + "@127.0.0.1:" + server.port());
            assertUnavailable("redis://:wrong-password@127.0.0.1:" + server.port());
            assertUnavailable(server.uri());
        }
    }

    @Test
    void aTlsRedisIsUsedWithItsCaAndRefusedWithoutIt(@TempDir Path dir) throws Exception {
        TestCertificate cert = TestCertificate.selfSigned(dir);
        int tlsPort = freePort();
        try (RedisServer server = RedisServer.start(RedisOptions.defaults().withExtraArgs(List.of(
                "--tls-port", Integer.toString(tlsPort),
                "--tls-cert-file", cert.certificate().toString(),
                "--tls-key-file", cert.privateKey().toString(),
                "--tls-ca-cert-file", cert.certificate().toString(),
                "--tls-auth-clients", "no")))) {
            assertTrue(server.ping(), "the plain port stays for devstack's readiness check");
            assertRoutes("rediss://127.0.0.1:" + tlsPort + "?" + RegistryClients.CA_FILE + "=" + cert.certificate());
            assertUnavailable("rediss://127.0.0.1:" + tlsPort); // the JVM's default trust store does not know the test CA
            assertUnavailable("redis://127.0.0.1:" + tlsPort); // plain text to the TLS port
        }
    }

    /** A node registers a connection and a router routes to it, both through {@code uri}. */
    private void assertRoutes(String uri) throws Exception {
        try (RegistryTesting t = new RegistryTesting(uri, "sec-")) {
            NodeRegistry node = t.node("gw-sec", RegistryTesting.FAST);
            node.start();
            // the first Lettuce client of a test JVM on a busy machine can take more than a heartbeat to connect
            RegistryTesting.await(Duration.ofSeconds(20), "the node connected through " + scheme(uri), node::redisAvailable);
            node.register(user, "c1").toCompletableFuture().get(2, TimeUnit.SECONDS);
            RedisRouteLookup router = t.router();
            RegistryTesting.await(Duration.ofSeconds(5), "the route through " + scheme(uri),
                    () -> router.lookup(user, LOOKUP).available() && !router.lookup(user, LOOKUP).live().isEmpty());
            assertEquals(Map.of("gw-sec", List.of("c1")), router.lookup(user, LOOKUP).connectionsByNode());
        }
    }

    /**
     * Through {@code uri} neither side gets in: watched for {@link #REFUSED_FOR} (the same JVM has just
     * connected through the right URI, so a connection that could succeed would within it), the node
     * never reaches Redis and the router never answers.
     */
    private void assertUnavailable(String uri) throws Exception {
        try (RegistryTesting t = new RegistryTesting(uri, "sec-")) {
            NodeRegistry node = t.node("gw-sec", RegistryTesting.FAST);
            node.start();
            RedisRouteLookup router = t.router();
            long until = System.nanoTime() + REFUSED_FOR.toNanos();
            while (System.nanoTime() - until < 0) {
                assertFalse(router.lookup(user, LOOKUP).available(), scheme(uri) + " must not be usable");
                assertFalse(node.redisAvailable(), scheme(uri) + " must not be usable");
                assertFalse(router.redisAvailable(), scheme(uri) + " must not be usable");
                LockSupport.parkNanos(50_000_000); // pacing of the watch, not a synchronisation
            }
        }
    }

    private static String scheme(String uri) {
        return uri.replaceAll(":[^:@/]*@", ":***@"); // failure messages never show a password
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
