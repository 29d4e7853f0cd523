package io.notify.cli.bench.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.notify.protocol.NotifyJson;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code notifyctl bench storm} in a quick mode (60 clients, one round, 3 missed events each) on
 * its own multi-process stack: asserts correctness only — every client resumed with exactly the
 * events it missed, none lost or duplicated (the bench exits 1 otherwise) — and that the JSON and
 * PNG results are written. Never speed.
 */
class StormBenchIT {

    @Test
    void aQuickStormLosesNothingAndWritesItsResults(@TempDir Path out) throws Exception {
        int exit = new CommandLine(new StormBench()).execute("--clients", "60", "--rounds", "1", "--replay", "3",
                "--gateway-heap", "256m", "--clients-per-agent", "60", "--source-addresses", "2", "--out", out.toString());
        assertEquals(0, exit, "bench storm reported lost, duplicate or missing events, or failed (see stderr)");
        List<Path> files;
        try (Stream<Path> s = Files.list(out)) {
            files = s.sorted().toList();
        }
        Path json = files.stream().filter(p -> p.toString().endsWith(".json")).findFirst().orElseThrow();
        assertTrue(files.stream().anyMatch(p -> p.toString().endsWith(".png")), "a chart next to the JSON: " + files);
        JsonNode report = NotifyJson.mapper().readTree(json.toFile());
        assertTrue(report.path("correct").asBoolean(), report.toPrettyString());
        assertEquals(1, report.path("rounds").size());
    }
}
