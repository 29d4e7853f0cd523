package io.notify.push.provider;

import java.net.http.HttpHeaders;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;

/**
 * An HTTP {@code Retry-After} (RFC 9110 §10.2.3) as every provider answers it: delta-seconds or an
 * HTTP-date, as a wait from {@code now} (never negative, at most {@link #MAX}); null when absent or
 * unreadable.
 */
public final class RetryAfter {

    /** Longer waits are clamped: the sender's own backoff bound is shorter still. */
    public static final Duration MAX = Duration.ofDays(1);

    private RetryAfter() {
    }

    public static Duration of(HttpHeaders headers, Instant now) {
        return headers.firstValue("retry-after").map(v -> parse(v, now)).orElse(null);
    }

    public static Duration parse(String value, Instant now) {
        if (value == null) {
            return null;
        }
        String v = value.strip();
        try {
            if (!v.isEmpty() && v.chars().allMatch(Character::isDigit)) {
                return v.length() > 9 ? MAX : clamp(Duration.ofSeconds(Long.parseLong(v)));
            }
            Instant at = ZonedDateTime.parse(v, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
            return clamp(at.isBefore(now) ? Duration.ZERO : Duration.between(now, at));
        } catch (DateTimeParseException | NumberFormatException e) {
            return null;
        }
    }

    private static Duration clamp(Duration d) {
        return d.compareTo(MAX) > 0 ? MAX : d;
    }
}
