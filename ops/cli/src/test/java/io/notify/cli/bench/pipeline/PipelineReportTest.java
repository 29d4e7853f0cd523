package io.notify.cli.bench.pipeline;

import static io.notify.cli.bench.pipeline.PipelineMathTest.step;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.notify.cli.bench.BaselineRun;
import io.notify.cli.bench.LatencySummary;
import io.notify.cli.bench.plot.PngCharts;
import io.notify.schemas.NotifyJson;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PipelineReportTest {

    static BaselineRun.Result baseline(double consumedPerSecond) {
        LatencySummary l = new LatencySummary(1, 2, 3, 4, 10);
        return new BaselineRun.Result(10, 128, 10, 0, 10, 1, 1, consumedPerSecond, 1, consumedPerSecond, 1, l, l);
    }

    static PipelineReport report(List<StepResult> steps, double baseline) {
        return PipelineReport.of(Instant.parse("2026-01-01T00:00:00Z"), Map.of("cores", 2),
                Map.of("guarantee", "exactly_once_v2", "users", 1000, "p99Bound", "1s"), baseline(baseline), List.of(1000.0, 2000.0, 4000.0),
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

    @Test
    void printsATableWritesJsonAndDrawsTwoCharts() throws Exception {
        PipelineReport r = report(List.of(step(1, 1000, 20000, 20000, 1000, 40), step(2, 1000, 20000, 20000, 1000, 60),
                step(1, 2000, 40000, 40000, 2000, 50)), 4000);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        r.print(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        String table = bytes.toString(StandardCharsets.UTF_8);
        assertTrue(table.contains("offered/s"), table);
        assertTrue(table.contains("     1,000     2"), table);
        assertTrue(table.contains("max sustained rate (keeps up, p99 <= 1s): 2,000 events/s"), table);
        assertTrue(table.contains("delivered/baseline 0.500"), table);
        assertTrue(table.contains("goal <= 60 ms: met"), table);
        assertTrue(table.contains("note: a note"), table);

        JsonNode json = NotifyJson.mapper().readTree(NotifyJson.mapper().writeValueAsString(r));
        assertEquals("pipeline", json.get("scenario").asText());
        assertEquals(3, json.get("steps").size());
        assertEquals(2, json.get("medians").size());
        assertEquals(50, json.get("medians").get(0).get("p99Ms").asDouble(), 1e-9);
        assertEquals(0.5, json.get("summary").get("ratio").asDouble(), 1e-9);

        assertEquals(2, r.charts().length);
        assertEquals(2 * PngCharts.HEIGHT, PngCharts.render(PngCharts.WIDTH, PngCharts.HEIGHT, r.charts()).getHeight());
    }
}
