package io.notify.cli.replay;

import io.notify.common.config.ConfigException;
import io.notify.common.config.Settings;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the {@code --from}/{@code --to} arguments: an RFC 3339 date-time with an offset
 * ({@code 2026-11-29T10:15:30Z}, {@code 2026-11-29T10:15:30.123+01:00}; 't'/'z' in any case and a
 * space instead of 'T' are allowed as RFC 3339 permits), {@code now}, or a time relative to now:
 * {@code -2h}, {@code -30m}, {@code -1h30m}, {@code -45s}, {@code -7d}, {@code -500ms}
 * ({@code now-2h} is the same as {@code -2h}). Pure: "now" is a parameter.
 */
public final class TimeArgs {

    private static final Pattern RELATIVE = Pattern.compile("^(?:now)?-((?:\\d+(?:ms|d|h|m|s))+)$");
    private static final String HELP = "use RFC 3339 (2026-11-29T10:15:30Z), 'now', or a relative time such as -2h, -30m, -1h30m";

    private TimeArgs() {
    }

    /** The instant {@code text} names; a {@link UsageException} naming {@code flag} when it names none. */
    public static Instant parse(String flag, String text, Instant now) {
        String t = text == null ? "" : text.trim().toLowerCase(Locale.ROOT);
        if (t.isEmpty()) {
            throw new UsageException(flag + ": a time is required; " + HELP);
        }
        if (t.equals("now")) {
            return now;
        }
        Matcher rel = RELATIVE.matcher(t);
        if (rel.matches()) {
            return now.minus(relative(flag, text, rel.group(1)));
        }
        try {
            String iso = t.toUpperCase(Locale.ROOT);
            if (iso.length() > 10 && iso.charAt(10) == ' ') {
                iso = iso.substring(0, 10) + 'T' + iso.substring(11);
            }
            return OffsetDateTime.parse(iso, DateTimeFormatter.ISO_OFFSET_DATE_TIME).toInstant();
        } catch (DateTimeParseException e) {
            throw new UsageException(flag + ": cannot read '" + text + "' as a time; " + HELP);
        }
    }

    private static Duration relative(String flag, String text, String parts) {
        try {
            return Settings.parseDurationArg(flag, parts);
        } catch (ConfigException e) {
            throw new UsageException(flag + ": '" + text + "' is too far back");
        }
    }
}
