package io.notify.protocol.prefs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import org.junit.jupiter.api.Test;

class QuietHoursTest {

    static final QuietHours NIGHT = new QuietHours("22:00", "07:00", "Europe/Berlin");

    private static Instant at(String utc) {
        return Instant.parse(utc);
    }

    @Test
    void aWindowAcrossMidnightEndsTheNextMorningOrTheSameMorning() {
        assertEquals(at("2026-01-02T06:00:00Z"), NIGHT.endOf(at("2026-01-01T21:30:00Z")), "22:30 CET: ends 07:00 next day");
        assertEquals(at("2026-01-02T06:00:00Z"), NIGHT.endOf(at("2026-01-02T03:00:00Z")), "04:00 CET: ends 07:00 that day");
        assertNull(NIGHT.endOf(at("2026-01-02T06:00:00Z")), "07:00 is outside: the window is [start, end)");
        assertNull(NIGHT.endOf(at("2026-01-02T12:00:00Z")));
        assertEquals(at("2026-01-02T06:00:00Z"), NIGHT.endOf(at("2026-01-01T21:00:00Z")), "22:00 is inside");
    }

    @Test
    void aWindowWithinOneDay() {
        QuietHours lunch = new QuietHours("12:00", "13:30", "Asia/Tokyo");
        assertEquals(at("2026-06-01T04:30:00Z"), lunch.endOf(at("2026-06-01T03:15:00Z")));
        assertNull(lunch.endOf(at("2026-06-01T02:59:00Z")));
        assertNull(lunch.endOf(at("2026-06-01T04:30:00Z")));
    }

    @Test
    void daylightSavingChangesFollowTheZone() {
        // spring forward (2026-03-29 02:00 CET -> 03:00 CEST): 07:00 local is 05:00Z, one hour earlier than the night before
        assertEquals(at("2026-03-29T05:00:00Z"), NIGHT.endOf(at("2026-03-28T21:30:00Z")));
        // fall back (2026-10-25 03:00 CEST -> 02:00 CET): 07:00 local is 06:00Z
        assertEquals(at("2026-10-25T06:00:00Z"), NIGHT.endOf(at("2026-10-24T20:30:00Z")));
        // a window ending in the skipped hour ends when the clocks resume (03:00 CEST = 01:00Z)
        QuietHours skipped = new QuietHours("01:00", "02:30", "Europe/Berlin");
        assertEquals(at("2026-03-29T01:00:00Z"), skipped.endOf(at("2026-03-29T00:30:00Z")));
    }

    @Test
    void badWindowsAreRefusedNamingTheField() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new QuietHours("7:00", "08:00", "UTC")).getMessage()
                .contains("quietHours.start"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new QuietHours("07:00", "24:00", "UTC")).getMessage()
                .contains("quietHours.end"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new QuietHours("07:00", "07:00", "UTC")).getMessage()
                .contains("differ"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new QuietHours("07:00", "08:00", "Mars/Olympus")).getMessage()
                .contains("quietHours.timeZone"));
    }
}
