package io.notify.cli.bench.report;

import com.fasterxml.jackson.databind.SerializationFeature;
import io.notify.cli.bench.plot.Chart;
import io.notify.cli.bench.plot.PngCharts;
import io.notify.protocol.NotifyJson;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Where every benchmark's results go: {@code <out>/bench-<scenario>-<time>.json} (indented) and,
 * next to it, {@code <out>/bench-<scenario>-<time>.png} with the scenario's charts; plus the
 * machine description every report carries. The default folder of every bench is {@value #DEFAULT_OUT}.
 */
public final class ResultFiles {

    /** The {@code --out} default shared by all benches. */
    public static final String DEFAULT_OUT = "results";

    /** The files one bench run wrote; {@code png} is null when no chart could be drawn. */
    public record Written(Path json, Path png) {

        @Override
        public String toString() {
            return png == null ? json.toString() : json + " and " + png;
        }
    }

    private ResultFiles() {
    }

    /** Writes the JSON report, then the charts (stacked) as PNG; a chart failure costs only the PNG. */
    public static Written write(Path out, String scenario, Instant at, Object report, Chart... charts) throws IOException {
        return write(out, "bench", scenario, at, report, charts);
    }

    /** As {@link #write(Path, String, Instant, Object, Chart...)}, named {@code <kind>-<scenario>-<time>} (kind: bench, chaos). */
    public static Written write(Path out, String kind, String scenario, Instant at, Object report, Chart... charts)
            throws IOException {
        Files.createDirectories(out);
        String base = kind + "-" + scenario + "-" + at.toString().replace(':', '-');
        Path json = out.resolve(base + ".json");
        NotifyJson.mapper().copy().enable(SerializationFeature.INDENT_OUTPUT).writeValue(json.toFile(), report);
        if (charts.length == 0) {
            return new Written(json, null);
        }
        try {
            return new Written(json, PngCharts.write(out.resolve(base + ".png"), charts));
        } catch (IOException | RuntimeException | LinkageError | java.awt.AWTError | InternalError e) {
            System.err.println(kind + " " + scenario + ": could not draw the PNG chart: " + e);
            return new Written(json, null);
        }
    }

    public static Map<String, Object> machine() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("cores", Runtime.getRuntime().availableProcessors());
        m.put("java", System.getProperty("java.version"));
        m.put("os", System.getProperty("os.name") + " " + System.getProperty("os.version") + " " + System.getProperty("os.arch"));
        m.put("loadAverageAtEnd", ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
        return m;
    }

    /** Deletes a finished run's work dir (logs are kept only when a run fails). */
    public static void deleteTree(Path dir) {
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            System.err.println("could not delete " + dir + ": " + e.getMessage());
        }
    }
}
