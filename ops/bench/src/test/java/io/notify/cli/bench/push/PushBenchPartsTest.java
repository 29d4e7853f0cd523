package io.notify.cli.bench.push;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.notify.cli.bench.push.LatencyPushService.Arrival;
import io.notify.common.config.ConfigException;
import io.notify.protocol.inbox.FallbackRecord;
import io.notify.protocol.push.PushRegistration;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/** The pure parts of {@code bench push}: event ids, the tally of arrivals, the report's verdicts. */
class PushBenchPartsTest {

    @Test
    void eventIdsAreShortAndReadBack() {
        assertEquals("r1-0", FallbackLoad.eventId("r1-", 0));
        String big = FallbackLoad.eventId("r12-", 2_000L * 3600 * 24);
        assertTrue(big.length() <= 32, "a Web Push Topic: at most 32 characters: " + big);
        assertEquals(2_000L * 3600 * 24, FallbackLoad.indexOf("r12-", big));
        assertEquals(-1, FallbackLoad.indexOf("r1-", "r2-5"));
        assertEquals(-1, FallbackLoad.indexOf("r1-", "r1-"));
        assertEquals(-1, FallbackLoad.indexOf("r1-", "r1-$"));
        assertEquals(-1, FallbackLoad.indexOf("r1-", null));
    }

    @Test
    void aRecordIsAPushFallbackOfItsUserCarryingItsRegistrations() {
        PushRegistration a = PushRegistration.of(null, new PushRegistration.Fcm("a"), null, 1);
        PushRegistration b = PushRegistration.of(null, new PushRegistration.Fcm("b"), null, 1);
        FallbackRecord r = FallbackLoad.record("r1-", 3, List.of(List.of(a), List.of(b)), 1234);
        assertEquals("u:bu1", r.stream());
        assertEquals(FallbackRecord.PUSH_CHANNEL, r.channel());
        assertEquals(List.of(b), r.push());
        assertEquals(1234, r.dueAt());
        assertEquals("r1-3", r.event().id());
        assertEquals(2, r.event().seq(), "the user's second event");
    }

    @Test
    void theTallyCountsLostDuplicatesMisdeliveredAndLatenessInTheWindow() {
        // 2 users x 2 devices; records 0..3 due at 1000, 2000, 3000, 4000; window [1500, 3500)
        long[] due = {1000, 2000, 3000, 4000};
        List<Arrival> arrivals = List.of(
                new Arrival(0, "r1-0", 1100), new Arrival(1, "r1-0", 1200), // record 0 (user 0: devices 0, 1), before the window
                new Arrival(2, "r1-1", 2050), new Arrival(3, "r1-1", 2150), // record 1 (user 1: devices 2, 3): 50 and 150 ms late
                new Arrival(3, "r1-1", 2900),                               // a repeat
                new Arrival(0, "r1-2", 3010),                               // record 2: device 1 never gets it
                new Arrival(2, "r1-3", 4100), new Arrival(3, "r1-3", 4200), // record 3, after the window
                new Arrival(0, "r1-1", 2100),                               // device 0 is not user 1's
                new Arrival(0, "r9-1", 2100));                              // not an event of the run
        PushTally t = PushTally.of(due, "r1-", 2, 2, arrivals, 1500, 3500);
        assertEquals(4, t.records());
        assertEquals(8, t.expected());
        assertEquals(8, t.received());
        assertEquals(7, t.distinct());
        assertEquals(1, t.duplicates());
        assertEquals(1, t.lost());
        assertEquals(2, t.misdelivered());
        assertEquals(4, t.windowPushes(), "2050, 2150, 2900, 3010");
        assertEquals(2.0, t.windowSeconds());
        assertEquals(2.0, t.pushesPerSecond());
        assertEquals(2, t.windowRecords(), "records 1 and 2 were due in the window");
        assertEquals(1.0, t.recordsPerSecond());
        assertEquals(3, t.latenessSamples(), "first arrivals of records 1 and 2");
        assertEquals(10, t.latenessMinMs());
        assertEquals(50, t.latenessP50Ms());
        assertEquals(150, t.latenessP99Ms());
        assertEquals(150, t.latenessMaxMs());
        assertEquals(4200, t.lastArrivalAt());
    }

    @Test
    void nothingArrivedIsAllLost() {
        PushTally t = PushTally.of(new long[] {10, 20}, "r1-", 1, 3, List.of(), 0, 1000);
        assertEquals(6, t.lost());
        assertEquals(0, t.pushesPerSecond());
        assertTrue(Double.isNaN(t.latenessP99Ms()));
    }

