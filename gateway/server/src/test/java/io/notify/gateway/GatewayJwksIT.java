package io.notify.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.notify.devstack.Await;
import io.notify.devstack.Infra;
import io.notify.devstack.NotifyInfraExtension;
import io.notify.gateway.support.GatewayHarness;
import io.notify.gateway.support.JwksServer;
import io.notify.gateway.support.SseClient;
import io.notify.gateway.support.Tokens;
import io.notify.gateway.support.WsClient;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A real node verifying tokens with the keys of a JWKS URL (docs/gateway.md, "Keys from a JWKS URL"),
 * served by the test itself: over HTTPS with a self-signed certificate trusted through
 * {@code jwks-ca-file}, rotated while the node runs; and over loopback HTTP, unreachable when the
 * node starts.
 */
@ExtendWith(NotifyInfraExtension.class)
@Timeout(120)
class GatewayJwksIT {

    private static final Duration WAIT = Duration.ofSeconds(15);
    private static Tokens oldKey;
    private static Tokens newKey;

    @BeforeAll
    static void keys() {
        oldKey = new Tokens("idp-2025");
        newKey = new Tokens("idp-2026");
    }

    private static Map<String, String> jwksSettings(JwksServer jwks) {
        Map<String, String> m = new HashMap<>();
        m.put("notify.gateway.jwt.jwks-file", ""); // the harness's own key file is not used
        m.put("notify.gateway.jwt.jwks-url", jwks.url().toString());
        m.put("notify.gateway.jwt.jwks-refresh-interval", "1s");
        m.put("notify.gateway.jwt.jwks-cache-ttl", "1m");
        m.put("notify.gateway.jwt.jwks-refetch-min-interval", "200ms");
        return m;
    }

    private static int sseStatus(GatewayHarness gateway, String token) {
        try (SseClient c = SseClient.connect(gateway.http("/v1/sse"), Map.of("Authorization", "Bearer " + token))) {
            return c.status();
        }
    }

    private static int wsStatus(GatewayHarness gateway, String token) {
        return WsClient.handshakeStatus(gateway.ws(), token);
    }

    @Test
    void handshakesSignedWithTheJwksUrlKeysAreAcceptedAndTheOldKidIsRefusedAfterRotation(Infra infra) {
        try (JwksServer jwks = JwksServer.https().serve(oldKey.publicJwk())) {
            Map<String, String> settings = jwksSettings(jwks);
            settings.put("notify.gateway.jwt.jwks-ca-file", jwks.caFile().toString());
            try (GatewayHarness gateway = new GatewayHarness(infra, "gw-jwks-rotate", settings)) {
                assertEquals(101, wsStatus(gateway, oldKey.valid("alice")));
                assertEquals(200, sseStatus(gateway, oldKey.valid("alice")));
                assertEquals(401, wsStatus(gateway, newKey.valid("bob")), "a key the endpoint does not serve yet");

                jwks.serve(oldKey.publicJwk(), newKey.publicJwk()); // rotation starts: both published
                Await.until("the new key accepted", WAIT, () -> sseStatus(gateway, newKey.valid("bob")) == 200);
                assertEquals(101, wsStatus(gateway, newKey.valid("bob")));
                assertEquals(101, wsStatus(gateway, oldKey.valid("alice")), "the old key during the overlap");
                assertEquals(200, sseStatus(gateway, oldKey.valid("alice")));

                jwks.serve(newKey.publicJwk()); // rotation ends: the old key withdrawn
                Await.until("the old key refused", WAIT, () -> sseStatus(gateway, oldKey.valid("alice")) == 401);
                assertEquals(401, wsStatus(gateway, oldKey.valid("alice")));
                assertEquals(101, wsStatus(gateway, newKey.valid("bob")));
                assertTrue(gateway.count("notify.gateway.handshake.rejections", "transport", "ws", "reason", "unknown_key") >= 2);
                assertEquals(1, gateway.count("notify.gateway.jwks.refreshes", "trigger", "startup"));
                assertTrue(gateway.count("notify.gateway.jwks.refreshes", "trigger", "scheduled") >= 1);
            }
        }
    }

    @Test
    void aNodeWhoseJwksCannotBeFetchedStartsAndAnswers503UntilTheKeysArrive(Infra infra) {
        try (JwksServer jwks = JwksServer.http().fail(503)) {
            try (GatewayHarness gateway = new GatewayHarness(infra, "gw-jwks-late", jwksSettings(jwks))) {
                assertEquals(503, wsStatus(gateway, oldKey.valid("alice")));
                assertEquals(503, sseStatus(gateway, oldKey.valid("alice")));
                assertEquals(1, gateway.count("notify.gateway.handshake.rejections", "transport", "ws", "reason", "keys_unavailable"));
                assertEquals(1, gateway.count("notify.gateway.jwks.fetch.failures", "trigger", "startup"));

                jwks.serve(oldKey.publicJwk());
                Await.until("keys fetched on a retry", WAIT, () -> sseStatus(gateway, oldKey.valid("alice")) == 200);
                assertEquals(101, wsStatus(gateway, oldKey.valid("alice")));
            }
        }
    }
}
