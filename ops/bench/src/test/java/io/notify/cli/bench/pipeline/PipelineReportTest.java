package io.notify.cli.bench.pipeline;

import static io.notify.cli.bench.pipeline.PipelineMathTest.step;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.notify.cli.bench.BaselineRun;
import io.notify.cli.bench.LatencySummary;
import io.notify.cli.bench.plot.Chart;
import io.notify.cli.bench.plot.PngCharts;
import io.notify.protocol.NotifyJson;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jfree.chart.plot.XYPlot;
import org.jfree.data.xy.XYDataset;
import org.junit.jupiter.api.Test;

class PipelineReportTest {

    static BaselineRun.Result baseline(double consumedPerSecond) {
        LatencySummary l = new LatencySummary(1, 2, 3, 4, 10);
        return new BaselineRun.Result(10, 128, 10, 0, 10, 1, 1, consumedPerSecond, 1, consumedPerSecond, 1, l, l);
    }

    static PipelineReport report(List<StepResult> steps, double baseline) {
        return PipelineReport.of(Instant.parse("2026-01-01T00:00:00Z"), Map.of("cores", 2),
                Map.of("guarantee", "exactly_once_v2", "users", 1000, "p99Bound", "1s"), baseline(baseline), List.of("off"), List.of(1000.0, 2000.0, 4000.0),
                steps, 1000, List.of("a note"));
    }

    @Test
    void ratioIsDeliveredAtTheMaxSustainedRateOverTheBaselineAndGoalsAreJudged() {
        PipelineReport r = report(List.of(step(1, 1000, 20000, 20000, 1000, 40), step(1, 2000, 40000, 40000, 1990, 80),
                step(1, 4000, 80000, 80000, 3000, 900)), 6000);
        PipelineReport.Summary s = r.summary();
        assertEquals(2000, s.maxSustainedRate());
        assertEquals(1990, s.deliveredAtMaxPerSecond(), 1e-9);
        assertEquals(1000, s.halfRate());
        assertEquals(40, s.p99AtHalfMs(), 1e-9);
        assertEquals(0.332, s.ratio(), 1e-9);
        assertEquals(0.5, s.peakRatio(), 1e-9);
        assertEquals(2000, s.maxKeepingUpRate(), "4,000/s delivered only 3,000/s");
        assertEquals(0.332, s.keepingUpRatio(), 1e-9);
        assertEquals(3000, s.peakDeliveredPerSecond(), 1e-9);
        assertTrue(s.ratioGoalMet(), "0.332 >= 0.33");
        assertTrue(s.latencyGoalMet());
    }

    @Test
    void withoutASustainedStepTheGoalsAreNotMet() {
        PipelineReport r = report(List.of(step(1, 1000, 20000, 19000, 950, 40)), 6000);
        assertNull(r.summary().maxSustainedRate());
        assertNull(r.summary().maxKeepingUpRate());
        assertTrue(Double.isNaN(r.summary().ratio()));
        assertFalse(r.summary().ratioGoalMet());
        assertFalse(r.summary().latencyGoalMet());
    }

    /** What the report prints. */
    private static String printed(PipelineReport r) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        r.print(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        return bytes.toString(StandardCharsets.UTF_8);
    }

    /** The report as the JSON result file holds it. */
    private static JsonNode json(PipelineReport r) throws Exception {
        return NotifyJson.mapper().readTree(NotifyJson.mapper().writeValueAsString(r));
    }

    /** What every client acking {@code delivered} events became: 0.95 acks, 0.9 receipts written and read, 0.895 applied per event. */
    private static ReceiptCounts receipts(long delivered) {
        return new ReceiptCounts(delivered * 95 / 100, delivered * 9 / 10, 0, 0, delivered / 20, delivered * 9 / 10,
                delivered * 895 / 1000);
    }

    @Test
    void withAcksOffAndOnEachModeIsSummarizedAndTheCostOfReceiptsIsTheirRatio() throws Exception {
        List<StepResult> steps = List.of(step(1, 1000, "off", 20000, 20000, 1000, 40, ReceiptCounts.NONE),
                step(1, 1000, "on", 20000, 20000, 1000, 50, receipts(20000)), step(1, 2000, "on", 40000, 40000, 1990, 80,
                        receipts(40000)), step(1, 2000, "off", 40000, 40000, 1995, 70, ReceiptCounts.NONE),
                step(1, 4000, "off", 80000, 80000, 3900, 900, ReceiptCounts.NONE), step(1, 4000, "on", 80000, 80000, 3000, 2000,
                        receipts(80000)));
        PipelineReport rep = PipelineReport.of(Instant.parse("2026-01-01T00:00:00Z"), Map.of("cores", 2),
                Map.of("guarantee", "exactly_once_v2", "users", 1000, "p99Bound", "1s"), baseline(6000), List.of("off", "on"),
                List.of(1000.0, 2000.0, 4000.0), steps, 1000, List.of());
        assertEquals(2, rep.modes().size());
        assertEquals(4000, rep.summary().maxSustainedRate(), "summary: the first mode's");
        assertEquals(2000, rep.modes().get(1).summary().maxSustainedRate());
        assertEquals(0.9, rep.modes().get(1).receiptsPerEvent(), 1e-9);
        ReceiptCost cost = rep.receiptCost();
        assertEquals(0.5, cost.sustainedRatio(), 1e-9);
        assertEquals(0.769, cost.peakRatio(), 1e-9, "3,000 / 3,900");
        assertFalse(cost.goalMet());

        String table = printed(rep);
        assertTrue(table.contains("     1,000  off     1"), table);
        assertTrue(table.contains("     1,000   on     1"), table);
        assertTrue(table.contains("acks on: max sustained rate (keeps up, p99 <= 1s): 2,000 events/s"), table);
        assertTrue(table.contains("0.900 ack receipts written (0 dropped, 0 failed), 0.050 acks coalesced, 0.895 ack receipts applied"),
                table);
        assertTrue(table.contains("cost of receipts (acks on / off): max sustained rate 2,000 / 4,000 events/s = 0.500"), table);

        JsonNode json = json(rep);
        assertEquals(6, json.get("medians").size());
        assertEquals("on", json.get("medians").get(1).get("acks").asText());
        assertEquals(0.9, json.get("modes").get(1).get("receiptsPerEvent").asDouble(), 1e-9);
        assertEquals(0.5, json.get("receiptCost").get("sustainedRatio").asDouble(), 1e-9);
        assertEquals(18_000, json.get("steps").get(1).get("receipts").get("produced").asLong());
        assertEquals(0, json.get("steps").get(0).get("receipts").get("produced").asLong());

        List<String> legend = new ArrayList<>();
        for (Chart c : rep.charts()) {
            XYDataset d = ((XYPlot) c.toJFreeChart().getPlot()).getDataset();
            for (int i = 0; i < d.getSeriesCount(); i++) {
                legend.add(d.getSeriesKey(i).toString());
            }
        }
        assertTrue(legend.contains("delivered to clients, acks off"), legend.toString());
        assertTrue(legend.contains("delivered to clients, acks on (per event: 0.90 receipts written, 0.90 applied)"), legend.toString());
        assertTrue(legend.contains("p99, acks on"), legend.toString());
    }

