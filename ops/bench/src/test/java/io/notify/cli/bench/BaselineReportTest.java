package io.notify.cli.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.notify.cli.bench.report.Stats;
import io.notify.protocol.NotifyJson;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.zip.Deflater;
import org.junit.jupiter.api.Test;

/** The pure parts of {@code bench baseline}: record sizing, medians, ratios and the report's shape. */
class BaselineReportTest {

    private static BaselineRun.Result run(double producerRate, double consumerRate, double p50, double p99) {
        return new BaselineRun.Result(1000, 1024, 1000, 0, 1000, 1000 / producerRate, 1000 / consumerRate, producerRate,
                producerRate * 1024 / 1e6, consumerRate, consumerRate * 1024 / 1e6,
                new LatencySummary(p50, p50 * 1.5, p99, p99 * 2, 1000), new LatencySummary(1, 2, 3, 4, 1000));
    }

    @Test
    void recordsHaveExactlyTheAskedSize() {
        assertEquals(24, BaselineRun.id(0).length());
        assertEquals(24, BaselineRun.id(999_999_999L).length());
        for (int size : List.of(300, 1024, 4096)) {
            assertEquals(size, new BenchEvents(size).value(BaselineRun.id(42)).length);
        }
    }

    @Test
    void aBatchOfEventsDoesNotCompressMuchAndEveryEventIsValidJson() throws Exception {
        BenchEvents events = new BenchEvents(1024);
        byte[] batch = events.ndjson("e-", 100);
        Deflater deflater = new Deflater(Deflater.BEST_COMPRESSION);
        deflater.setInput(batch);
        deflater.finish();
        byte[] out = new byte[batch.length * 2];
        int compressed = deflater.deflate(out);
        assertTrue(compressed > batch.length / 2, "100 events of 1 KiB compress to " + compressed + " of " + batch.length
                + " bytes; a repeated pad would compress about 100:1");
        String[] lines = new String(batch, StandardCharsets.US_ASCII).split("\n");
        assertEquals(100, lines.length);
        assertNotEquals(lines[0].substring(lines[0].indexOf("pad")), lines[1].substring(lines[1].indexOf("pad")),
                "each event has its own pad");
        for (String line : lines) {
            assertEquals("bench.event", NotifyJson.mapper().readTree(line).path("type").asText());
        }
    }

    @Test
    void mediansAndRatios() {
        assertEquals(2.0, Stats.median(List.of(3.0, 1.0, 2.0)));
        assertEquals(2.5, Stats.median(List.of(4.0, 1.0, 2.0, 3.0)));
        assertEquals(2.0, Stats.median(Arrays.asList(Double.NaN, 2.0, null)));
        assertTrue(Double.isNaN(Stats.median(List.of())));
        assertEquals(0.333, Stats.ratio(1, 3));
        assertTrue(Double.isNaN(Stats.ratio(1, 0)));
        assertEquals(500.0, BaselineRun.rate(1000, 2));
        assertEquals(0.0, BaselineRun.rate(1000, 0));
    }

    @Test
    void reportTakesTheMedianOfEachColumnOnItsOwn() {
        BaselineReport report = BaselineReport.of(Instant.EPOCH, Map.of("cores", 2), Map.of("records", 1000, "recordBytes", 1024),
                List.of(run(100_000, 90_000, 5, 40), run(300_000, 80_000, 2, 20), run(200_000, 70_000, 9, 30)));
        BaselineReport.Medians m = report.medians();
        assertEquals(200_000, m.producerRecordsPerSecond(), 1e-6);
        assertEquals(80_000, m.consumerRecordsPerSecond(), 1e-6);
        assertEquals(0.4, m.consumerToProducer());
        assertEquals(5, m.endToEndP50Ms());
        assertEquals(30, m.endToEndP99Ms());
        assertEquals(200_000 * 1024 / 1e6, m.producerMegabytesPerSecond(), 1e-9);
        assertEquals(2, report.charts().length);

        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        report.print(new PrintStream(buf, true, StandardCharsets.UTF_8));
        List<String> lines = buf.toString(StandardCharsets.UTF_8).lines().toList();
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("median") && l.contains("200,000") && l.contains("80,000")),
                String.join("\n", lines));
        assertEquals(3, lines.stream().filter(l -> l.matches("run \\d+ .*")).count());
    }
}
