package io.notify.e2e.push;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.notify.client.ClientEvent;
import io.notify.client.NotifyClient;
import io.notify.client.TransportMode;
import io.notify.devstack.Await;
import io.notify.devstack.Infra;
import io.notify.devstack.NotifyInfraExtension;
import io.notify.gateway.GatewayServer;
import io.notify.platform.Platform;
import io.notify.protocol.NotifyJson;
import io.notify.protocol.event.EventEnvelope;
import io.notify.protocol.event.Fallback;
import io.notify.protocol.push.PushRegistration;
import io.notify.push.fake.WebPushFake;
import io.notify.push.fake.WebPushReceived;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A browser's push subscription registered through the gateway with the user's own token reaches
 * the phone in the pocket: the event no device received falls back, the push sender encrypts it for
 * the subscription, a local Web Push service (checking VAPID and decrypting as a real one does)
 * takes it; a user whose connected device acked the event gets no push; once that service says the subscription is gone, the registration is removed from the
 * user's list. The whole path on the real stack: gateway → notify.push-changes → fanout-streams →
 * notify.fallback → push sender → Web Push (docs/push.md).
 */
@ExtendWith(NotifyInfraExtension.class)
@Timeout(180)
class PushFallbackIT {

    static final Duration WAIT = Duration.ofSeconds(60);
    static final HttpClient HTTP = HttpClient.newHttpClient();

    @Test
    void aRegisteredBrowserGetsTheFallbackAndAGoneOneIsRemoved(Infra infra, @TempDir Path dir) throws Exception {
        try (Platform stack = Platform.forTest(infra, dir)
                .fanout("notify.fanout.fallback.check-interval", "200ms")
                .push("notify.push.initial-backoff", "50ms")
                .start();
             WebPushFake pushService = WebPushFake.start()) {
            GatewayServer gw = stack.startGateway("gw-push");
            String base = "http://127.0.0.1:" + gw.port();
            String token = stack.token("pf-ann");

            JsonNode config = json(call(base, "GET", "/v1/push/config", token, null, 200));
            String serverKey = config.path("webpush").path("applicationServerKey").asText();
            assertEquals(stack.config().vapid().publicKeyBase64Url(), serverKey, "the key a browser subscribes with");

            PushRegistration.WebPush browser = pushService.subscribe(serverKey);
            String body = "{\"webpush\":" + NotifyJson.mapper().writeValueAsString(browser) + "}";
            JsonNode created = json(call(base, "POST", "/v1/push/registrations", token, body, 201));
            String id = created.path("id").asText();
            assertEquals("webpush", created.path("provider").asText());
            assertEquals(id, json(call(base, "POST", "/v1/push/registrations", token, body, 201)).path("id").asText(),
                    "the same subscription again keeps its id");
            call(base, "POST", "/v1/push/registrations", token, "{\"webpush\":{\"endpoint\":\"https://push.example/x\","
                    + "\"keys\":{\"p256dh\":\"AAAA\",\"auth\":\"AAAA\"}}}", 400);
            call(base, "DELETE", "/v1/push/registrations/pr_AAAAAAAAAAAAAAAAAAAAAA", token, null, 404);
            Await.until("the registration listed", WAIT, () -> listed(base, token).contains(id));
            assertTrue(call(base, "GET", "/v1/push/registrations", token, null, 200).contains(browser.endpoint()));
            assertTrue(!call(base, "GET", "/v1/push/registrations", token, null, 200).contains(browser.keys().auth()),
                    "never the subscription's secret");

            // a second user whose connected device acks the event: no push for them, ever
            String boToken = stack.token("pf-bo");
            PushRegistration.WebPush boBrowser = pushService.subscribe(serverKey);
            call(base, "POST", "/v1/push/registrations", boToken, "{\"webpush\":" + NotifyJson.mapper().writeValueAsString(boBrowser) + "}",
                    201);
            java.util.Set<String> boGot = java.util.concurrent.ConcurrentHashMap.newKeySet();
            try (NotifyClient phone = NotifyClient.builder().gateways(List.of(URI.create("ws://127.0.0.1:" + gw.port())))
                    .token(boToken).transport(TransportMode.WEBSOCKET).device("bo-phone").ackInterval(Duration.ofMillis(100))
                    .listener((ClientEvent e) -> boGot.add(e.id())).connect()) {
                Await.until("bo connected", WAIT, () -> phone.nodeId().isPresent());
                publish(stack, "pf-bo", "pf-acked");
                Await.until("bo's device got it", WAIT, () -> boGot.contains("pf-acked"));
                publish(stack, "pf-ann", "pf-1");
                List<WebPushReceived> got0 = pushService.awaitMessages(WebPushFake.idOf(browser), 1, WAIT);
                assertEquals(1, got0.size());
                Await.until("bo's fallback cancelled by the ack", WAIT,
                        () -> stack.fanout().app().metrics().registry().find("notify.fanout.fallback").tags("outcome", "cancelled_ack")
                                .counters().stream().mapToDouble(c -> c.count()).sum() >= 1);
                assertEquals(List.of(), pushService.messages(WebPushFake.idOf(boBrowser)), "a device that acked is not pushed to");
            }
            List<WebPushReceived> got = pushService.awaitMessages(WebPushFake.idOf(browser), 1, WAIT);
            JsonNode event = NotifyJson.mapper().readTree(got.get(0).plaintext());
            assertEquals("pf-1", event.path("id").asText(), "the event nobody received, decrypted by the browser's keys");
            assertEquals("Your order shipped", event.path("data").path("title").asText());

            pushService.unsubscribe(WebPushFake.idOf(browser)); // the browser dropped it: the push service answers 410
            publish(stack, "pf-ann", "pf-2");
            Await.until("the gone registration removed", WAIT, () -> listed(base, token).isEmpty());
            assertEquals(1, pushService.messages(WebPushFake.idOf(browser)).size(), "nothing delivered after it was gone");

            String phone = json(call(base, "POST", "/v1/push/registrations", token, "{\"fcm\":{\"token\":\"pf-phone-token\"}}", 201))
                    .path("id").asText();
            Await.until("the phone listed", WAIT, () -> listed(base, token).contains(phone));
            call(base, "DELETE", "/v1/push/registrations/" + phone, token, null, 204);
            Await.until("the phone unregistered", WAIT, () -> listed(base, token).isEmpty());
            call(base, "GET", "/v1/push/registrations", "not-a-token", null, 401);
        }
    }

    private static void publish(Platform stack, String user, String id) throws Exception {
        var data = NotifyJson.mapper().createObjectNode().put("title", "Your order shipped");
        stack.publisher().publish(EventEnvelope.durable("order.shipped", data, user).withId(id)
                .withFallback(new Fallback("10s", "push"))).get(30, TimeUnit.SECONDS);
    }

    private static List<String> listed(String base, String token) {
        try {
            List<String> ids = new ArrayList<>();
            json(call(base, "GET", "/v1/push/registrations", token, null, 200)).path("registrations")
                    .forEach(r -> ids.add(r.path("id").asText()));
            return ids;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static String call(String base, String method, String path, String token, String body, int expected) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path)).header("Authorization", "Bearer " + token)
                .timeout(Duration.ofSeconds(30));
        if (body != null) {
            b.header("Content-Type", "application/json");
        }
        b.method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        HttpResponse<String> r = HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(expected, r.statusCode(), method + " " + path + ": " + r.body());
        return r.body();
    }

    private static JsonNode json(String body) throws Exception {
        return NotifyJson.mapper().readTree(body);
    }
}
