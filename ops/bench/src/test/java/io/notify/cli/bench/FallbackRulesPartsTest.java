package io.notify.cli.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The pure parts of {@code bench fallback}'s quiet and digest modes: the window, the verdicts, the report. */
class FallbackRulesPartsTest {

    @Test
    void theQuietWindowEndsAtTheNextWholeMinuteAndHoldsNow() {
        Instant now = Instant.parse("2026-12-05T08:59:25.500Z");
        QuietWindow w = QuietWindow.of(now, Duration.ofSeconds(40), ZoneId.of("Asia/Kathmandu")); // UTC+05:45
        assertEquals("14:43", w.start(), "a minute before the minute it was chosen in (08:58 UTC)");
        assertEquals("14:46", w.end(), "08:59:25.5 + 40 s = 09:00:05.5 UTC, the next whole minute 09:01 UTC");
        assertEquals(Instant.parse("2026-12-05T09:01:00Z").toEpochMilli(), w.endsAt());
        assertEquals(Instant.parse("2026-12-05T09:01:00Z"), w.quietHours().endOf(now), "the product computes the same end");
        assertEquals(Instant.parse("2026-12-05T09:01:00Z"), w.quietHours().endOf(Instant.parse("2026-12-05T09:00:59.999Z")));
        assertNull(w.quietHours().endOf(Instant.parse("2026-12-05T09:01:00Z")), "[start, end): over at the end");

        QuietWindow exact = QuietWindow.of(Instant.parse("2026-12-05T23:59:20Z"), Duration.ofSeconds(40), ZoneId.of("UTC"));
        assertEquals("00:00", exact.end(), "a whole minute exactly ends there, crossing midnight");
        assertEquals("23:58", exact.start());
        assertEquals(Instant.parse("2026-12-06T00:00:00Z"), exact.quietHours().endOf(Instant.parse("2026-12-05T23:59:20Z")));
        assertThrows(IllegalArgumentException.class, () -> QuietWindow.of(Instant.now(), Duration.ofSeconds(5), ZoneId.of("UTC")));
        assertThrows(IllegalArgumentException.class, () -> QuietWindow.of(Instant.now(), Duration.ofHours(2), ZoneId.of("UTC")));
    }

    @Test
    void quietCountsEarlyNotHeldMissingAndDuplicatesAndMeasuresFromTheWindowsEnd() {
        long end = 1_000_000;
        Map<String, String> userOf = new LinkedHashMap<>();
        List<FallbackRulesCheck.Seen> seen = new ArrayList<>();
        for (int i = 0; i < 10; i++) { // 10 events to 5 users, sequenced 30 s before the end, after 10 s: held to the end
            userOf.put("e" + i, "u" + i % 5);
            seen.add(quietRecord("e" + i, "u" + i % 5, end - 30_000, end, end + 100 * (i + 1)));
        }
        FallbackRulesCheck.Quiet q = FallbackRulesCheck.quiet(seen, userOf, end, 10_000);
        assertTrue(q.ok(), q.toString());
        assertEquals(2.0, q.pushesPerUser());
        assertEquals(100, q.latenessMinMs());
        assertEquals(500, q.latenessP50Ms());
        assertEquals(1000, q.latenessMaxMs());
        assertEquals(20.0, q.marginSeconds(), 1e-9);

        List<FallbackRulesCheck.Seen> bad = new ArrayList<>(seen.subList(1, 10)); // e0 missing
        bad.add(seen.get(3)); // e3 twice
        bad.set(0, quietRecord("e1", "u1", end - 30_000, end - 20_000, end - 19_500)); // e1 not held: written early
        userOf.put("late", "u0");
        bad.add(quietRecord("late", "u0", end - 5_000, end + 5_000, end + 5_400)); // due after the end: not held
        FallbackRulesCheck.Quiet b = FallbackRulesCheck.quiet(bad, userOf, end, 10_000);
        assertFalse(b.ok());
        assertEquals(1, b.missing());
        assertEquals(1, b.duplicates());
        assertEquals(1, b.early());
        assertEquals(2, b.notHeld());
        assertEquals(1, b.dueAfterEnd());
        assertEquals(2, b.usersOff(), "u3 got 3 records for 2 events; u0 2 for 3 (e0 lost)");
    }

