package io.notify.cli.bench.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.notify.cli.bench.LatencySummary;
import io.notify.cli.bench.gateway.ClientFleet;
import io.notify.cli.bench.gateway.IdCheck;
import java.util.BitSet;
import java.util.List;
import org.junit.jupiter.api.Test;

class PipelineMathTest {

    static final List<String> OFF = List.of("off");

    static StepResult step(int run, double rate, long accepted, long delivered, double deliveredPerSecond, double p99) {
        return step(run, rate, "off", accepted, delivered, deliveredPerSecond, p99, ReceiptCounts.NONE);
    }

    static StepResult step(int run, double rate, String acks, long accepted, long delivered, double deliveredPerSecond, double p99,
                           ReceiptCounts receipts) {
        return step(run, rate, acks, accepted, delivered, deliveredPerSecond, p99, receipts, CpuPerEvent.NONE);
    }

    static StepResult step(int run, double rate, String acks, long accepted, long delivered, double deliveredPerSecond, double p99,
                           ReceiptCounts receipts, CpuPerEvent cpu) {
        return new StepResult(run, rate, acks, accepted, accepted, 0, delivered, Math.max(0, accepted - delivered),
                Math.max(0, delivered - accepted), 0, rate, deliveredPerSecond,
                new LatencySummary(p99 / 2, p99 * 0.9, p99, p99 * 2, delivered), List.of(), null, receipts, cpu, CommitCost.NONE, 0, 0, List.of(),
                List.of());
    }

    @Test
    void dueEventsFollowTheOfferedRateNotTheAnswers() {
        assertEquals(0, PipelineMath.due(1000, 999_999));
        assertEquals(1, PipelineMath.due(1000, 1_000_000));
        assertEquals(2500, PipelineMath.due(500, 5_000_000_000L));
        assertEquals(7, PipelineMath.due(0.5, 15_000_000_000L));
    }

    @Test
    void ratesMustBePositiveAndIncreasing() {
        assertEquals(List.of(250.0, 500.0, 1000.0), PipelineMath.rates("250, 500,1000"));
        assertThrows(IllegalArgumentException.class, () -> PipelineMath.rates("500,250"));
        assertThrows(IllegalArgumentException.class, () -> PipelineMath.rates("0,10"));
        assertThrows(IllegalArgumentException.class, () -> PipelineMath.rates("10,10"));
        assertThrows(NumberFormatException.class, () -> PipelineMath.rates("ten"));
    }

    @Test
    void mediansAreTakenPerRateAndLossesSummed() {
        List<StepResult> steps = List.of(step(1, 100, 2000, 2000, 99, 30), step(2, 100, 2000, 2000, 97, 50),
                step(3, 100, 2000, 1990, 90, 40), step(1, 200, 4000, 4000, 199, 20));
        List<StepMedian> m = PipelineMath.medians(OFF, List.of(100.0, 200.0, 400.0), steps, 1000);
        assertEquals(2, m.size(), "a rate without steps is left out");
        StepMedian at100 = m.get(0);
        assertEquals(3, at100.runs());
        assertEquals(97, at100.deliveredPerSecond(), 1e-9);
        assertEquals(40, at100.p99Ms(), 1e-9);
        assertEquals(10, at100.lost());
        assertFalse(at100.sustained(), "a lost event disqualifies the step");
        assertTrue(m.get(1).sustained());
    }

    @Test
    void sustainedNeedsDeliveryAtTheOfferedRateAndABoundedP99() {
        List<StepMedian> m = PipelineMath.medians(OFF, List.of(100.0, 200.0, 400.0, 800.0),
                List.of(step(1, 100, 2000, 2000, 100, 10), step(1, 200, 4000, 4000, 191, 20),
                        step(1, 400, 8000, 8000, 370, 20), step(1, 800, 16000, 16000, 790, 1500)), 1000);
        assertTrue(m.get(0).sustained());
        assertTrue(m.get(1).sustained(), "191 >= 0.95 x 200");
        assertFalse(m.get(2).sustained(), "370 < 0.95 x 400");
        assertFalse(m.get(3).sustained(), "p99 over the bound");
        assertTrue(m.get(3).keepsUp(), "it kept up, only its latency is over the bound");
        assertEquals(800, PipelineMath.maxKeepingUp(m).offeredRate());
        assertEquals(200, PipelineMath.maxSustained(m).offeredRate());
        assertEquals(100, PipelineMath.atHalf(m, PipelineMath.maxSustained(m)).offeredRate());
    }

