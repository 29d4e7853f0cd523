package io.notify.cli.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.notify.cli.checkout.CheckoutMain;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code bench fallback} end to end with tiny numbers on its own broker, Redis and fanout-streams:
 * every event's fallback is written exactly once, none before it was due, and every one was pending
 * at once (never speed); and devices that received their events, over WebSocket and SSE, never make
 * them fall back, even when their gateway dies with their acks in its receipt batch. The quiet and
 * digest modes: every fallback held to the end of the users' quiet hours, and one digest per user.
 */
class FallbackBenchIT {

    private static final int PENDING = 400;

    @TempDir
    Path out;

    @Test
    void everyFallbackIsWrittenOnceAndNoneEarly() throws Exception {
        int code = CheckoutMain.commandLine().execute("bench", "fallback", "--pending", Integer.toString(PENDING),
                "--users", "150", "--after", "10s", "--check-interval", "200ms", "--runs", "1", "--deadline", "3m",
                "--devices", "20", "--devices-events", "2", "--out", out.toString());
        assertEquals(0, code);

        JsonNode report = BenchOutput.report(out, "fallback");
        assertEquals(2, report.get("runs").size(), "a baseline and a fallback mode");
        for (JsonNode run : report.get("runs")) {
            assertEquals(PENDING, run.get("events").asLong());
            assertTrue(run.get("eventsPerSecond").asDouble() > 0, run.toString());
        }
        JsonNode drain = report.get("runs").get(1).get("drain");
        JsonNode timing = drain.get("timing");
        assertEquals(PENDING, timing.get("records").asLong());
        assertEquals(0, timing.get("missing").asLong());
        assertEquals(0, timing.get("duplicates").asLong());
        assertTrue(timing.get("latenessMinMs").asDouble() >= 0, "none written before it was due: " + timing);
        assertTrue(timing.get("latenessP50Ms").asDouble() <= timing.get("latenessP99Ms").asDouble()
                && timing.get("latenessP99Ms").asDouble() <= timing.get("latenessMaxMs").asDouble(), timing.toString());
        assertTrue(timing.get("allPendingAtOnce").asBoolean(), timing.toString());
        assertEquals(PENDING, drain.get("peakPending").asLong());
        assertEquals(PENDING, drain.get("outcomes").get("scheduled").asLong());
        assertEquals(PENDING, drain.get("outcomes").get("emitted_no_device").asLong(), "no user has a device");
        assertTrue(drain.get("burstCpuSeconds").asDouble() >= 0 && drain.get("burstRssPeakBytes").asLong() > 0, drain.toString());
        assertEquals(0, report.get("fallbacks").get("missing").asLong());
        assertEquals("200ms", report.get("settings").get("checkInterval").asText());
        assertTrue(report.get("settings").get("commitInterval").asText().endsWith("(app default)"));

        // the devices phase: 10 WebSocket and 10 SSE devices, their gateway killed with acks in its receipt batch
        JsonNode devices = report.get("devices");
        assertEquals(40, devices.get("receivedEvents").asLong());
        assertEquals(0, devices.get("firedForReceived").asLong(), "no received event falls back: " + devices);
        assertEquals(40, devices.get("firedForOffline").asLong(), "each control event falls back: " + devices);
        assertEquals(0, devices.get("duplicates").asLong());
    }

    @Test
    void quietHoursHoldEveryFallbackToTheirEndAndEachUserGetsOneDigest() throws Exception {
        int code = CheckoutMain.commandLine().execute("bench", "fallback", "--modes", "quiet,digest", "--pending", "60",
                "--users", "30", "--quiet-ends-in", "20s", "--digest-events", "4", "--digest-window", "20s",
                "--check-interval", "200ms", "--runs", "1", "--deadline", "3m", "--devices", "0", "--out", out.toString());
        assertEquals(0, code);

        JsonNode rules = BenchOutput.report(out, "fallback").get("rules");
        JsonNode quiet = rules.get("runs").get(0);
        assertEquals("quiet", quiet.get("mode").asText());
        JsonNode q = quiet.get("quiet");
        assertEquals(60, q.get("records").asLong());
        for (String none : new String[] {"missing", "duplicates", "early", "notHeld", "dueAfterEnd", "usersOff"}) {
            assertEquals(0, q.get(none).asLong(), none + ": " + q);
        }
        assertEquals(2.0, q.get("pushesPerUser").asDouble(), "two events per user, each held");
        assertTrue(q.get("latenessMinMs").asDouble() >= 0, q.toString());
        assertEquals(60, quiet.get("outcomes").get("held_quiet").asLong());

        JsonNode digest = rules.get("runs").get(1);
        assertEquals("digest", digest.get("mode").asText());
        JsonNode d = digest.get("digests");
        assertEquals(30, d.get("records").asLong());
        for (String none : new String[] {"missing", "duplicates", "wrongCount", "wrongEnds", "notDigests", "dueMismatch", "early"}) {
            assertEquals(0, d.get(none).asLong(), none + ": " + d);
        }
        assertEquals(1.0, d.get("pushesPerUser").asDouble());
        assertEquals(90, digest.get("outcomes").get("folded").asLong(), "3 of each user's 4 events folded");
        assertTrue(rules.get("quiet") != null && rules.get("digests") != null, rules.toString());
    }
}