    @Test
    void runsKeepUpAndTheGoalIsJudgedOnMedians() {
        PushRun.Result fast = result(1, 2000, 1990, 400, 0);
        PushRun.Result late = result(2, 2000, 1995, 1500, 0);
        PushRun.Result slow = result(3, 2000, 1200, 30_000, 0);
        assertTrue(PushReport.sustained(fast, 1000));
        assertTrue(PushReport.keepsUp(late));
        assertFalse(PushReport.sustained(late, 1000), "p99 over the bound");
        assertFalse(PushReport.keepsUp(slow));
        assertFalse(PushReport.keepsUp(result(4, 2000, 2000, 100, 1)), "a push lost");

        PushReport met = PushReport.of(Map.of(), List.of(fast, fast, late), 1000, 50);
        assertEquals(1990, met.medians().pushesPerSecond());
        assertEquals(2, met.medians().runsSustained());
        assertTrue(met.goal().applies() && met.goal().met(), met.goal().text());
        PushReport notMet = PushReport.of(Map.of(), List.of(fast, slow, slow), 1000, 50);
        assertTrue(notMet.goal().applies() && !notMet.goal().met(), notMet.goal().text());
        assertFalse(PushReport.of(Map.of(), List.of(fast), 1000, 20).goal().applies(), "another latency");

        ByteArrayOutputStream out = new ByteArrayOutputStream();
        notMet.print(new PrintStream(out, true, StandardCharsets.UTF_8));
        String text = out.toString(StandardCharsets.UTF_8);
        assertTrue(text.contains("median") && text.contains("NOT met"), text);
        assertEquals(2, notMet.charts().length);
    }

    @Test
    void senderSettingsAreCheckedBeforeAnythingStarts() {
        assertEquals(256, PushBench.effective(Map.of("notify.push.max-in-flight", "256")).maxInFlight());
        assertEquals(256, PushBench.effective(Map.of()).maxInFlight(), "the app's default");
        assertEquals(SenderProcess.UNBOUND_DEVICE_RATE, PushBench.effective(Map.of()).deviceRatePerMinute());
        Executable tooMany = () -> PushBench.effective(Map.of("notify.push.max-in-flight", "0"));
        org.junit.jupiter.api.Assertions.assertThrows(ConfigException.class, tooMany);
    }

    @Test
    void theSeriesCommandParsesAndBadOptionsStopBeforeAnythingStarts() {
        io.notify.cli.checkout.CheckoutMain.commandLine().parseArgs("bench", "push", "--runs", "3", "--rate", "2000", "--users", "1000",
                "--devices-per-user", "1", "--latency", "50ms", "--warmup", "10s", "--duration", "30s", "--max-in-flight", "256",
                "--provider", "webpush", "--partitions", "6", "--drain", "5m", "--p99-bound", "1s", "--baseline-concurrency", "256",
                "--baseline-duration", "5s", "--sender-setting", "notify.push.request-timeout=5s", "--out", "results");
        for (String[] bad : List.of(new String[] {"--devices-per-user", "11"}, new String[] {"--provider", "apns"},
                new String[] {"--sender-setting", "max-in-flight"}, new String[] {"--max-in-flight", "0"},
                new String[] {"--latency", "soon"}, new String[] {"--rate", "0"}, new String[] {"--duration", "500ms"})) {
            List<String> args = new java.util.ArrayList<>(List.of("bench", "push"));
            args.addAll(List.of(bad));
            assertEquals(2, io.notify.cli.checkout.CheckoutMain.commandLine().execute(args.toArray(String[]::new)), String.join(" ", bad));
        }
    }

    private static PushRun.Result result(int run, double offered, double received, double p99, long lost) {
        PushTally t = new PushTally(60_000, 60_000, 60_000 - lost, 60_000 - lost, 0, lost, 0, (long) (received * 30), 30, received,
                (long) (offered * 30), offered, 60_000, 55, 90, p99, p99 * 2, 0);
        PushRun.Cpu cpu = new PushRun.Cpu(12, 200, 20, 80, 60, 0.9);
        ReceiverBaseline.Result base = new ReceiverBaseline.Result(256, 4, 20_000, 5000, 51, 0);
        return new PushRun.Result(run, offered, offered, received, received / 5000, t, cpu, 0.5, 4, 200, 1.5, Map.of(), base);
    }
}
