package io.notify.cli.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class TimeArgsTest {

    private static final Instant NOW = Instant.parse("2026-11-29T12:00:00Z");

    private static Instant parse(String text) {
        return TimeArgs.parse("--from", text, NOW);
    }

    @Test
    void readsRfc3339WithOffsetsFractionsAndRelaxedCase() {
        assertEquals(Instant.parse("2026-11-29T10:15:30Z"), parse("2026-11-29T10:15:30Z"));
        assertEquals(Instant.parse("2026-11-29T09:15:30.123Z"), parse("2026-11-29T10:15:30.123+01:00"));
        assertEquals(Instant.parse("2026-11-29T10:15:30Z"), parse("2026-11-29t10:15:30z"));
        assertEquals(Instant.parse("2026-11-29T10:15:30Z"), parse("2026-11-29 10:15:30Z"));
        assertEquals(Instant.parse("2026-11-29T15:15:30.000001Z"), parse("2026-11-29T10:15:30.000001-05:00"));
    }

    @Test
    void readsNowAndRelativeTimes() {
        assertEquals(NOW, parse("now"));
        assertEquals(NOW, parse(" NOW "));
        assertEquals(NOW.minus(Duration.ofHours(2)), parse("-2h"));
        assertEquals(NOW.minus(Duration.ofMinutes(30)), parse("-30m"));
        assertEquals(NOW.minus(Duration.ofMinutes(90)), parse("-1h30m"));
        assertEquals(NOW.minus(Duration.ofDays(7)), parse("-7d"));
        assertEquals(NOW.minusMillis(500), parse("-500ms"));
        assertEquals(NOW.minusSeconds(45), parse("now-45s"));
    }

    @Test
    void rejectsWhatItCannotReadNamingTheFlag() {
        for (String bad : new String[] {"", "yesterday", "2h", "+2h", "-2x", "-h", "2026-11-29", "2026-11-29T10:15:30",
                "2026-13-01T00:00:00Z", "1764410130123"}) {
            UsageException e = assertThrows(UsageException.class, () -> TimeArgs.parse("--to", bad, NOW), bad);
            assertTrue(e.getMessage().startsWith("--to: "), e.getMessage());
            assertTrue(!e.getMessage().contains("\n"), "one line");
        }
    }
}
