package io.notify.push.webpush;

import io.notify.push.provider.PushResult;
import io.notify.push.provider.RetryAfter;
import java.time.Instant;

/**
 * What a push service's answer means to the sender (RFC 8030 §5 and §8.4, docs/push.md "Outcomes"):
 * 2xx → Sent (its {@code Location} the provider id); 404/410 → Gone; 429 and 5xx → Retry with the
 * {@code Retry-After} (delta-seconds or an HTTP-date); 413 → Refused, payload too large; any other
 * status (400, 401 and 403 for a refused VAPID token, a redirect) → Refused. Reasons are the
 * service's body clipped to {@link #MAX_REASON} characters. Pure functions.
 */
final class WebPushOutcomes {

    static final int MAX_REASON = 200;

    private WebPushOutcomes() {
    }

    static PushResult of(int status, String location, String retryAfter, String body, Instant now) {
        if (status / 100 == 2) {
            return new PushResult.Sent(status, "", location);
        }
        String reason = reason(status, body);
        if (status == 404 || status == 410) {
            return new PushResult.Gone(status, reason);
        }
        if (status == 429 || status / 100 == 5) {
            return new PushResult.Retry(status, reason, RetryAfter.parse(retryAfter, now));
        }
        if (status == 413) {
            return new PushResult.Refused(413, "payload too large");
        }
        return new PushResult.Refused(status, reason);
    }

    private static String reason(int status, String body) {
        String text = body == null ? "" : body.strip();
        if (text.isEmpty()) {
            return "HTTP " + status;
        }
        return text.length() <= MAX_REASON ? text : text.substring(0, MAX_REASON);
    }
}
