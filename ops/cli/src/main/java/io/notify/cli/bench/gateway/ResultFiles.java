package io.notify.cli.bench.gateway;

import com.fasterxml.jackson.databind.SerializationFeature;
import io.notify.schemas.NotifyJson;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Comparator;
import java.util.Map;
import java.util.stream.Stream;

/** Where results go: {@code <out>/bench-<scenario>-<time>.json}, indented; plus the machine description. */
final class ResultFiles {

    private ResultFiles() {
    }

    static Path write(Path out, String scenario, Instant at, Object report) throws IOException {
        Files.createDirectories(out);
        Path file = out.resolve("bench-" + scenario + "-" + at.toString().replace(':', '-') + ".json");
        NotifyJson.mapper().copy().enable(SerializationFeature.INDENT_OUTPUT).writeValue(file.toFile(), report);
        return file;
    }

    static Map<String, Object> machine() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("cores", Runtime.getRuntime().availableProcessors());
        m.put("java", System.getProperty("java.version"));
        m.put("os", System.getProperty("os.name") + " " + System.getProperty("os.version") + " " + System.getProperty("os.arch"));
        m.put("loadAverageAtEnd", ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
        return m;
    }

    /** Deletes a finished run's work dir (logs are kept only when a run fails). */
    static void deleteTree(Path dir) {
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            System.err.println("could not delete " + dir + ": " + e.getMessage());
        }
    }
}
