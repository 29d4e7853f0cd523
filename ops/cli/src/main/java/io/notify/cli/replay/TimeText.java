package io.notify.cli.replay;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * Epoch milliseconds as RFC 3339 UTC text with exactly three fraction digits
 * ({@code 2026-11-29T09:15:30.120Z}), so the text has a fixed width and sorts like the time. Caches
 * the text of the last second, since consecutive records mostly share it. Not thread-safe.
 */
public final class TimeText {

    private static final DateTimeFormatter SECONDS = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss")
            .withZone(ZoneOffset.UTC);

    private long cachedSecond = Long.MIN_VALUE;
    private String cachedText;

    public String format(long epochMillis) {
        long second = Math.floorDiv(epochMillis, 1000);
        if (second != cachedSecond) {
            cachedText = SECONDS.format(Instant.ofEpochSecond(second));
            cachedSecond = second;
        }
        int ms = Math.floorMod(epochMillis, 1000);
        return cachedText + (ms < 10 ? ".00" : ms < 100 ? ".0" : ".") + ms + 'Z';
    }

    /** Appends {@link #format} followed by a closing quote, without building a string per call. */
    void appendTo(LineBuffer b, long epochMillis) {
        long second = Math.floorDiv(epochMillis, 1000);
        if (second != cachedSecond) {
            cachedText = SECONDS.format(Instant.ofEpochSecond(second));
            cachedSecond = second;
        }
        int ms = Math.floorMod(epochMillis, 1000);
        b.ascii(cachedText).ascii(".");
        b.ascii(ms < 10 ? "00" : ms < 100 ? "0" : "").number(ms).ascii("Z\"");
    }

    /** A JSON number literal of epoch ms as text, or null when {@code millis} is not such a number. */
    String formatMillisText(String millis) {
        if (millis == null) {
            return null;
        }
        try {
            return format(Long.parseLong(millis));
        } catch (NumberFormatException e) {
            return millis;
        }
    }

    /** {@code 23 ms}, {@code 4.2 s}, {@code 12 min}, {@code 5 h}, {@code 3 d}. */
    public static String human(long millis) {
        long abs = Math.abs(millis);
        if (abs < 1_000) {
            return millis + " ms";
        }
        if (abs < 60_000) {
            return String.format(java.util.Locale.ROOT, "%.1f s", millis / 1000.0);
        }
        if (abs < 3_600_000) {
            return millis / 60_000 + " min";
        }
        return abs < 86_400_000 ? millis / 3_600_000 + " h" : millis / 86_400_000 + " d";
    }
}
