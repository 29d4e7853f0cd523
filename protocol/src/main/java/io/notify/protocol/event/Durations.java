package io.notify.protocol.event;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The envelope's duration form: a whole number and a unit s, m, h or d ({@code 90s}, {@code 2m}, {@code 7d}). */
final class Durations {

    static final Pattern FORM = Pattern.compile("^([1-9][0-9]{0,6})(s|m|h|d)$");

    private Durations() {
    }

    static Duration parse(String field, String text) {
        Matcher m = text == null ? null : FORM.matcher(text);
        if (m == null || !m.matches()) {
            throw new IllegalArgumentException(field + " must be a number and a unit s, m, h or d (e.g. 2m), got '" + text + "'");
        }
        long n = Long.parseLong(m.group(1));
        return switch (m.group(2)) {
            case "s" -> Duration.ofSeconds(n);
            case "m" -> Duration.ofMinutes(n);
            case "h" -> Duration.ofHours(n);
            default -> Duration.ofDays(n);
        };
    }
}
