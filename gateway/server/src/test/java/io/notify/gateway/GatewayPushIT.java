package io.notify.gateway;

import static io.notify.gateway.support.InboxHttp.json;
import static io.notify.gateway.support.InboxHttp.problem;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.notify.devstack.Infra;
import io.notify.devstack.NotifyInfraExtension;
import io.notify.gateway.support.GatewayHarness;
import io.notify.gateway.support.InboxHttp;
import io.notify.gateway.support.StreamTopicReader;
import io.notify.protocol.push.PushChange;
import io.notify.protocol.push.PushRegistration;
import io.notify.protocol.push.PushRegistrations;
import io.notify.protocol.stream.StreamId;
import io.notify.schemas.topic.TopicCatalog;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Push registrations through a real gateway node (docs/push.md, "Registering a device"): a
 * registration becomes a change on the prefixed {@code notify.push-changes} keyed by the token's own
 * stream (read back with a real consumer), the list is proxied from the query API stub without keys
 * or tokens, an unknown id is a 404, and every refusal is a documented problem (every answer is
 * checked against docs/inbox-openapi.yaml).
 */
@ExtendWith(NotifyInfraExtension.class)
@Timeout(120)
class GatewayPushIT {

    static final Duration WAIT = Duration.ofSeconds(10);
    /** A real P-256 point and a 16-byte secret, as a browser's subscription carries them. */
    static final String KEYS = "\"keys\":{\"p256dh\":\"BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM\","
            + "\"auth\":\"tBHItJI5svbpez7KI4CCXg\"}";
    static final String BROWSER = "{\"webpush\":{\"endpoint\":\"https://push.example.net/send/abc\",\"expirationTime\":null," + KEYS + "}}";

    private static GatewayHarness gateway;
    private static InboxHttp http;
    private static StreamTopicReader<PushChange> changes;

    @BeforeAll
    static void start(Infra infra) {
        changes = new StreamTopicReader<>(infra, TopicCatalog.of(infra.prefix()).pushChanges(), 3);
        gateway = new GatewayHarness(infra, "gw-push", Map.of("notify.gateway.push.vapid-public-key",
                "BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM"));
        http = new InboxHttp(gateway);
    }

    @AfterAll
    static void stop() {
        if (changes != null) {
            changes.close();
        }
        if (gateway != null) {
            gateway.close();
        }
    }

    private static HttpResponse<String> delete(String path, String user) {
        return http.send("DELETE", path, Map.of("Authorization", "Bearer " + gateway.tokens().valid(user)),
                HttpRequest.BodyPublishers.noBody());
    }

    @Test
    void aRegistrationIsAChangeOnTheUsersStreamWithAnIdFromItsAddress() {
        StreamId u = StreamId.forUser("pia");
        HttpResponse<String> created = http.post("/v1/push/registrations", "pia", BROWSER);
        assertEquals(201, created.statusCode(), created.body());
        JsonNode view = json(created);
        String id = view.path("id").asText();
        assertEquals("webpush", view.path("provider").asText());
        assertEquals("https://push.example.net/send/abc", view.path("endpoint").asText());
        assertEquals("/v1/push/registrations/" + id, created.headers().firstValue("Location").orElse(null));
        assertFalse(created.body().contains("tBHItJI5svbpez7KI4CCXg"), "the secret is never echoed");
        assertEquals(id, json(http.post("/v1/push/registrations", "pia", BROWSER)).path("id").asText(), "the same address, the same id");
        String phone = json(http.post("/v1/push/registrations", "pia", "{\"apns\":{\"token\":\"" + "ab".repeat(32)
                + "\",\"topic\":\"com.example.app\",\"environment\":\"sandbox\"}}")).path("id").asText();

        List<PushChange> got = changes.valuesOf(u, 3, WAIT);
        assertEquals(List.of(PushChange.Kind.REGISTER, PushChange.Kind.REGISTER, PushChange.Kind.REGISTER),
                got.stream().map(PushChange::kind).toList());
        assertEquals(List.of(id, id, phone), got.stream().map(PushChange::id).toList());
        assertEquals("tBHItJI5svbpez7KI4CCXg", got.get(0).registration().webpush().keys().auth(), "the sender gets the keys");
        assertEquals("sandbox", got.get(2).registration().apns().environment());
    }

