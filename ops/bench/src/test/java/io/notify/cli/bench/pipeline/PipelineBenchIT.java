package io.notify.cli.bench.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.notify.cli.checkout.CheckoutMain;
import io.notify.protocol.NotifyJson;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * A tiny sweep through the whole stack, with the clients' acks off and on: every accepted event
 * reaches its recipient once, checked by id; with acks on the acks become receipts that
 * fanout-streams applies, with acks off there are none; numbers hang together (never speed).
 */
class PipelineBenchIT {

    @TempDir
    Path out;

    @Test
    void everyAcceptedEventIsDeliveredAndTheReportIsWritten() throws Exception {
        int code = CheckoutMain.commandLine().execute("bench", "pipeline", "--users", "20", "--rates", "50",
                "--step-duration", "5s", "--warmup", "1s", "--initial-warmup", "2s", "--runs", "1", "--baseline-records", "5000",
                "--clients-per-agent", "10", "--source-addresses", "2", "--ingest-lanes", "2", "--deadline", "5m", "--ack-modes", "off,on",
                "--out", out.toString());
        assertEquals(0, code);

        List<Path> files;
        try (Stream<Path> s = Files.list(out)) {
            files = s.sorted().toList();
        }
        Path json = files.stream().filter(p -> p.getFileName().toString().matches("bench-pipeline-.*\\.json")).findFirst().orElseThrow();
        Path png = json.resolveSibling(json.getFileName().toString().replace(".json", ".png"));
        assertTrue(Files.exists(png), files.toString());

        JsonNode report = NotifyJson.mapper().readTree(json.toFile());
        JsonNode steps = report.get("steps");
        assertEquals(2, steps.size(), "one rate, with acks off and on");
        for (JsonNode s : steps) {
            long offered = s.get("offered").asLong();
            long expected = (long) (s.get("offeredRate").asDouble() * 5);
            assertTrue(offered >= expected * 0.9 && offered <= expected, "offered " + offered + " of ~" + expected);
            assertEquals(offered, s.get("accepted").asLong(), "every offered event accepted: " + s);
            assertEquals(0, s.get("failed").asLong());
            assertEquals(s.get("accepted").asLong(), s.get("delivered").asLong(), "delivered == accepted: " + s);
            assertEquals(0, s.get("lost").asLong(), "checked by id and recipient: " + s);
            assertEquals(0, s.get("extra").asLong());
            assertEquals(0, s.get("duplicates").asLong());
            assertEquals(0, s.get("closed").asLong(), "no gateway closed a client in a quiet run: " + s);
            JsonNode l = s.get("latencyMs");
            assertEquals(s.get("delivered").asLong(), l.get("count").asLong(), "one latency sample per delivery");
            JsonNode r = s.get("receipts");
            if (s.get("acks").asText().equals("on")) {
                // 20 users at 50 events/s: about one event per user per 100 ms ack interval or fewer
                assertTrue(r.get("acks").asLong() > 0 && r.get("acks").asLong() <= s.get("delivered").asLong(), "acks: " + s);
                assertTrue(r.get("produced").asLong() > 0, "receipts written: " + s);
                assertEquals(r.get("acks").asLong(), r.get("produced").asLong() + r.get("coalesced").asLong(),
                        "every ack written or folded into a waiting receipt: " + s);
                assertEquals(0, r.get("dropped").asLong() + r.get("failed").asLong(), s.toString());
                assertTrue(r.get("applied").asLong() > 0 && r.get("applied").asLong() <= r.get("produced").asLong(), "applied: " + s);
            } else {
                assertEquals(0, r.get("acks").asLong() + r.get("produced").asLong() + r.get("applied").asLong(), "acks off: " + s);
            }
            assertTrue(l.get("p50").asDouble() > 0 && l.get("p50").asDouble() <= l.get("p95").asDouble()
                    && l.get("p95").asDouble() <= l.get("p99").asDouble() && l.get("p99").asDouble() <= l.get("max").asDouble(), l.toString());
        }
        assertEquals(2, report.get("medians").size(), "one rate × acks off and on");
        JsonNode modes = report.get("modes");
        assertEquals(2, modes.size());
        assertEquals("off", modes.get(0).get("acks").asText());
        assertEquals("on", modes.get(1).get("acks").asText());
        assertEquals(0, modes.get(0).get("receiptsPerEvent").asDouble());
        assertTrue(modes.get(1).get("receiptsPerEvent").asDouble() > 0, modes.toString());
        assertTrue(modes.get(1).get("appliedPerEvent").asDouble() > 0, modes.toString());
        assertTrue(report.get("receiptCost").has("sustainedRatio"), report.get("receiptCost").toString());
        assertTrue(report.get("baseline").get("consumed").asLong() == 5000);
        JsonNode sum = report.get("summary");
        assertTrue(sum.get("baselineRecordsPerSecond").asDouble() > 0);

        BufferedImage image = ImageIO.read(png.toFile());
        assertEquals(900, image.getWidth());
        assertEquals(2 * 540, image.getHeight());
    }
}
