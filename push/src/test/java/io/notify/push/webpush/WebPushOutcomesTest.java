package io.notify.push.webpush;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.notify.push.provider.PushResult;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class WebPushOutcomesTest {

    private static final Instant NOW = Instant.parse("2026-12-04T10:00:00Z");

    @Test
    void mapsEachAnswerToWhatTheSenderDoesNext() {
        assertEquals(new PushResult.Sent(201, "", "https://push.example/m/1"), of(201, "https://push.example/m/1", null, ""));
        assertEquals(new PushResult.Sent(200, "", null), of(200, null, null, "ok"));
        assertEquals(new PushResult.Sent(202, "", null), of(202, null, null, ""));
        assertEquals(new PushResult.Gone(404, "not found"), of(404, null, null, "not found"));
        assertEquals(new PushResult.Gone(410, "HTTP 410"), of(410, null, null, ""));
        assertEquals(new PushResult.Retry(429, "slow down", Duration.ofSeconds(7)), of(429, null, "7", "slow down"));
        assertEquals(new PushResult.Retry(503, "HTTP 503", null), of(503, null, null, null));
        assertEquals(new PushResult.Refused(413, "payload too large"), of(413, null, null, "too big"));
        assertEquals(new PushResult.Refused(403, "{\"errno\":109}"), of(403, null, null, "{\"errno\":109}"));
        assertEquals(new PushResult.Refused(400, "bad"), of(400, null, null, "bad"));
        assertEquals(new PushResult.Refused(301, "HTTP 301"), of(301, null, null, ""));
    }

    @Test
    void clipsTheReasonTo200Characters() {
        PushResult result = of(410, null, null, "x".repeat(5000));

        assertEquals(200, result.reason().length());
    }

    @Test
    void readsRetryAfterAsSecondsOrAnHttpDate() {
        assertEquals(Duration.ofSeconds(120), io.notify.push.provider.RetryAfter.parse(" 120 ", NOW));
        assertEquals(Duration.ofSeconds(90), io.notify.push.provider.RetryAfter.parse("Fri, 04 Dec 2026 10:01:30 GMT", NOW));
        assertEquals(Duration.ZERO, io.notify.push.provider.RetryAfter.parse("Fri, 04 Dec 2026 09:00:00 GMT", NOW));
        assertNull(io.notify.push.provider.RetryAfter.parse("soon", NOW));
        assertNull(io.notify.push.provider.RetryAfter.parse("-5", NOW));
        assertNull(io.notify.push.provider.RetryAfter.parse(null, NOW));
    }

    private static PushResult of(int status, String location, String retryAfter, String body) {
        return WebPushOutcomes.of(status, location, retryAfter, body, NOW);
    }
}
