package io.notify.cli.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.notify.cli.checkout.CheckoutMain;
import io.notify.devstack.Infra;
import io.notify.devstack.NotifyInfraExtension;
import io.notify.protocol.NotifyJson;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** The baseline against the shared test broker: every record produced is consumed and the numbers hang together (never speed). */
@ExtendWith(NotifyInfraExtension.class)
class BaselineBenchIT {

    @TempDir
    Path out;

    @Test
    void everyAcknowledgedRecordIsConsumedAndPercentilesAreOrdered(Infra infra) throws Exception {
        BaselineRun run = new BaselineRun(infra.bootstrapServers(),
                new BaselineRun.Options(3000, 512, 3, "lz4", Duration.ofMinutes(2), infra.name("baseline-")));
        BaselineRun.Result r = run.run();

        assertEquals(3000, r.produced());
        assertEquals(0, r.failed());
        assertEquals(r.produced(), r.consumed());
        assertEquals(512, r.recordBytes());
        assertEquals(r.consumed(), r.endToEndMs().count(), "one latency sample per record read");
        assertEquals(r.produced(), r.ackMs().count());
        LatencySummary e2e = r.endToEndMs();
        assertTrue(e2e.p50() > 0 && e2e.p50() <= e2e.p95() && e2e.p95() <= e2e.p99() && e2e.p99() <= e2e.max(), e2e.toString());
        assertTrue(r.produceSeconds() > 0 && r.consumeSeconds() > 0);
        assertEquals(r.produced() / r.produceSeconds(), r.producerRecordsPerSecond(), 1e-6);
        assertEquals(r.producerRecordsPerSecond() * 512 / 1e6, r.producerMegabytesPerSecond(), 1e-9);
        assertEquals(run.consumed(), r.consumed());
    }

    @Test
    void commandPrintsATableAndWritesJsonAndPng(Infra infra) throws Exception {
        int code = CheckoutMain.commandLine().execute("bench", "baseline", "--bootstrap", infra.bootstrapServers(),
                "--records", "1500", "--record-size", "300", "--runs", "2", "--warmup-records", "0", "--partitions", "2",
                "--out", out.toString());
        assertEquals(0, code);

        List<Path> files;
        try (Stream<Path> s = Files.list(out)) {
            files = s.sorted().toList();
        }
        assertEquals(2, files.size(), files.toString());
        Path json = files.stream().filter(p -> p.toString().endsWith(".json")).findFirst().orElseThrow();
        Path png = files.stream().filter(p -> p.toString().endsWith(".png")).findFirst().orElseThrow();
        assertTrue(json.getFileName().toString().startsWith("bench-baseline-"));
        assertEquals(json.getFileName().toString().replace(".json", ".png"), png.getFileName().toString());

        JsonNode report = NotifyJson.mapper().readTree(json.toFile());
        assertEquals(2, report.get("runs").size());
        for (JsonNode run : report.get("runs")) {
            assertEquals(1500, run.get("produced").asLong());
            assertEquals(1500, run.get("consumed").asLong());
            assertEquals(300, run.get("recordBytes").asInt());
        }
        JsonNode m = report.get("medians");
        assertTrue(m.get("endToEndP50Ms").asDouble() <= m.get("endToEndP99Ms").asDouble());
        assertTrue(m.get("producerRecordsPerSecond").asDouble() > 0);

        BufferedImage image = ImageIO.read(png.toFile());
        assertEquals(900, image.getWidth());
        assertEquals(2 * 540, image.getHeight());
    }
}
