package io.notify.cli.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.notify.cli.bench.report.Stats;
import io.notify.protocol.NotifyJson;
import io.notify.protocol.event.EventEnvelope;
import io.notify.protocol.event.Fallback;
import io.notify.schemas.validation.EventValidator;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The pure parts of {@code bench fallback}: its events, the records' arithmetic, the report. */
class FallbackBenchPartsTest {

    @Test
    void eventsWithAFallbackHaveTheRequestedSizeAndAreValid() throws Exception {
        FanoutEvents events = new FanoutEvents(300, 1, new Fallback("60s", "push"));
        byte[] value = events.value("bf-1-7", FanoutEvents.user(7));
        assertEquals(300, value.length);
        assertEquals(List.of(), EventValidator.v1().validate(EventValidator.readTree(value)));
        EventEnvelope e = NotifyJson.mapper().readValue(value, EventEnvelope.class);
        assertEquals(new Fallback("60s", "push"), e.fallback());
        assertEquals(List.of("user-7"), e.to().users());
        assertThrows(IllegalArgumentException.class, () -> new FanoutEvents(120, 1, new Fallback("60s", "push")));
        assertEquals(null, NotifyJson.mapper().readValue(new FanoutEvents(300).value("bf-1-7", "user-7"), EventEnvelope.class)
                .fallback());
    }

    @Test
    void cycledRecipientsAreDistinctThenRepeat() {
        var of = EventPreload.cycled(3);
        assertEquals(List.of("user-0"), of.apply(0));
        assertEquals(List.of("user-2"), of.apply(2));
        assertEquals(List.of("user-0"), of.apply(3));
        assertEquals(List.of("user-1"), of.apply(100_000_000_000L));
    }

    @Test
    void nearestRankQuantile() {
        long[] v = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
        assertEquals(5, Stats.quantile(v, 0.5));
        assertEquals(10, Stats.quantile(v, 0.99));
        assertEquals(1, Stats.quantile(v, 0));
        assertEquals(10, Stats.quantile(v, 1));
        assertTrue(Double.isNaN(Stats.quantile(new long[0], 0.5)));
    }

    @Test
    void timingCountsMissingAndDuplicatesAndMeasuresLatenessAndDrain() {
        long after = 60_000;
        List<FallbackRecords.Seen> seen = new ArrayList<>();
        for (int i = 0; i < 100; i++) { // sequenced over 990 ms, each decided 100 + i ms late
            long seq = 1_000_000 + 10L * i;
            seen.add(new FallbackRecords.Seen("e" + i, seq, seq + after, seq + after + 100 + i));
        }
        seen.add(seen.get(5)); // one duplicate
        FallbackRecords.Timing t = FallbackRecords.Timing.of(seen, 102); // two never came
        assertEquals(101, t.records());
        assertEquals(2, t.missing());
        assertEquals(1, t.duplicates());
        assertEquals(100, t.latenessMinMs());
        assertEquals(149, t.latenessP50Ms()); // the 51st of 101 values: 100..199 with 105 twice
        assertEquals(198, t.latenessP99Ms());
        assertEquals(199, t.latenessMaxMs());
        assertEquals(0.99, t.sequencingSeconds(), 1e-9);
        assertTrue(t.allPendingAtOnce());
        assertEquals(0.99, t.dueSpanSeconds(), 1e-9);
        assertEquals(1.189, t.drainSeconds(), 1e-9); // first due (1,060,000) to the last at (1,061,189)
        assertEquals(101 / 1.189, t.drainPerSecond(), 1e-9);
        assertEquals(199, t.lastRecordAfterLastDueMs());

        List<FallbackRecords.Seen> slow = List.of(new FallbackRecords.Seen("a", 0, 10_000, 10_500),
                new FallbackRecords.Seen("b", 12_000, 22_000, 22_100)); // b sequenced after a was due
        assertFalse(FallbackRecords.Timing.of(slow, 2).allPendingAtOnce());
        FallbackRecords.Timing none = FallbackRecords.Timing.of(List.of(), 5);
        assertEquals(5, none.missing());
        assertTrue(Double.isNaN(none.latenessP50Ms()));
    }

    @Test
    void reportTakesMediansComparesWithTheBaselineAndFlagsShortAfter() {
        List<FallbackRun.Result> runs = new ArrayList<>();
        for (int r = 1; r <= 3; r++) {
            runs.add(new FallbackRun.Result(FallbackRun.BASELINE, r, 1000, 1000.0 * r, 1, 10, 2, 1.5, null));
            runs.add(new FallbackRun.Result(FallbackRun.FALLBACK, r, 1000, 800.0 * r, 1.2, 10, 2.5, 1.5,
                    drain(r == 3 ? 999 : 1000, r * 100.0)));
        }
        Map<String, Object> settings = new LinkedHashMap<>();
        settings.put("pending", 1000L);
        settings.put("after", "60s");
        FallbackReport report = FallbackReport.of(settings, runs, null);
        assertEquals(2000, report.throughput().get(FallbackRun.BASELINE).eventsPerSecond());
        assertEquals(1.0, report.throughput().get(FallbackRun.BASELINE).ratioToBaseline());
        assertEquals(0.8, report.throughput().get(FallbackRun.FALLBACK).ratioToBaseline());
        assertEquals(200, report.fallbacks().latenessP50Ms());
        assertEquals(200, report.fallbacks().metricP50Ms());
        assertEquals(0, report.fallbacks().missing());
        assertEquals(1, report.fallbacks().runsNotAllPending(), "run 3 peaked at 999 of 1000 pending");
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        report.print(new PrintStream(text, true, StandardCharsets.UTF_8));
        String printed = text.toString(StandardCharsets.UTF_8);
        assertTrue(printed.contains("median") && printed.contains("note: run 3: not all 1,000 fallbacks were pending at once"),
                printed);
        assertEquals(2, report.charts().length);
    }

    @Test
    void theDevicesPhaseIsPrintedWithItsGoal() {
        List<FallbackRun.Result> runs = List.of(new FallbackRun.Result(FallbackRun.BASELINE, 1, 1000, 1000, 1, 10, 2, 1.5, null),
                new FallbackRun.Result(FallbackRun.FALLBACK, 1, 1000, 900, 1.2, 10, 2.5, 1.5, drain(1000, 100)));
        FallbackDevices.Result devices = new FallbackDevices.Result(100, 5, "20s", 500, 0, 500, 500, 0, 52, 26.0);
        FallbackReport report = FallbackReport.of(new LinkedHashMap<>(), runs, devices);
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        report.print(new PrintStream(text, true, StandardCharsets.UTF_8));
        String printed = text.toString(StandardCharsets.UTF_8);
        assertTrue(printed.contains("fallbacks for events a device received: 0 of 500 (goal 0); for users with no device: 500 of 500"),
                printed);
        assertEquals(devices, report.devices(), "in the JSON too");
    }

    private static FallbackDrain.Drain drain(long peak, double p50) {
        FallbackRecords.Timing t = new FallbackRecords.Timing(1000, 0, 0, 5, p50, 2 * p50, 3 * p50, 1, true, 1, 2, 500, 900);
        return new FallbackDrain.Drain(Map.of("scheduled", 1000L), peak, t, 0.05, 1.5, 2.0, 300L << 20, 320L << 20, p50, 2 * p50);
    }
}
