package io.notify.cli.bench;

import io.notify.protocol.prefs.QuietHours;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;

/**
 * The quiet hours of {@code bench fallback}'s quiet mode. Quiet hours are {@code HH:mm} in an IANA
 * zone (minute-granular), so the window cannot end an exact number of seconds after the events are
 * published: it ends at the first whole minute of the zone at least {@code endsIn} after it is chosen
 * (so {@code endsIn} to {@code endsIn} + 60 s later) and started one whole minute before the minute it
 * was chosen in (a little before the run). Every zone in use today is a whole number of minutes off
 * UTC, so that minute is a whole UTC minute too. Pure.
 *
 * @param start    {@code HH:mm}, local time in {@code timeZone}
 * @param end      {@code HH:mm}, local time in {@code timeZone}
 * @param endsAt   the window's end, epoch ms: what the records' lateness is measured from
 * @param chosenAt when it was chosen, epoch ms
 */
record QuietWindow(String start, String end, String timeZone, long endsAt, long chosenAt) {

    static final Duration LEAST = Duration.ofSeconds(20);
    static final Duration MOST = Duration.ofHours(1);
    private static final DateTimeFormatter HH_MM = DateTimeFormatter.ofPattern("HH:mm");

    /** The window chosen at {@code now} (see the class); {@code endsIn} from 20 s to 1 h. */
    static QuietWindow of(Instant now, Duration endsIn, ZoneId zone) {
        if (endsIn.compareTo(LEAST) < 0 || endsIn.compareTo(MOST) > 0) {
            throw new IllegalArgumentException("--quiet-ends-in must be from 20s to 1h, got " + endsIn.toSeconds() + " s");
        }
        ZonedDateTime earliest = now.plus(endsIn).atZone(zone);
        ZonedDateTime end = earliest.truncatedTo(ChronoUnit.MINUTES);
        if (end.isBefore(earliest)) {
            end = end.plusMinutes(1);
        }
        ZonedDateTime start = now.atZone(zone).truncatedTo(ChronoUnit.MINUTES).minusMinutes(1);
        return new QuietWindow(HH_MM.format(start), HH_MM.format(end), zone.getId(), end.toInstant().toEpochMilli(),
                now.toEpochMilli());
    }

    /** The preferences' {@code quietHours}: fallbacks held, live delivery unaffected. */
    QuietHours quietHours() {
        return new QuietHours(start, end, timeZone);
    }
}
