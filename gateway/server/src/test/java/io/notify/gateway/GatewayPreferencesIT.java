package io.notify.gateway;

import static io.notify.gateway.support.InboxHttp.json;
import static io.notify.gateway.support.InboxHttp.problem;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.notify.devstack.Infra;
import io.notify.devstack.NotifyInfraExtension;
import io.notify.gateway.support.GatewayHarness;
import io.notify.gateway.support.InboxHttp;
import io.notify.gateway.support.StreamTopicReader;
import io.notify.protocol.prefs.Channels;
import io.notify.protocol.prefs.Preferences;
import io.notify.protocol.prefs.QuietHours;
import io.notify.protocol.prefs.UserPreferences;
import io.notify.protocol.stream.StreamId;
import io.notify.schemas.topic.TopicCatalog;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Users' preferences through a real gateway node (docs/inbox.md, "Preferences"): a PUT becomes the
 * user's record on the prefixed, compacted {@code notify.preferences} keyed by the token's own stream (read
 * back with a real consumer), a DELETE its tombstone, a GET is the query API's document, and every
 * refusal names what is wrong (every answer is checked against docs/inbox-openapi.yaml).
 */
@ExtendWith(NotifyInfraExtension.class)
@Timeout(120)
class GatewayPreferencesIT {

    static final Duration WAIT = Duration.ofSeconds(10);
    static final String BODY = "{\"types\":{\"order.shipped\":{\"live\":false,\"inbox\":true,\"push\":false}},"
            + "\"categories\":{\"marketing\":{\"push\":false}},\"quietHours\":{\"start\":\"22:00\",\"end\":\"07:00\",\"timeZone\":\"Europe/Berlin\"}}";

    private static GatewayHarness gateway;
    private static InboxHttp http;
    private static StreamTopicReader<UserPreferences> records;

    @BeforeAll
    static void start(Infra infra) {
        records = new StreamTopicReader<>(infra, TopicCatalog.of(infra.prefix()).preferences(), 3);
        gateway = new GatewayHarness(infra, "gw-prefs", Map.of());
        http = new InboxHttp(gateway);
    }

    @AfterAll
    static void stop() {
        if (records != null) {
            records.close();
        }
        if (gateway != null) {
            gateway.close();
        }
    }

    private static HttpResponse<String> put(String user, String body) {
        return http.send("PUT", "/v1/preferences", Map.of("Authorization", "Bearer " + gateway.tokens().valid(user),
                "Content-Type", "application/json"), HttpRequest.BodyPublishers.ofString(body));
    }

    @Test
    void aPutIsTheUsersRecordAndADeleteItsTombstone() {
        StreamId u = StreamId.forUser("ada");
        HttpResponse<String> stored = put("ada", BODY);
        assertEquals(200, stored.statusCode(), stored.body());
        assertEquals(false, json(stored).path("types").path("order.shipped").path("live").asBoolean(true));
        ConsumerRecord<StreamId, UserPreferences> record = records.of(u, 1, WAIT).get(0);
        Preferences expected = new Preferences(Map.of("order.shipped", new Channels(false, true, false)),
                Map.of("marketing", new Channels(null, null, false)), new QuietHours("22:00", "07:00", "Europe/Berlin"));
        assertEquals(expected, record.value().preferences());
        assertEquals(u, record.value().stream());

        HttpResponse<String> reset = http.send("DELETE", "/v1/preferences", Map.of("Authorization", "Bearer "
                + gateway.tokens().valid("ada")), HttpRequest.BodyPublishers.noBody());
        assertEquals(204, reset.statusCode(), reset.body());
        List<ConsumerRecord<StreamId, UserPreferences>> both = records.of(u, 2, WAIT);
        assertNull(both.get(1).value(), "a tombstone: compaction drops the user's preferences");
    }

    @Test
    void aGetIsTheQueryApisDocumentForTheTokensUserOnly() {
        StreamId u = StreamId.forUser("bea");
        Preferences prefs = new Preferences(Map.of("chat.nudge", new Channels(null, false, null)), Map.of(), null);
        gateway.stub().preferences(new UserPreferences(u, prefs, 7));
        HttpResponse<String> got = http.get("/v1/preferences", "bea");
        assertEquals(200, got.statusCode(), got.body());
        assertEquals(false, json(got).path("types").path("chat.nudge").path("inbox").asBoolean(true));
        assertTrue(json(got).path("quietHours").isMissingNode(), got.body());
        assertEquals(0, json(http.get("/v1/preferences", "somebody-else")).path("types").size(), "only the token's user");
    }

    @Test
    void badPreferencesAreRefusedNamingTheField() {
        double written = gateway.count("notify.gateway.inbox.requests", "endpoint", "preferences_put", "outcome", "ok");
        assertTrue(problem(put("cyd", "{\"types\":{\"order shipped\":{}}}"), 400, "invalid-body").contains("types keys"));
        assertTrue(problem(put("cyd", "{\"types\":{\"a\":{\"sms\":false}}}"), 400, "invalid-body").contains("sms"));
        assertTrue(problem(put("cyd", "{\"types\":{\"a\":{\"push\":\"no\"}}}"), 400, "invalid-body").length() > 0);
        assertTrue(problem(put("cyd", "{\"quietHours\":{\"start\":\"22:00\",\"end\":\"7:00\",\"timeZone\":\"Europe/Berlin\"}}"),
                400, "invalid-body").contains("quietHours.end"));
        assertTrue(problem(put("cyd", "{\"quietHours\":{\"start\":\"22:00\",\"end\":\"07:00\",\"timeZone\":\"Mars/Olympus\"}}"),
                400, "invalid-body").contains("quietHours.timeZone"));
        StringBuilder many = new StringBuilder("{\"types\":{");
        for (int i = 0; i <= Preferences.MAX_TYPES; i++) {
            many.append(i == 0 ? "" : ",").append("\"t").append(i).append("\":{\"push\":false}");
        }
        assertTrue(problem(put("cyd", many.append("}}").toString()), 400, "invalid-body").contains("at most 256"));
        problem(http.send("PUT", "/v1/preferences", Map.of("Authorization", "Bearer " + gateway.tokens().valid("cyd"),
                "Content-Type", "text/plain"), HttpRequest.BodyPublishers.ofString(BODY)), 415, "unsupported-media-type");
        problem(http.send("GET", "/v1/preferences", Map.of(), HttpRequest.BodyPublishers.noBody()), 401, "unauthenticated");
        problem(http.post("/v1/preferences", "cyd", BODY), 405, "method-not-allowed");
        assertEquals(written, gateway.count("notify.gateway.inbox.requests", "endpoint", "preferences_put", "outcome", "ok"),
                "nothing refused was written");
        assertEquals(List.of(), records.allOf(StreamId.forUser("cyd"), WAIT));
    }
}