    @Test
    void theListIsTheQueryApisWithoutSecretsAndADeleteOfAHeldIdIsAChange() {
        StreamId u = StreamId.forUser("quinn");
        PushRegistration fcm = PushRegistration.of(null, new PushRegistration.Fcm("quinn-fcm-token"), null, 7);
        gateway.stub().pushRegistrations(new PushRegistrations(u, List.of(fcm), null, 7));
        HttpResponse<String> list = http.get("/v1/push/registrations", "quinn");
        assertEquals(200, list.statusCode(), list.body());
        assertEquals(fcm.id(), json(list).path("registrations").get(0).path("id").asText());
        assertFalse(list.body().contains("quinn-fcm-token"), "never a token: " + list.body());
        assertEquals(0, json(http.get("/v1/push/registrations", "somebody-else")).path("registrations").size(), "only the token's user");

        assertEquals(204, delete("/v1/push/registrations/" + fcm.id(), "quinn").statusCode());
        PushChange removal = changes.valuesOf(u, 1, WAIT).get(0);
        assertEquals(PushChange.unregister(u, fcm.id(), removal.at()), removal);
        problem(delete("/v1/push/registrations/" + fcm.id(), "somebody-else"), 404, "not-found");
        problem(delete("/v1/push/registrations/not-an-id", "quinn"), 400, "bad-request");
    }

    @Test
    void badRegistrationsAreRefusedNamingTheField() {
        assertTrue(problem(http.post("/v1/push/registrations", "rex", "{\"webpush\":{\"endpoint\":\"http://push.example.net/x\"," + KEYS
                + "}}"), 400, "invalid-body").contains("https"));
        assertTrue(problem(http.post("/v1/push/registrations", "rex", "{\"webpush\":{\"endpoint\":\"https://10.1.2.3/x\"," + KEYS
                + "}}"), 400, "invalid-body").contains("public host"));
        assertTrue(problem(http.post("/v1/push/registrations", "rex", "{\"webpush\":{\"endpoint\":\"https://localhost/x\"," + KEYS
                + "}}"), 400, "invalid-body").contains("public host"));
        assertTrue(problem(http.post("/v1/push/registrations", "rex", "{\"webpush\":{\"endpoint\":\"https://push.example.net/x\","
                + "\"keys\":{\"p256dh\":\"AAAA\",\"auth\":\"tBHItJI5svbpez7KI4CCXg\"}}}"), 400, "invalid-body").contains("p256dh"));
        assertTrue(problem(http.post("/v1/push/registrations", "rex", "{\"fcm\":{\"token\":\"t\"},\"apns\":{\"token\":\"" + "ab".repeat(32)
                + "\",\"topic\":\"a\",\"environment\":\"sandbox\"}}"), 400, "invalid-body").contains("exactly one"));
        assertTrue(problem(http.post("/v1/push/registrations", "rex", "{\"apns\":{\"token\":\"" + "ab".repeat(32)
                + "\",\"topic\":\"a\",\"environment\":\"staging\"}}"), 400, "invalid-body").contains("environment"));
        assertTrue(problem(http.post("/v1/push/registrations", "rex", "{\"sms\":{}}"), 400, "invalid-body").length() > 0);
        problem(http.send("POST", "/v1/push/registrations", Map.of("Authorization", "Bearer " + gateway.tokens().valid("rex"),
                "Content-Type", "text/plain"), HttpRequest.BodyPublishers.ofString(BROWSER)), 415, "unsupported-media-type");
        problem(http.send("GET", "/v1/push/registrations", Map.of(), HttpRequest.BodyPublishers.noBody()), 401, "unauthenticated");
        assertEquals(0.0, gateway.count("notify.gateway.inbox.requests", "endpoint", "push_register", "outcome", "ok"),
                "nothing refused was written");
    }

    @Test
    void theConfigNamesTheVapidKeyBrowsersSubscribeWith() {
        HttpResponse<String> config = http.get("/v1/push/config", "sol");
        assertEquals(200, config.statusCode(), config.body());
        assertEquals("BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM",
                json(config).path("webpush").path("applicationServerKey").asText());
    }
}
