package io.notify.push.webpush;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.notify.protocol.push.PushRegistration;
import io.notify.push.fake.WebPushFake;
import io.notify.push.fake.WebPushReceived;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The fake refuses what a real push service refuses: requests written by hand, without the provider. */
class WebPushFakeTest {

    private static final Duration WAIT = Duration.ofSeconds(10);

    private final WebPushFake fake = WebPushFake.start();
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private final VapidKeys keys = VapidKeys.generate();
    private final VapidAuthorization vapid = new VapidAuthorization("mailto:ops@notify.example", keys, Clock.systemUTC());

    @AfterEach
    void stop() {
        fake.close();
    }

    @Test
    void acceptsAWellFormedPushAndDecryptsIt() throws Exception {
        PushRegistration.WebPush sub = fake.subscribe(keys.publicKeyBase64Url());

        HttpResponse<String> response = post(sub, headers(sub, vapid), encrypt(sub, "hello"));

        assertEquals(201, response.statusCode(), response.body());
        WebPushReceived got = fake.awaitMessages(WebPushFake.idOf(sub), 1, WAIT).get(0);
        assertEquals("hello", got.text());
        assertEquals(60, got.ttlSeconds());
        assertEquals(fake.origin() + "/message/" + got.messageId(), response.headers().firstValue("Location").orElseThrow());
    }

    @Test
    void refusesMissingOrWrongHeaders() throws Exception {
        PushRegistration.WebPush sub = fake.subscribe();
        Map<String, String> good = headers(sub, vapid);

        assertEquals(400, post(sub, without(good, "TTL"), encrypt(sub, "x")).statusCode());
        assertEquals(400, post(sub, with(good, "TTL", "soon"), encrypt(sub, "x")).statusCode());
        assertEquals(400, post(sub, with(good, "Content-Encoding", "aesgcm"), encrypt(sub, "x")).statusCode());
        assertEquals(400, post(sub, with(good, "Topic", "x".repeat(33)), encrypt(sub, "x")).statusCode());
        assertEquals(400, post(sub, with(good, "Urgency", "urgent"), encrypt(sub, "x")).statusCode());
        assertEquals(401, post(sub, without(good, "Authorization"), encrypt(sub, "x")).statusCode());
        assertEquals(401, post(sub, with(good, "Authorization", "WebPush abc"), encrypt(sub, "x")).statusCode());
        assertEquals(400, post(sub, good, "not an aes128gcm body".getBytes(StandardCharsets.UTF_8)).statusCode());
        assertEquals(413, post(sub, good, new byte[4097]).statusCode());
        assertTrue(fake.log().isEmpty());
    }

    @Test
    void refusesATokenNotSignedByK() throws Exception {
        PushRegistration.WebPush sub = fake.subscribe();
        String token = vapid.headerFor(URI.create(sub.endpoint())).split(",")[0];
        String forged = token + ", k=" + VapidKeys.generate().publicKeyBase64Url();

        HttpResponse<String> response = post(sub, with(headers(sub, vapid), "Authorization", forged), encrypt(sub, "x"));

        assertEquals(403, response.statusCode());
        assertEquals("the JWT signature is not by k", response.body());
    }

    @Test
    void refusesAWrongAudienceAndABadExpiry() throws Exception {
        PushRegistration.WebPush sub = fake.subscribe();
        String otherAudience = vapid.headerFor(URI.create("https://push.example.net/x"));
        TestClock past = new TestClock(Clock.systemUTC().instant().minus(Duration.ofHours(13)));
        TestClock future = new TestClock(Clock.systemUTC().instant().plus(Duration.ofHours(13)));
        String expired = new VapidAuthorization("mailto:a@b", keys, past).headerFor(URI.create(sub.endpoint()));
        String tooLong = new VapidAuthorization("mailto:a@b", keys, future).headerFor(URI.create(sub.endpoint()));

        assertEquals(403, post(sub, with(headers(sub, vapid), "Authorization", otherAudience), encrypt(sub, "x")).statusCode());
        assertEquals(403, post(sub, with(headers(sub, vapid), "Authorization", expired), encrypt(sub, "x")).statusCode());
        assertEquals(403, post(sub, with(headers(sub, vapid), "Authorization", tooLong), encrypt(sub, "x")).statusCode());
    }

    @Test
    void answersUnknownAndUnsubscribedEndpoints() throws Exception {
        PushRegistration.WebPush sub = fake.subscribe();
        PushRegistration.WebPush unknown = new PushRegistration.WebPush(fake.origin() + "/push/nope", null, sub.keys());

        assertEquals(404, post(unknown, headers(unknown, vapid), encrypt(sub, "x")).statusCode());
        fake.unsubscribe(WebPushFake.idOf(sub));
        assertEquals(410, post(sub, headers(sub, vapid), encrypt(sub, "x")).statusCode());
    }

    @Test
    void aTopicReplacesTheHeldMessageOfTheSameTopic() throws Exception {
        PushRegistration.WebPush sub = fake.subscribe();
        String id = WebPushFake.idOf(sub);

        post(sub, with(headers(sub, vapid), "Topic", "room-1"), encrypt(sub, "first"));
        post(sub, headers(sub, vapid), encrypt(sub, "untopiced"));
        post(sub, with(headers(sub, vapid), "Topic", "room-1"), encrypt(sub, "second"));

        assertEquals(3, fake.awaitMessages(id, 3, WAIT).size());
        List<String> held = fake.held(id).stream().map(WebPushReceived::text).toList();
        assertEquals(List.of("untopiced", "second"), held);
    }

    @Test
    void answersScriptedFailuresFirst() throws Exception {
        PushRegistration.WebPush sub = fake.subscribe();
        fake.failNext(WebPushFake.ANY, 1, 503, "Fri, 04 Dec 2026 10:01:30 GMT");

        HttpResponse<String> failed = post(sub, headers(sub, vapid), encrypt(sub, "x"));
        HttpResponse<String> next = post(sub, headers(sub, vapid), encrypt(sub, "x"));

        assertEquals(503, failed.statusCode());
        assertEquals("Fri, 04 Dec 2026 10:01:30 GMT", failed.headers().firstValue("Retry-After").orElseThrow());
        assertEquals(201, next.statusCode());
    }

    private Map<String, String> headers(PushRegistration.WebPush sub, VapidAuthorization signer) {
        return Map.of("TTL", "60", "Content-Encoding", "aes128gcm", "Content-Type", "application/octet-stream",
                "Authorization", signer.headerFor(URI.create(sub.endpoint())));
    }

    private static byte[] encrypt(PushRegistration.WebPush sub, String text) {
        return new Aes128GcmEncryptor().encrypt(text.getBytes(StandardCharsets.UTF_8), sub.keys().publicKey(), sub.keys().authSecret());
    }

    private HttpResponse<String> post(PushRegistration.WebPush sub, Map<String, String> headers, byte[] body) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(sub.endpoint())).timeout(WAIT)
                .POST(HttpRequest.BodyPublishers.ofByteArray(body));
        headers.forEach(request::header);
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static Map<String, String> with(Map<String, String> headers, String name, String value) {
        Map<String, String> out = new HashMap<>(headers);
        out.put(name, value);
        return out;
    }

    private static Map<String, String> without(Map<String, String> headers, String name) {
        Map<String, String> out = new HashMap<>(headers);
        out.remove(name);
        return out;
    }
}
