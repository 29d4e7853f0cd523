package io.notify.cli.chaos;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.notify.cli.bench.report.ResultFiles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Every chaos scenario in quick mode, one after another on one multi-process stack of 2
 * fanout-streams and 2 gateways (its own broker and Redis child processes — the scenarios kill and
 * restart them, so the module's shared broker cannot serve): asserts correctness only — every acknowledged event, to a user or to one of the 4
 * rooms the devices subscribe to, reached every device it was for exactly once, in order, with no
 * silent gap, and every service is running at the end. Never speed. The producer's default shares are
 * withheld ({@link Withheld.Shares#DEFAULT}): 1 event in 20 with a 2 s ttl, 1 in 25 recalled 300 ms
 * after its acknowledgment; those may arrive or not, but never twice, out of order or after their recall.
 */
class ChaosIT {

    @Test
    void everyScenarioLosesNothing() throws Exception {
        ChaosOptions o = ChaosOptions.of(Scenario.parse("all"), true, 1, 20, 2, 4, 50);
        Path work = Files.createTempDirectory("notify-chaos-it-");
        // two gateways, not the command's three: every scenario still moves clients to a surviving node, and
        // one gateway JVM less (and one node less to roll) is ~20 s of the suite
        ChaosRun.Shape shape = new ChaosRun.Shape(2, 2, false, Map.of());
        assertEquals(Withheld.Shares.DEFAULT, o.withheld());
        List<ChaosRun.ScenarioResult> results = ChaosRun.run(o, work, 42, shape, line -> System.err.println("chaos-it: " + line));
        String table = ChaosReport.of(o, 42, java.time.Instant.now(), results).table();
        System.err.println(table);
        assertEquals(List.of("kill-gateway", "pause-gateway", "kill-router", "restart-broker", "restart-redis", "rolling-restart"),
                results.stream().map(ChaosRun.ScenarioResult::scenario).toList());
        long recallsTold = 0;
        for (ChaosRun.ScenarioResult r : results) {
            String why = r.scenario() + " (logs in " + work + "):\n" + table;
            assertEquals(null, r.error(), "could not finish " + why);
            Verifier.Verdict v = r.verdict();
            assertEquals(1, r.faults().size(), why);
            assertTrue(v.acked() > 0, "nothing was acknowledged in " + why);
            assertTrue(v.roomAcked() > 0 && v.roomDelivered() > 0, "no room event was judged in " + why);
            assertEquals(v.expectedDeliveries(), v.delivered(), "deliveries in " + why);
            assertEquals(0, v.lost(), "lost in " + why);
            assertEquals(0, v.duplicates(), "duplicates in " + why);
            assertEquals(0, v.outOfOrder(), "out of order in " + why);
            assertEquals(0, v.gaps(), "silent gaps in " + why);
            assertTrue(v.expiry().sent() > 0, "no event with a ttl in " + why);
            assertTrue(v.recalls().events() > 0, "no recalled event in " + why);
            assertEquals(v.recalls().events(), v.recalls().sent(), "every recall acknowledged in " + why);
            assertEquals(0, v.recalls().afterRecall(), "content after its recall in " + why);
            assertEquals(0, v.recalls().unexpected(), "recalled frames for events never recalled in " + why);
            recallsTold += v.recalls().frames() + v.recalls().collapsed();
            assertEquals(List.of(), r.servicesDownAtEnd(), "services down after " + why);
            assertTrue(r.passed(), why);
        }
        assertTrue(recallsTold > 0, "no device was told of a recall:\n" + table);
        ResultFiles.deleteTree(work);
    }
}
