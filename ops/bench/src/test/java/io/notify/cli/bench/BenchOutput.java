package io.notify.cli.bench;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.notify.protocol.NotifyJson;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/** What a bench command left in its {@code --out} folder, for the bench ITs. */
final class BenchOutput {

    private BenchOutput() {
    }

    /** The report {@code bench-<scenario>-<time>.json} in {@code out}, parsed, after checking that its PNG lies next to it. */
    static JsonNode report(Path out, String scenario) throws IOException {
        List<Path> files;
        try (Stream<Path> s = Files.list(out)) {
            files = s.sorted().toList();
        }
        Path json = files.stream().filter(p -> p.getFileName().toString().matches("bench-" + scenario + "-.*\\.json"))
                .findFirst().orElseThrow(() -> new AssertionError("no bench-" + scenario + " report in " + files));
        assertTrue(Files.exists(json.resolveSibling(json.getFileName().toString().replace(".json", ".png"))), files.toString());
        return NotifyJson.mapper().readTree(json.toFile());
    }
}
