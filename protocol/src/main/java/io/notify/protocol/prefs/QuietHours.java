package io.notify.protocol.prefs;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.zone.ZoneOffsetTransition;
import java.util.regex.Pattern;

/**
 * A daily window of local time in an IANA time zone during which a user's offline fallbacks are held
 * until the window ends (docs/inbox.md, "Quiet hours"). {@code start} and {@code end} are
 * {@code HH:mm}; the window is {@code [start, end)} and crosses midnight when {@code end < start}
 * (22:00–07:00). Daylight-saving changes follow the zone's rules: a window that ends inside a skipped
 * hour ends when the clocks resume; in a repeated hour the earlier offset counts. Live delivery to
 * connected devices is not affected unless {@code live} is {@code false}: then an event sequenced
 * inside the window is muted for live (its position only, as with a type muted for live; it is in
 * the inbox).
 */
@JsonPropertyOrder({"start", "end", "timeZone", "live"})
@JsonInclude(JsonInclude.Include.NON_NULL)
public record QuietHours(String start, String end, String timeZone, Boolean live) {

    private static final Pattern HH_MM = Pattern.compile("^([01][0-9]|2[0-3]):[0-5][0-9]$");
    private static final DateTimeFormatter HOURS_MINUTES = DateTimeFormatter.ofPattern("HH:mm");

    public QuietHours {
        if (start == null || !HH_MM.matcher(start).matches()) {
            throw new IllegalArgumentException("quietHours.start must be HH:mm (00:00 to 23:59), got '" + start + "'");
        }
        if (end == null || !HH_MM.matcher(end).matches()) {
            throw new IllegalArgumentException("quietHours.end must be HH:mm (00:00 to 23:59), got '" + end + "'");
        }
        if (start.equals(end)) {
            throw new IllegalArgumentException("quietHours.start and quietHours.end must differ");
        }
        zone(timeZone);
    }

    /** Quiet hours that hold fallbacks only (live delivery unaffected). */
    public QuietHours(String start, String end, String timeZone) {
        this(start, end, timeZone, null);
    }

    /** Whether the window also mutes live delivery ({@code "live": false}). */
    public boolean mutesLive() {
        return live != null && !live;
    }

    private static ZoneId zone(String timeZone) {
        if (timeZone == null || timeZone.isEmpty() || timeZone.length() > 64) {
            throw new IllegalArgumentException("quietHours.timeZone must be an IANA time zone such as Europe/Berlin");
        }
        try {
            return ZoneId.of(timeZone);
        } catch (DateTimeException e) {
            throw new IllegalArgumentException("quietHours.timeZone must be an IANA time zone such as Europe/Berlin, got '"
                    + timeZone + "'");
        }
    }

    /**
     * When the window that holds {@code now} ends, or null when {@code now} is outside it.
     */
    public Instant endOf(Instant now) {
        ZoneId zone = zone(timeZone);
        LocalTime from = time(start);
        LocalTime to = time(end);
        ZonedDateTime local = now.atZone(zone);
        LocalTime t = local.toLocalTime();
        LocalDate endDay;
        if (from.isBefore(to)) {
            if (t.isBefore(from) || !t.isBefore(to)) {
                return null;
            }
            endDay = local.toLocalDate();
        } else if (!t.isBefore(from)) {
            endDay = local.toLocalDate().plusDays(1);
        } else if (t.isBefore(to)) {
            endDay = local.toLocalDate();
        } else {
            return null;
        }
        LocalDateTime localEnd = LocalDateTime.of(endDay, to);
        ZoneOffsetTransition gap = zone.getRules().getValidOffsets(localEnd).isEmpty() ? zone.getRules().getTransition(localEnd) : null;
        Instant ends = gap != null ? gap.getInstant() : ZonedDateTime.of(localEnd, zone).toInstant();
        return ends.isAfter(now) ? ends : null;
    }

    private static LocalTime time(String hhmm) {
        try {
            return LocalTime.parse(hhmm, HOURS_MINUTES);
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("not HH:mm: " + hhmm, e);
        }
    }
}
