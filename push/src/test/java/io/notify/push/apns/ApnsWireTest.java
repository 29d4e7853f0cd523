package io.notify.push.apns;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jwt.SignedJWT;
import io.notify.devstack.TestClock;
import io.notify.push.provider.PushResult;
import java.net.URI;
import java.net.http.HttpHeaders;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPairGenerator;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The APNs sender's settings, provider tokens and answers without a network. */
class ApnsWireTest {

    private static final Instant NOW = Instant.parse("2026-12-05T10:00:00Z");
    private static final HttpHeaders NONE = HttpHeaders.of(Map.of(), (k, v) -> true);

    private static String pem(String curve) throws Exception {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
        generator.initialize(new ECGenParameterSpec(curve));
        return "-----BEGIN PRIVATE KEY-----\n" + Base64.getMimeEncoder().encodeToString(generator.generateKeyPair().getPrivate().getEncoded())
                + "\n-----END PRIVATE KEY-----\n";
    }

    @Test
    void providerTokensAreEs256ByTheTeamAndSharedUntilFiftyMinutes() throws Exception {
        TestClock clock = new TestClock(NOW.plusMillis(700));
        ProviderTokens tokens = new ProviderTokens("TEAM123456", "KEY1234567", ProviderTokens.readKey(pem("secp256r1")), clock);

        ProviderTokens.ProviderToken first = tokens.current();
        SignedJWT jwt = SignedJWT.parse(first.jwt());
        assertEquals(JWSAlgorithm.ES256, jwt.getHeader().getAlgorithm());
        assertEquals("KEY1234567", jwt.getHeader().getKeyID());
        assertEquals("TEAM123456", jwt.getJWTClaimsSet().getIssuer());
        assertEquals(NOW, jwt.getJWTClaimsSet().getIssueTime().toInstant());

        clock.advance(Duration.ofMinutes(49));
        assertSame(first, tokens.current());
        clock.advance(Duration.ofMinutes(1));
        ProviderTokens.ProviderToken second = tokens.current();
        assertNotSame(first, second);

        ProviderTokens.ProviderToken renewed = tokens.renew(second);
        assertNotSame(second, renewed);
        assertSame(renewed, tokens.renew(second), "a stale token is renewed once, however many requests report it");
    }

    @Test
    void theKeyIsReadFromTextOrAFileAndMustBeP256(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("AuthKey_KEY1234567.p8"), pem("secp256r1"));
        ProviderTokens.readKey(file.toString());

        assertTrue(assertThrows(IllegalArgumentException.class, () -> ProviderTokens.readKey(pem("secp384r1")))
                .getMessage().contains("P-256"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> ProviderTokens.readKey(dir.resolve("missing.p8").toString()))
                .getMessage().startsWith("apns.signing-key: cannot read"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> ProviderTokens.readKey("-----BEGIN EC PRIVATE KEY-----\nAA==\n"))
                .getMessage().contains("PKCS#8"));
    }

    @Test
    void settingsHaveDefaultsAndNameBadValues() {
        ApnsSettings settings = new ApnsSettings("TEAM123456", "KEY1234567", "/etc/notify/AuthKey.p8");
        assertEquals("https://api.push.apple.com", settings.base("production"));
        assertEquals("https://api.sandbox.push.apple.com", settings.base("sandbox"));
        assertEquals(ApnsSettings.DEFAULT_REQUEST_TIMEOUT, settings.requestTimeout());
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new ApnsSettings("team", "KEY1234567", "k"))
                .getMessage().startsWith("apns.team-id"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new ApnsSettings("TEAM123456", "KEY123456", "k"))
                .getMessage().startsWith("apns.key-id"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new ApnsSettings("TEAM123456", "KEY1234567", "k",
                URI.create("http://api.push.apple.com"), null, null, null)).getMessage().startsWith("apns.production-url"));
        assertTrue(new ApnsSettings("TEAM123456", "KEY1234567", "-----BEGIN PRIVATE KEY-----x").toString().contains("<pem>"));
    }

    @Test
    void theApnsIdDependsOnTheEventAndTheRegistrationOnly() {
        assertEquals(ApnsRequest.apnsId("ev_1", "pr_a"), ApnsRequest.apnsId("ev_1", "pr_a"));
        assertNotEquals(ApnsRequest.apnsId("ev_1", "pr_a"), ApnsRequest.apnsId("ev_1", "pr_b"));
        assertNotEquals(ApnsRequest.apnsId("ev_1", "pr_a"), ApnsRequest.apnsId("ev_2", "pr_a"));
    }

    @Test
    void answersAreReadByStatusAndReason() {
        assertEquals(new PushResult.Gone(410, "ExpiredToken"), ApnsOutcomes.of(410, "{\"reason\":\"ExpiredToken\"}", NONE, "id", NOW));
        assertEquals(new PushResult.Refused(400, "BadCollapseId"), ApnsOutcomes.of(400, "{\"reason\":\"BadCollapseId\"}", NONE, "id", NOW));
        assertEquals(new PushResult.Refused(403, "TopicDisallowed"), ApnsOutcomes.of(403, "{\"reason\":\"TopicDisallowed\"}", NONE, "id", NOW));
        assertEquals(new PushResult.Retry(500, "InternalServerError", Duration.ofSeconds(5)), ApnsOutcomes.of(500,
                "{\"reason\":\"InternalServerError\"}", HttpHeaders.of(Map.of("retry-after", List.of("5")), (k, v) -> true), "id", NOW));
        assertEquals(new PushResult.Sent(200, "", "sent-id"), ApnsOutcomes.of(200, "", NONE, "sent-id", NOW));
    }
}