    @Test
    void maxSustainedIsTheHighestSustainedStepEvenAfterAFailedOne() {
        List<StepMedian> m = PipelineMath.medians(OFF, List.of(250.0, 500.0, 1000.0, 2000.0),
                List.of(step(1, 250, 5000, 5000, 250, 10), step(1, 500, 10000, 9000, 450, 10),
                        step(1, 1000, 20000, 20000, 1000, 10), step(1, 2000, 40000, 40000, 1500, 10)), 1000);
        StepMedian max = PipelineMath.maxSustained(m);
        assertEquals(1000, max.offeredRate());
        assertEquals(500, PipelineMath.atHalf(m, max).offeredRate(), "half is taken from the sweep, sustained or not");
    }

    @Test
    void halfFallsBackToTheLowestStepAndNoneWithoutAMax() {
        List<StepMedian> m = PipelineMath.medians(OFF, List.of(300.0, 400.0), List.of(step(1, 300, 10, 10, 300, 5),
                step(1, 400, 10, 10, 400, 5)), 1000);
        assertEquals(300, PipelineMath.atHalf(m, PipelineMath.maxSustained(m)).offeredRate());
        assertNull(PipelineMath.maxSustained(PipelineMath.medians(OFF, List.of(300.0), List.of(step(1, 300, 10, 5, 150, 5)), 1000)));
        assertNull(PipelineMath.atHalf(m, null));
    }

    @Test
    void stepRatesUseTheLongerOfPacingAndArrivalSpanAndLossesComeFromTheIdCheck() {
        PacedIngestLoad.Ran ran = new PacedIngestLoad.Ran(1000, 990, 10, 100, 10.0, 0, "ids");
        IdCheck ids = new IdCheck(990, 980, 10, 2, 0, 1, 0, 0, List.of(7L, 9L), List.of());
        StepResult s = stepOf(ran, delivered(980, 5_000, 25_000), ids);
        assertEquals(99, s.acceptedPerSecond(), 1e-9);
        assertEquals(49, s.deliveredPerSecond(), 1e-9, "980 over the 20 s arrival span");
        assertEquals(10, s.lost());
        assertEquals(3, s.duplicates(), "2 twice to the app, 1 to a client that is not its recipient");
        assertEquals(List.of(7L, 9L), s.lostSamples());
        StepResult fast = stepOf(ran, delivered(995, 5_000, 9_000), clean(0, 5));
        assertEquals(99.5, fast.deliveredPerSecond(), 1e-9, "span shorter than pacing: pacing seconds");
        assertEquals(0, fast.lost());
        assertEquals(5, fast.extra());
        PacedIngestLoad.Ran noFailures = new PacedIngestLoad.Ran(990, 990, 0, 99, 10.0, 0, "ids");
        StepResult ok = stepOf(noFailures, delivered(990, 5_000, 9_000), clean(0, 0));
        assertTrue(PipelineMath.medians(OFF, List.of(100.0), List.of(ok), 1000).get(0).keepsUp());
        StepResult twice = stepOf(noFailures, delivered(990, 5_000, 9_000), clean(1, 0));
        assertFalse(PipelineMath.medians(OFF, List.of(100.0), List.of(twice), 1000).get(0).keepsUp(), "one duplicate disqualifies the step");
    }

