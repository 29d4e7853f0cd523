package io.notify.push.apns;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.notify.devstack.TestClock;
import io.notify.protocol.NotifyJson;
import io.notify.push.fake.ApnsFake;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The APNs fake refuses what APNs refuses, with Apple's reasons, so the sender's tests mean something. */
class ApnsFakeChecksTest {

    private static final Instant START = Instant.parse("2026-12-05T10:00:00Z");
    private static final String TOPIC = "com.example.shop";

    private final TestClock clock = new TestClock(START);
    private ApnsFake fake;
    private HttpClient http;
    private String deviceToken;

    @BeforeEach
    void start() {
        fake = ApnsFake.start(clock);
        http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).sslContext(fake.clientSslContext()).build();
        deviceToken = fake.register(TOPIC);
    }

    @AfterEach
    void stop() {
        fake.close();
    }

    private String providerToken(String keyId, Instant at) {
        return new ProviderTokens(fake.teamId(), keyId, ProviderTokens.readKey(fake.signingKeyPem()), new TestClock(at)).current().jwt();
    }

    private static Map<String, String> headers(String... pairs) {
        Map<String, String> h = new TreeMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            h.put(pairs[i], pairs[i + 1]);
        }
        return h;
    }

    private Map<String, String> good(String pushType, String priority) {
        return headers("authorization", "bearer " + providerToken(fake.keyId(), START), "apns-topic", TOPIC,
                "apns-push-type", pushType, "apns-priority", priority);
    }

    private String reason(String method, String path, Map<String, String> headers, String body, int expectedStatus) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(fake.baseUrl().resolve(path)).timeout(Duration.ofSeconds(5))
                .method(method, HttpRequest.BodyPublishers.ofString(body));
        headers.forEach(request::header);
        HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(HttpClient.Version.HTTP_2, response.version());
        assertEquals(expectedStatus, response.statusCode(), response.body());
        return response.body().isEmpty() ? "" : NotifyJson.mapper().readTree(response.body()).path("reason").asText();
    }

    private String push(Map<String, String> headers, String body, int expectedStatus) throws Exception {
        return reason("POST", "/3/device/" + deviceToken, headers, body, expectedStatus);
    }

    @Test
    void aWellFormedPushIsTaken() throws Exception {
        assertEquals("", push(good("alert", "10"), "{\"aps\":{\"alert\":\"hi\"}}", 200));
        assertEquals("", push(good("background", "5"), "{\"aps\":{\"content-available\":1}}", 200));
    }

    @Test
    void providerTokensAreChecked() throws Exception {
        String body = "{\"aps\":{\"content-available\":1}}";
        Map<String, String> none = good("background", "5");
        none.remove("authorization");
        assertEquals("MissingProviderToken", push(none, body, 403));

        Map<String, String> otherKey = good("background", "5");
        otherKey.put("authorization", "bearer " + providerToken("OTHERKEY00", START));
        assertEquals("InvalidProviderToken", push(otherKey, body, 403));

        clock.advance(Duration.ofMinutes(61));
        assertEquals("ExpiredProviderToken", push(good("background", "5"), body, 403));
        Map<String, String> fresh = good("background", "5");
        fresh.put("authorization", "bearer " + providerToken(fake.keyId(), clock.instant()));
        assertEquals("", push(fresh, body, 200));
    }

    @Test
    void headersAndPayloadAreChecked() throws Exception {
        String background = "{\"aps\":{\"content-available\":1}}";
        assertEquals("BadPriority", push(good("background", "10"), background, 400));
        assertEquals("InvalidPushType", push(good("background", "5"), "{\"aps\":{\"alert\":\"hi\"}}", 400));
        assertEquals("InvalidPushType", push(good("alert", "10"), background, 400));
        assertEquals("InvalidPushType", push(good("banner", "10"), background, 400));
        assertEquals("PayloadEmpty", push(good("background", "5"), "{\"event\":1}", 400));
        assertEquals("PayloadTooLarge", push(good("alert", "10"), "{\"aps\":{\"alert\":\"" + "x".repeat(4096) + "\"}}", 413));

        Map<String, String> badId = good("background", "5");
        badId.put("apns-id", "not-a-uuid");
        assertEquals("BadMessageId", push(badId, background, 400));
        Map<String, String> longCollapse = good("background", "5");
        longCollapse.put("apns-collapse-id", "c".repeat(65));
        assertEquals("BadCollapseId", push(longCollapse, background, 400));
        Map<String, String> noTopic = good("background", "5");
        noTopic.remove("apns-topic");
        assertEquals("MissingTopic", push(noTopic, background, 400));

        assertEquals("MethodNotAllowed", reason("GET", "/3/device/" + deviceToken, good("background", "5"), "", 405));
        assertEquals("BadPath", reason("POST", "/2/device/" + deviceToken, good("background", "5"), background, 404));
        assertEquals(0, fake.deliveries().size());
    }
}