    @Test
    void digestsExpectOneRecordPerUserWithEveryEventFirstAndLast() {
        Map<String, List<String>> eventsOf = new LinkedHashMap<>();
        List<FallbackRulesCheck.Seen> seen = new ArrayList<>();
        long dueAfter = 30_000;
        for (int u = 0; u < 4; u++) {
            List<String> ids = List.of("d" + u + "-0", "d" + u + "-1", "d" + u + "-2");
            eventsOf.put("u" + u, ids);
            long first = 1_000_000 + u;
            seen.add(new FallbackRulesCheck.Seen("u" + u, ids.get(2), first + 2_000, first + dueAfter, first + dueAfter + 200 * (u + 1),
                    "k", 3, ids.get(0), first));
        }
        FallbackRulesCheck.Digests d = FallbackRulesCheck.digests(seen, eventsOf, "k", dueAfter);
        assertTrue(d.ok(), d.toString());
        assertEquals(1.0, d.pushesPerUser());
        assertEquals(1, d.maxPushesPerUser());
        assertEquals(200, d.latenessMinMs());
        assertEquals(400, d.latenessP50Ms());
        assertEquals(800, d.latenessMaxMs());
        assertEquals(2.0, d.spanSeconds(), 1e-9);

        List<FallbackRulesCheck.Seen> split = new ArrayList<>(seen.subList(1, 4)); // u0 has none
        split.set(0, new FallbackRulesCheck.Seen("u1", "d1-1", 1_000_001 + 1_000, 1_000_001 + dueAfter, 1_000_001 + dueAfter + 5,
                "k", 2, "d1-0", 1_000_001)); // u1's digest closed before its last event...
        split.add(new FallbackRulesCheck.Seen("u1", "d1-2", 1_040_000, 1_070_000, 1_070_100, "k", 1, "d1-2", 1_040_000)); // ...which got its own
        split.add(new FallbackRulesCheck.Seen("u2", "x", 1, 10_001, 10_001, null, 0, null, 0)); // not a digest
        FallbackRulesCheck.Digests b = FallbackRulesCheck.digests(split, eventsOf, "k", dueAfter);
        assertFalse(b.ok());
        assertEquals(1, b.missing());
        assertEquals(1, b.duplicates());
        assertEquals(2, b.wrongCount());
        assertEquals(2, b.wrongEnds());
        assertEquals(1, b.notDigests());
        assertEquals(2, b.maxPushesPerUser());
    }

    @Test
    void theReportSumsTheCountsTakesMediansAndPrintsBothModes() {
        List<FallbackRules.Result> runs = new ArrayList<>();
        for (int r = 1; r <= 3; r++) {
            QuietWindow w = new QuietWindow("14:43", "14:46", "Asia/Kathmandu", 1_000_000, 940_000);
            FallbackRulesCheck.Quiet q = new FallbackRulesCheck.Quiet(100, 100, 0, 0, 0, 0, 0, 0, 1.0, 10, 100.0 * r, 200.0 * r,
                    300.0 * r, 30);
            FallbackRulesCheck.Digests d = new FallbackRulesCheck.Digests(50, 10, 50, 0, r == 2 ? 1 : 0, 0, 0, 0, 0, 0,
                    r == 2 ? 1.02 : 1.0, r == 2 ? 2 : 1, 5, 50.0 * r, 90.0 * r, 99.0 * r, 1.5);
            runs.add(new FallbackRules.Result(FallbackRules.QUIET, r, 100, 100, 1.0, 0.5, w, q, null,
                    Map.of("held_quiet", 100L), 400, 900));
            runs.add(new FallbackRules.Result(FallbackRules.DIGEST, r, 500, 50, 1.0, 0.7, null, null, d,
                    Map.of("folded", 450L), 400, 900));
        }
        FallbackRulesReport report = FallbackRulesReport.of(runs);
        assertEquals(200, report.quiet().latenessP50Ms());
        assertEquals(0, report.quiet().early());
        assertEquals(1, report.digests().duplicates(), "summed, not a median");
        assertEquals(2, report.digests().maxPushesPerUser());
        assertEquals(100, report.digests().latenessP50Ms());
        assertFalse(report.ok(), "run 2's digest had a duplicate");
        assertEquals(2, report.charts().size());
        assertNull(FallbackRulesReport.of(List.of()));

        FallbackReport whole = FallbackReport.of(new LinkedHashMap<>(), List.of(), runs, null);
        assertNull(whole.fallbacks(), "no fallback mode was run");
        assertTrue(whole.throughput().isEmpty());
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        whole.print(new PrintStream(text, true, StandardCharsets.UTF_8));
        String printed = text.toString(StandardCharsets.UTF_8);
        assertTrue(printed.contains("quiet hours: 100 events to 100 users") && printed.contains("14:43-14:46")
                && printed.contains("digests: 50 users, 10 events each") && printed.contains("note: digest run 2 missed its goal"),
                printed);
        assertEquals(2, whole.charts().length);
    }

    private static FallbackRulesCheck.Seen quietRecord(String id, String user, long sequencedAt, long dueAt, long at) {
        return new FallbackRulesCheck.Seen(user, id, sequencedAt, dueAt, at, null, 0, null, 0);
    }
}
