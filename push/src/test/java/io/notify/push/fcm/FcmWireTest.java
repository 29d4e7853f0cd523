package io.notify.push.fcm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import io.notify.push.fake.FcmFake;
import io.notify.push.provider.PushMessage;
import io.notify.push.provider.PushResult;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The FCM sender's wire formats without a network: the grant's JWT, the body's edge cases, the answers. */
class FcmWireTest {

    private static final Instant NOW = Instant.parse("2026-12-05T10:00:00Z");

    private static PushMessage message(String collapseId, Duration ttl) {
        return new PushMessage("ev_1", "s", 1, "{}".getBytes(StandardCharsets.UTF_8), collapseId, ttl, PushMessage.Urgency.LOW, null);
    }

    private static HttpHeaders headers(Map<String, List<String>> map) {
        return HttpHeaders.of(map, (k, v) -> true);
    }

    @Test
    void theGrantIsAnRs256JwtWithTheFcmScopeForAnHour() throws Exception {
        ServiceAccount account;
        try (FcmFake fake = FcmFake.start()) {
            account = ServiceAccount.parse(fake.serviceAccountJson());
        }
        AccessTokenSource source = new AccessTokenSource(account, HttpClient.newHttpClient(), Clock.systemUTC(), Duration.ofSeconds(1));

        SignedJWT jwt = SignedJWT.parse(source.assertion(NOW));

        assertEquals(JWSAlgorithm.RS256, jwt.getHeader().getAlgorithm());
        assertEquals(account.privateKeyId(), jwt.getHeader().getKeyID());
        JWTClaimsSet claims = jwt.getJWTClaimsSet();
        assertEquals(account.clientEmail(), claims.getIssuer());
        assertEquals(List.of(account.tokenUri().toString()), claims.getAudience());
        assertEquals("https://www.googleapis.com/auth/firebase.messaging", claims.getStringClaim("scope"));
        assertEquals(NOW, claims.getIssueTime().toInstant());
        assertEquals(NOW.plusSeconds(3600), claims.getExpirationTime().toInstant());
    }

    @Test
    void aLongCollapseIdIsHashedToAWebPushTopic() {
        String collapseId = "c".repeat(64);
        JsonNode message = FcmRequestBody.json("t", message(collapseId, Duration.ofSeconds(1)), NOW).get("message");

        String topic = message.path("webpush").path("headers").path("Topic").asText();
        assertEquals(32, topic.length());
        assertTrue(topic.matches("[A-Za-z0-9_-]{32}"), topic);
        assertEquals(collapseId, message.path("android").path("collapse_key").asText());
        assertEquals("low", message.path("webpush").path("headers").path("Urgency").asText());
    }

    @Test
    void theTtlIsClampedToFourWeeksAndZeroExpiresAtOnce() {
        JsonNode longLived = FcmRequestBody.json("t", message("c", Duration.ofDays(60)), NOW).get("message");
        assertEquals("2419200s", longLived.path("android").path("ttl").asText());
        assertEquals("2419200", longLived.path("webpush").path("headers").path("TTL").asText());

        JsonNode now = FcmRequestBody.json("t", message("c", Duration.ZERO), NOW).get("message");
        assertEquals("0s", now.path("android").path("ttl").asText());
        assertEquals("0", now.path("apns").path("headers").path("apns-expiration").asText());
    }

    @Test
    void answersAreReadByErrorCodeThenStatus() {
        HttpHeaders none = headers(Map.of());
        assertInstanceOf(PushResult.Gone.class, FcmOutcomes.of(404, "<html>Not Found</html>", none, NOW));
        assertEquals(new PushResult.Refused(400, "INVALID_ARGUMENT: bad ttl"), FcmOutcomes.of(400,
                "{\"error\":{\"code\":400,\"message\":\"bad ttl\",\"status\":\"INVALID_ARGUMENT\"}}", none, NOW));
        assertEquals(new PushResult.Refused(403, "PERMISSION_DENIED: denied"), FcmOutcomes.of(403,
                "{\"error\":{\"code\":403,\"message\":\"denied\",\"status\":\"PERMISSION_DENIED\"}}", none, NOW));
        PushResult.Retry dated = assertInstanceOf(PushResult.Retry.class, FcmOutcomes.of(503, "",
                headers(Map.of("Retry-After", List.of("Sat, 05 Dec 2026 10:01:00 GMT"))), NOW));
        assertEquals(Duration.ofMinutes(1), dated.retryAfter());
        assertNull(((PushResult.Retry) FcmOutcomes.of(429, "", headers(Map.of("Retry-After", List.of("soon"))), NOW)).retryAfter());
        assertEquals(new PushResult.Sent(200, "", null), FcmOutcomes.of(200, "not json", none, NOW));
    }
}
