package io.notify.devstack;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.util.Optional;
import java.util.Properties;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import kafka.tools.StorageTool;
import org.apache.kafka.common.Uuid;

/**
 * Formats the KRaft storage of a single-node server, as {@code kafka-storage.sh format} does.
 *
 * <p>Guarantees: after {@link #format} the log directory holds {@code meta.properties} and a
 * bootstrap checkpoint; a directory formatted earlier keeps its cluster id and is left untouched
 * (so a restart on the same data dir keeps its topics and records).
 */
final class KafkaStorage {

    private KafkaStorage() {
    }

    static void format(Path serverProperties, Path logDir) {
        // formatting again with another cluster id fails even with --ignore-formatted: reuse the existing id
        String clusterId = existingClusterId(logDir).orElseGet(() -> Uuid.randomUuid().toString());
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        int status;
        try (PrintStream out = new PrintStream(captured, true, StandardCharsets.UTF_8)) {
            status = StorageTool.execute(new String[] {
                "format",
                "--cluster-id", clusterId,
                "--config", serverProperties.toString(),
                "--ignore-formatted"
            }, out);
        } catch (RuntimeException e) {
            throw new IllegalStateException("formatting Kafka storage for " + serverProperties + " failed: "
                    + captured.toString(StandardCharsets.UTF_8), e);
        }
        if (status != 0) {
            throw new IllegalStateException("formatting Kafka storage for " + serverProperties + " exited with "
                    + status + ": " + captured.toString(StandardCharsets.UTF_8));
        }
    }

    /** The {@code cluster.id} in {@code meta.properties} of a log dir formatted earlier. */
    static Optional<String> existingClusterId(Path logDir) {
        Path meta = logDir.resolve("meta.properties");
        if (!Files.isRegularFile(meta)) {
            return Optional.empty();
        }
        Properties properties = new Properties();
        try (Reader in = Files.newBufferedReader(meta, StandardCharsets.UTF_8)) {
            properties.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + meta, e);
        }
        return Optional.ofNullable(properties.getProperty("cluster.id")).filter(id -> !id.isBlank());
    }
}
