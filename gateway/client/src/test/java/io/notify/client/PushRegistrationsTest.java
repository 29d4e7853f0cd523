package io.notify.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.notify.client.support.FakeHttpClient;
import io.notify.client.support.FakeHttpClient.Answer;
import io.notify.client.support.FakeHttpClient.Sent;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The push registration calls of {@link NotifyClient} (docs/push.md, "Registering a device") on an
 * {@link FakeHttpClient}: no network, no gateway, the client never started. What goes out (method,
 * URL, token, body), how the answers are read, and how refusals fail the futures.
 */
@Timeout(30)
class PushRegistrationsTest extends UserApiFixture {

    private static final String ID = "pr_AbCdEfGhIjKlMnOpQrStU1";
    private static final String APNS_TOKEN = "AB".repeat(32);

    @Test
    void anFcmTokenIsPostedWithTheTokenAndTheRegistrationIsRead() throws Exception {
        http.answers.add(Answer.json(201, "{\"id\":\"" + ID + "\",\"provider\":\"fcm\",\"createdAt\":1764410100000}"));
        PushRegistration r = client.registerPush(PushAddress.fcm("dK3x:APA91b-token_1.2")).join();

        Sent post = last();
        assertEquals("POST https://gw.test/base/v1/push/registrations", post.method() + " " + post.uri());
        assertEquals("Bearer t1", post.header("Authorization"));
        assertEquals("application/json", post.header("Content-Type"));
        assertEquals(json("{\"fcm\":{\"token\":\"dK3x:APA91b-token_1.2\"}}"), json(post.body()));
        assertEquals(new PushRegistration(ID, PushProvider.FCM, Instant.ofEpochMilli(1764410100000L), Optional.empty(),
                Optional.empty(), Optional.empty()), r);
    }

    @Test
    void anApnsTokenGoesInLowerCaseWithItsTopicAndEnvironment() throws Exception {
        http.answers.add(Answer.json(201, "{\"id\":\"" + ID + "\",\"provider\":\"apns\",\"createdAt\":5,\"topic\":\"com.example.app\","
                + "\"environment\":\"sandbox\",\"somethingNew\":true}"));
        PushRegistration r = client.registerPush(PushAddress.apns(APNS_TOKEN, "com.example.app", PushAddress.ApnsEnvironment.SANDBOX))
                .join();
        assertEquals(json("{\"apns\":{\"token\":\"" + "ab".repeat(32) + "\",\"topic\":\"com.example.app\",\"environment\":\"sandbox\"}}"),
                json(last().body()));
        assertEquals(Optional.of("com.example.app"), r.topic());
        assertEquals(Optional.of(PushAddress.ApnsEnvironment.SANDBOX), r.environment());
        assertEquals(PushProvider.APNS, r.provider());
    }

    @Test
    void aRawWebPushSubscriptionIsPostedAsToJsonGivesIt() throws Exception {
        String endpoint = "https://fcm.googleapis.com/fcm/send/abc:def";
        http.answers.add(Answer.json(201, "{\"id\":\"" + ID + "\",\"provider\":\"webpush\",\"createdAt\":7,\"endpoint\":\"" + endpoint + "\"}"));
        PushRegistration r = client.registerPush(PushAddress.webPush(endpoint, "BPk3", "aut_h-1")).join();
        assertEquals(json("{\"webpush\":{\"endpoint\":\"" + endpoint + "\",\"expirationTime\":null,\"keys\":{\"p256dh\":\"BPk3\","
                + "\"auth\":\"aut_h-1\"}}}"), json(last().body()));
        assertEquals(Optional.of(endpoint), r.endpoint());

        client.registerPush(new PushAddress.WebPush(endpoint, 1764410100000L, "BPk3", "aut_h-1")).exceptionally(e -> null).join();
        assertEquals(1764410100000L, json(last().body()).at("/webpush/expirationTime").asLong());
    }

    @Test
    void theListAndTheConfigAreRead() {
        http.answers.add(Answer.json(200, "{\"registrations\":[{\"id\":\"" + ID + "\",\"provider\":\"webpush\",\"createdAt\":1,"
                + "\"endpoint\":\"https://push.example/1\"},{\"id\":\"pr_0000000000000000000000\",\"provider\":\"fcm\",\"createdAt\":2}]}"));
        List<PushRegistration> list = client.listPushRegistrations().join();
        assertEquals("GET /base/v1/push/registrations", last().line());
        assertEquals("", last().body(), "a GET has no body");
        assertNull(last().header("Content-Type"));
        assertEquals(List.of(ID, "pr_0000000000000000000000"), list.stream().map(PushRegistration::id).toList());
        assertEquals(List.of(PushProvider.WEBPUSH, PushProvider.FCM), list.stream().map(PushRegistration::provider).toList());

        http.answers.add(Answer.json(200, "{\"webpush\":{\"applicationServerKey\":\"BKey_1\"}}"));
        assertEquals(new PushConfig(Optional.of("BKey_1")), client.pushConfig().join());
        assertEquals("GET /base/v1/push/config", last().line());
        http.answers.add(Answer.json(200, "{}"));
        assertEquals(new PushConfig(Optional.empty()), client.pushConfig().join(), "no Web Push at this gateway");
    }

