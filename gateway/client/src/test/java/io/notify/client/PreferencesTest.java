package io.notify.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.notify.client.support.FakeHttpClient;
import io.notify.client.support.FakeHttpClient.Answer;
import io.notify.client.support.FakeHttpClient.Sent;
import io.notify.protocol.prefs.Channels;
import io.notify.protocol.prefs.Preferences;
import io.notify.protocol.prefs.QuietHours;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The preferences calls of {@link NotifyClient} (docs/inbox.md, "Preferences") on an
 * {@link FakeHttpClient}: no network, no gateway, the client never started. What goes out (method,
 * URL, token, body), how the answers are read, and how refusals fail the futures.
 */
@Timeout(30)
class PreferencesTest extends UserApiFixture {

    static final String DOCUMENT = "{\"types\":{\"order.shipped\":{\"live\":false,\"inbox\":true,\"push\":false}},"
            + "\"categories\":{\"marketing\":{\"push\":false}},\"quietHours\":{\"start\":\"22:00\",\"end\":\"07:00\","
            + "\"timeZone\":\"Europe/Berlin\"}}";
    static final Preferences PREFS = new Preferences(Map.of("order.shipped", new Channels(false, true, false)),
            Map.of("marketing", new Channels(null, null, false)), new QuietHours("22:00", "07:00", "Europe/Berlin"));

    @Test
    void putSendsTheWholeDocumentWithTheTokenAndReadsTheStoredOne() throws Exception {
        http.answers.add(Answer.json(200, DOCUMENT));
        assertEquals(PREFS, client.putPreferences(PREFS).join());

        Sent put = last();
        assertEquals("PUT https://gw.test/base/v1/preferences", put.method() + " " + put.uri());
        assertEquals("Bearer t1", put.header("Authorization"));
        assertEquals("application/json", put.header("Content-Type"));
        assertEquals(json(DOCUMENT), json(put.body()));

        http.answers.add(Answer.json(200, "{\"types\":{},\"categories\":{\"marketing\":{\"push\":false}}}"));
        client.putPreferences(new Preferences(null, Map.of("marketing", new Channels(null, null, false)), null)).join();
        assertEquals(json("{\"types\":{},\"categories\":{\"marketing\":{\"push\":false}}}"), json(last().body()),
                "a channel not set and quiet hours not set are left out");
        assertThrows(NullPointerException.class, () -> client.putPreferences(null));
    }

    @Test
    void getReadsTheDocumentLenientlyAndNoneWhenTheUserSetNone() {
        http.answers.add(Answer.json(200, "{\"types\":{\"chat.nudge\":{\"inbox\":false,\"sms\":true}},\"categories\":{},"
                + "\"somethingNew\":1}"));
        Preferences got = client.preferences().join();
        assertEquals("GET /base/v1/preferences", last().line());
        assertEquals("", last().body(), "a GET has no body");
        assertNull(last().header("Content-Type"));
        assertEquals(new Preferences(Map.of("chat.nudge", new Channels(null, false, null)), Map.of(), null), got);
        assertTrue(got.channelsFor("chat.nudge", null).liveOn());

        http.answers.add(Answer.json(200, "{\"types\":{},\"categories\":{}}"));
        assertEquals(Preferences.NONE, client.preferences().join());
    }

    @Test
    void resetDeletesAndCompletesOnThe204() {
        http.answers.add(Answer.noContent());
        assertNull(client.resetPreferences().join());
        Sent delete = last();
        assertEquals("DELETE /base/v1/preferences", delete.line());
        assertEquals("Bearer t1", delete.header("Authorization"));
        assertEquals("", delete.body());

        http.answers.add(Answer.json(200, "{}"));
        assertEquals(OptionalInt.of(200), failure(() -> client.resetPreferences().join()).httpStatus(), "a reset is answered 204");
    }

    @Test
    void refusalsFailWithThePreferencesKindTheStatusAndTheProblem() {
        http.answers.add(Answer.problem(400, "invalid-body", "quietHours.timeZone must be an IANA time zone such as Europe/Berlin"));
        NotifyClientException invalid = failure(() -> client.putPreferences(PREFS).join());
        assertEquals(NotifyClientException.Kind.PREFERENCES, invalid.kind());
        assertEquals(OptionalInt.of(400), invalid.httpStatus());
        assertEquals(Optional.of("urn:notify:problem:invalid-body"), invalid.problemType());
        assertTrue(invalid.problemDetail().orElseThrow().startsWith("quietHours.timeZone"));
        assertEquals("PUT /v1/preferences answered HTTP 400 urn:notify:problem:invalid-body: quietHours.timeZone must be an IANA "
                + "time zone such as Europe/Berlin", invalid.getMessage());
        assertTrue(!invalid.terminal());

        http.answers.add(new Answer(413, Map.of("Content-Type", "text/plain"), "too large"));
        NotifyClientException tooLarge = failure(() -> client.putPreferences(PREFS).join());
        assertEquals(OptionalInt.of(413), tooLarge.httpStatus());
        assertEquals(Optional.empty(), tooLarge.problemType());

        http.answers.add(Answer.json(200, "{\"types\":{\"not a type\":{}}}"));
        NotifyClientException unreadable = failure(() -> client.preferences().join());
        assertEquals(NotifyClientException.Kind.PREFERENCES, unreadable.kind());
        assertEquals(OptionalInt.empty(), unreadable.httpStatus());
        assertTrue(unreadable.getMessage().contains("unreadable answer: types keys"), unreadable.getMessage());
        http.answers.add(Answer.json(200, "[]"));
        assertTrue(failure(() -> client.preferences().join()).getMessage().contains("unreadable answer"));
    }

    @Test
    void a401GetsOneFreshTokenAndA503IsRepeatedAfterItsRetryAfter() {
        http.answers.add(Answer.problem(401, "unauthenticated", "token refused: token_expired"));
        http.answers.add(new Answer(503, Map.of("Content-Type", "application/problem+json", "Retry-After", "0"),
                "{\"type\":\"urn:notify:problem:unavailable\",\"status\":503}"));
        http.answers.add(Answer.json(200, "{\"types\":{},\"categories\":{}}"));
        assertEquals(Preferences.NONE, client.preferences().join());
        assertEquals(List.of("Bearer t1", "Bearer t2-fresh", "Bearer t2-fresh"),
                http.sent.stream().map(s -> s.header("Authorization")).toList());
    }

    @Test
    void aClosedClientFailsEveryCallWithoutSendingIt() {
        client.close();
        assertEquals(NotifyClientException.Kind.PREFERENCES, failure(() -> client.preferences().join()).kind());
        assertEquals(NotifyClientException.Kind.PREFERENCES, failure(() -> client.resetPreferences().join()).kind());
        assertEquals(List.of(), http.sent);
    }
}
