package io.notify.cli.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.notify.cli.bench.plot.Chart;
import io.notify.cli.bench.plot.Palette;
import io.notify.cli.bench.plot.PngCharts;
import java.awt.image.BufferedImage;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jfree.data.category.CategoryDataset;
import org.junit.jupiter.api.Test;

/** The charts of the existing benches are drawn from their reports: one bar per run and the median, per mode. */
class BenchChartsTest {

    private static LoadResult load(String name, double perSecond) {
        return new LoadResult(name, (long) perSecond, 0, 1, new LatencySummary(1, 2, 3, 4, 10));
    }

    @Test
    void ingestChartHasABarPerRunAndTheMedianForEveryMode() {
        Map<String, Double> medians = new LinkedHashMap<>();
        medians.put("raw-producer", 600_000.0);
        medians.put("ingest-single", 5_000.0);
        IngestBench.Report report = new IngestBench.Report("ingest", Instant.EPOCH, Map.of(), Map.of(),
                List.of(load("raw-producer", 600_000), load("ingest-single", 5_000),
                        load("raw-producer", 500_000), load("ingest-single", 4_000)), medians, Map.of());
        Chart chart = IngestBench.chart(report);
        CategoryDataset data = chart.toJFreeChart().getCategoryPlot().getDataset();
        assertEquals(List.of("run 1", "run 2", "median"), data.getRowKeys());
        assertEquals(List.of("raw-producer", "ingest-single"), data.getColumnKeys());
        assertEquals(4_000, data.getValue("run 2", "ingest-single").doubleValue());
        BufferedImage image = PngCharts.render(PngCharts.WIDTH, PngCharts.HEIGHT, chart);
        // three series, each with two bars (far more pixels than a legend swatch)
        for (int s = 0; s < 3; s++) {
            assertTrue(pixels(image, s) > 2 * 100, "series " + s);
        }
        assertEquals(0, pixels(image, 3));
    }

    @Test
    void fanoutChartComparesTheRelayWithEachGuarantee() {
        FanoutRouteRun.Result eos = new FanoutRouteRun.Result("exactly_once_v2", 1, 100, 3_000, 3_000, 1, 3_000, 0, 100, Map.of(),
                0.9, 0.1, 0.05, 0.1, 0.05, Map.of(), load("query", 4_000), 1 << 20, 0.01);
        FanoutReport report = FanoutReport.of(Map.of(), List.of(load("baseline-relay", 60_000)), List.of(eos));
        CategoryDataset data = report.chart().toJFreeChart().getCategoryPlot().getDataset();
        assertEquals(List.of("run 1", "median"), data.getRowKeys());
        assertEquals(List.of("baseline-relay", "exactly_once_v2"), data.getColumnKeys());
        BufferedImage image = PngCharts.render(PngCharts.WIDTH, PngCharts.HEIGHT, report.chart());
        assertTrue(pixels(image, 0) > 2 * 100, "run 1 bars");
        assertTrue(pixels(image, 1) > 2 * 100, "median bars");
    }

    private static int pixels(BufferedImage image, int series) {
        int rgb = Palette.color(series).getRGB();
        int n = 0;
        for (int y = 0; y < image.getHeight(); y++) {
            for (int x = 0; x < image.getWidth(); x++) {
                n += image.getRGB(x, y) == rgb ? 1 : 0;
            }
        }
        return n;
    }
}