    @Test
    void cpuPerDeliveredEventIsPrintedPerRateAndModeAsMediansAndWrittenPerStep() throws Exception {
        CpuPerEvent run1 = new CpuPerEvent(100, 300, 50, 200, 5, 655, 80, 0.91);
        CpuPerEvent run2 = new CpuPerEvent(120, 200, 60, 260, 7, 647, 70, 0.7);
        CpuPerEvent run3 = new CpuPerEvent(90, 250, 70, 230, 6, 646, 90, 0.8);
        CpuPerEvent noRedis = new CpuPerEvent(40, 110, 30, 90, Double.NaN, 270, 35, 0.6);
        List<StepResult> steps = List.of(step(1, 1000, "off", 20000, 20000, 1000, 40, ReceiptCounts.NONE, run1),
                step(2, 1000, "off", 20000, 20000, 1000, 40, ReceiptCounts.NONE, run2),
                step(3, 1000, "off", 20000, 20000, 1000, 40, ReceiptCounts.NONE, run3),
                step(1, 2000, "off", 40000, 40000, 2000, 40, ReceiptCounts.NONE, noRedis));
        PipelineReport r = report(steps, 6000);
        CpuPerEvent at1000 = r.medians().get(0).cpuPerEvent();
        assertEquals(100, at1000.brokerMicros(), 1e-9);
        assertEquals(647, at1000.serverMicros(), 1e-9);
        assertEquals(80, at1000.loadMicros(), 1e-9);

        String table = printed(r);
        assertTrue(table.contains("server µs/ev"), table);
        assertTrue(table.contains("0.000      0.000         647.0\n"), table);
        assertTrue(table.contains("CPU per delivered event (µs; /proc utime+stime over the measured window; medians over runs)\n"
                + " offered/s acks     broker     fanout     ingest   gateways      redis  server total  load generators  machine busy %\n"
                + "     1,000  off      100.0      250.0       60.0      230.0        6.0         647.0             80.0              80\n"
                + "     2,000  off       40.0      110.0       30.0       90.0          -         270.0             35.0              60\n"), table);

        JsonNode json = json(r);
        assertEquals(655, json.get("steps").get(0).get("cpuPerEvent").get("serverMicros").asDouble(), 1e-9);
        assertEquals(0.91, json.get("steps").get(0).get("cpuPerEvent").get("machineBusy").asDouble(), 1e-9);
        assertEquals(250, json.get("medians").get(0).get("cpuPerEvent").get("fanoutMicros").asDouble(), 1e-9);
        assertEquals(90, json.get("medians").get(1).get("cpuPerEvent").get("gatewaysMicros").asDouble(), 1e-9);
    }

    @Test
    void printsATableWritesJsonAndDrawsTwoCharts() throws Exception {
        PipelineReport r = report(List.of(step(1, 1000, 20000, 20000, 1000, 40), step(2, 1000, 20000, 20000, 1000, 60),
                step(1, 2000, 40000, 40000, 2000, 50)), 4000);
        String table = printed(r);
        assertTrue(table.contains("offered/s"), table);
        assertTrue(table.contains("     1,000  off     2"), table);
        assertTrue(table.contains("max sustained rate (keeps up, p99 <= 1s): 2,000 events/s"), table);
        assertTrue(table.contains("delivered/baseline 0.500"), table);
        assertTrue(table.contains("goal <= 60 ms: met"), table);
        assertTrue(table.contains("note: a note"), table);

        JsonNode json = json(r);
        assertEquals("pipeline", json.get("scenario").asText());
        assertEquals(3, json.get("steps").size());
        assertEquals(2, json.get("medians").size());
        assertEquals(50, json.get("medians").get(0).get("p99Ms").asDouble(), 1e-9);
        assertEquals(0.5, json.get("summary").get("ratio").asDouble(), 1e-9);

        assertEquals(2, r.charts().length);
        assertEquals(2 * PngCharts.HEIGHT, PngCharts.render(PngCharts.WIDTH, PngCharts.HEIGHT, r.charts()).getHeight());
    }
}