    @Test
    void ackModesAreOffOnOrBothAndAlternateTheirOrderStepByStep() {
        assertEquals(List.of("off"), PipelineMath.ackModes("off"));
        assertEquals(List.of("off", "on"), PipelineMath.ackModes("off, on"));
        assertEquals(List.of("on", "off"), PipelineMath.ackModes("on,off"));
        assertThrows(IllegalArgumentException.class, () -> PipelineMath.ackModes("on,on"));
        assertThrows(IllegalArgumentException.class, () -> PipelineMath.ackModes("yes"));
        List<String> both = List.of("off", "on");
        assertEquals(both, PipelineMath.modeOrder(both, 0));
        assertEquals(List.of("on", "off"), PipelineMath.modeOrder(both, 1));
        assertEquals(both, PipelineMath.modeOrder(both, 2));
        assertEquals(List.of("on"), PipelineMath.modeOrder(List.of("on"), 1));
    }

    @Test
    void mediansAreTakenPerRateAndAckModeWithReceiptsPerDeliveredEvent() {
        ReceiptCounts r = new ReceiptCounts(1900, 1800, 0, 0, 100, 1800, 1790);
        List<StepResult> steps = List.of(step(1, 100, 2000, 2000, 100, 30), step(1, 100, "on", 2000, 2000, 100, 40, r),
                step(2, 100, "on", 2000, 2000, 98, 60, r), step(1, 200, "on", 4000, 4000, 150, 90, r));
        List<StepMedian> m = PipelineMath.medians(List.of("off", "on"), List.of(100.0, 200.0), steps, 1000);
        assertEquals(List.of("off", "on", "on"), m.stream().map(StepMedian::acks).toList(), "by rate, then by mode");
        assertEquals(1, m.get(0).runs());
        assertEquals(0, m.get(0).receiptsPerEvent(), 1e-9, "acks off: no receipt");
        StepMedian on = m.get(1);
        assertEquals(2, on.runs());
        assertEquals(99, on.deliveredPerSecond(), 1e-9);
        assertEquals(50, on.p99Ms(), 1e-9);
        assertEquals(0.95, on.acksPerEvent(), 1e-9);
        assertEquals(0.9, on.receiptsPerEvent(), 1e-9);
        assertEquals(0.05, on.coalescedPerEvent(), 1e-9);
        assertEquals(0.895, on.appliedPerEvent(), 1e-9);
        assertFalse(m.get(2).keepsUp(), "150 < 0.95 x 200");
    }

    /** A step at 100/s with acks off, without hops, paths, receipts or attributions. */
    private static StepResult stepOf(PacedIngestLoad.Ran ran, ClientFleet.Delivered d, IdCheck ids) {
        return StepResult.of(1, 100, "off", ran, d, ids, List.of(), null, ReceiptCounts.NONE, CpuPerEvent.NONE, CommitCost.NONE, List.of());
    }

    /** A check of 990 accepted events, all delivered, with {@code duplicates} and {@code unexpected} ones. */
    private static IdCheck clean(long duplicates, long unexpected) {
        return new IdCheck(990, 990, 0, duplicates, unexpected, 0, 0, 0, List.of(), List.of());
    }

    private static ClientFleet.Delivered delivered(long events, long firstMs, long lastMs) {
        return new ClientFleet.Delivered(events, firstMs, lastMs, new LatencySummary(1, 2, 3, 4, events), 0, 0);
    }

    @Test
    void ingestAnswersNameTheAcceptedEventsByIndex() throws Exception {
        assertEquals(20, IngestLane.acceptedOf("202 ", 20).cardinality());
        BitSet partial = IngestLane.acceptedOf("207 {\"accepted\":2,\"rejected\":2,\"results\":[{\"index\":0,\"status\":202},"
                + "{\"index\":1,\"status\":503},{\"index\":2,\"status\":202},{\"index\":3,\"status\":400}]}", 4);
        assertEquals(BitSet.valueOf(new long[] {0b101}), partial, "events 0 and 2 accepted, 1 and 3 not");
        assertEquals(0, IngestLane.acceptedOf("503 {\"type\":\"urn:notify:problem:overloaded\"}", 20).cardinality());
        assertEquals(0, IngestLane.acceptedOf("401 ", 20).cardinality());
    }
}
