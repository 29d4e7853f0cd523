package io.notify.cli.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.notify.cli.checkout.CheckoutMain;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bench push} end to end with tiny numbers on its own broker, a push sender in a child JVM
 * and the bench's push service answering after 50 ms: every push of every record reaches its
 * device once, none refused, and both the sender and the receiver alone move pushes (never speed).
 */
class PushBenchIT {

    @TempDir
    Path out;

    @Test
    void everyPushArrivesOnceAtTheReceiver() throws Exception {
        int code = CheckoutMain.commandLine().execute("bench", "push", "--rate", "100", "--users", "40", "--devices-per-user", "2",
                "--warmup", "3s", "--duration", "5s", "--latency", "50ms", "--max-in-flight", "32", "--runs", "1",
                "--baseline-duration", "2s", "--baseline-concurrency", "16", "--drain", "60s", "--out", out.toString());
        assertEquals(0, code, "0 lost, 0 duplicates, nothing refused");

        JsonNode report = BenchOutput.report(out, "push");
        assertEquals(1, report.get("runs").size());
        JsonNode run = report.get("runs").get(0);
        JsonNode pushes = run.get("pushes");
        assertTrue(pushes.get("records").asLong() >= 700, "about 100 records/s for 8 s: " + pushes);
        assertEquals(2 * pushes.get("records").asLong(), pushes.get("expected").asLong(), "two devices per user");
        assertEquals(0, pushes.get("lost").asLong(), pushes.toString());
        assertEquals(0, pushes.get("duplicates").asLong(), pushes.toString());
        assertEquals(0, pushes.get("misdelivered").asLong(), pushes.toString());
        assertEquals(0, run.get("rejected").size(), run.get("rejected").toString());
        assertTrue(run.get("pushesPerSecond").asDouble() > 50, run.toString());
        assertTrue(pushes.get("latenessMinMs").asDouble() >= 0, "no push before its record was due: " + pushes);
        assertTrue(pushes.get("latenessP50Ms").asDouble() <= pushes.get("latenessP99Ms").asDouble(), pushes.toString());
        assertTrue(run.get("cpu").get("senderMicrosPerPush").asDouble() > 0, run.get("cpu").toString());
        JsonNode baseline = run.get("baseline");
        assertTrue(baseline.get("pushesPerSecond").asDouble() > 50, baseline.toString());
        assertEquals(0, baseline.get("failed").asLong(), baseline.toString());
        assertEquals("32", report.get("settings").get("maxInFlight").asText());
        assertEquals(0, report.get("totals").get("lost").asLong());
    }
}