    @Test
    void unregisterDeletesTheIdAnd404IsAPushError() {
        http.answers.add(Answer.noContent());
        assertNull(client.unregisterPush(ID).join());
        Sent delete = last();
        assertEquals("DELETE /base/v1/push/registrations/" + ID, delete.line());
        assertEquals("Bearer t1", delete.header("Authorization"));
        assertEquals("", delete.body());

        http.answers.add(Answer.problem(404, "not-found", "no push registration " + ID + " for this user"));
        NotifyClientException missing = failure(() -> client.unregisterPush(ID).join());
        assertEquals(NotifyClientException.Kind.PUSH, missing.kind());
        assertEquals(OptionalInt.of(404), missing.httpStatus());
        assertEquals(Optional.of("urn:notify:problem:not-found"), missing.problemType());
        assertEquals("DELETE /v1/push/registrations/" + ID + " answered HTTP 404 urn:notify:problem:not-found: no push registration "
                + ID + " for this user", missing.getMessage());

        int sent = http.sent.size();
        for (String bad : new String[] {null, "", "pr_short", "xx_AbCdEfGhIjKlMnOpQrStU1", "pr_AbCdEfGhIjKlMnOpQrSt/1", ID + "?x"}) {
            assertThrows(IllegalArgumentException.class, () -> client.unregisterPush(bad), String.valueOf(bad));
        }
        assertEquals(sent, http.sent.size(), "a malformed id is never sent");
    }

    @Test
    void refusalsFailWithThePushKindTheStatusAndTheProblem() {
        http.answers.add(Answer.problem(400, "invalid-body", "fcm.token must be 1..4096 characters of [A-Za-z0-9_:.-]"));
        NotifyClientException invalid = failure(() -> client.registerPush(PushAddress.fcm("tok")).join());
        assertEquals(NotifyClientException.Kind.PUSH, invalid.kind());
        assertEquals(OptionalInt.of(400), invalid.httpStatus());
        assertEquals(Optional.of("urn:notify:problem:invalid-body"), invalid.problemType());
        assertTrue(invalid.problemDetail().orElseThrow().startsWith("fcm.token"));
        assertTrue(!invalid.terminal());

        http.answers.add(new Answer(413, java.util.Map.of("Content-Type", "text/plain"), "too large"));
        NotifyClientException tooLarge = failure(() -> client.registerPush(PushAddress.fcm("tok")).join());
        assertEquals(OptionalInt.of(413), tooLarge.httpStatus());
        assertEquals(Optional.empty(), tooLarge.problemType());

        http.answers.add(Answer.json(201, "{\"id\":\"not-an-id\",\"provider\":\"fcm\",\"createdAt\":1}"));
        NotifyClientException unreadable = failure(() -> client.registerPush(PushAddress.fcm("tok")).join());
        assertEquals(NotifyClientException.Kind.PUSH, unreadable.kind());
        assertEquals(OptionalInt.empty(), unreadable.httpStatus());
        assertTrue(unreadable.getMessage().contains("unreadable answer"), unreadable.getMessage());

        http.answers.add(Answer.json(200, "{\"id\":\"" + ID + "\",\"provider\":\"fcm\",\"createdAt\":1}"));
        assertEquals(OptionalInt.of(200), failure(() -> client.registerPush(PushAddress.fcm("tok")).join()).httpStatus(),
                "a registration is answered 201, not 200");
    }

    @Test
    void a401GetsOneFreshTokenAndA503IsRepeatedAfterItsRetryAfter() {
        http.answers.add(Answer.problem(401, "unauthenticated", "token refused: token_expired"));
        http.answers.add(new Answer(503, java.util.Map.of("Content-Type", "application/problem+json", "Retry-After", "0"),
                "{\"type\":\"urn:notify:problem:overloaded\",\"status\":503}"));
        http.answers.add(Answer.json(200, "{\"registrations\":[]}"));
        assertEquals(List.of(), client.listPushRegistrations().join());
        assertEquals(List.of("Bearer t1", "Bearer t2-fresh", "Bearer t2-fresh"),
                http.sent.stream().map(s -> s.header("Authorization")).toList());
    }

    @Test
    void aClosedClientFailsEveryCallWithoutSendingIt() {
        client.close();
        NotifyClientException closed = failure(() -> client.listPushRegistrations().join());
        assertEquals(NotifyClientException.Kind.PUSH, closed.kind());
        assertEquals(List.of(), http.sent);
        assertThrows(NullPointerException.class, () -> client.registerPush(null));
    }
}
