package io.notify.cli.chaos;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.notify.protocol.NotifyJson;
import io.notify.protocol.event.EventEnvelope;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.junit.jupiter.api.Test;

class ChaosPartsTest {

    @Test
    void aRecallThatCannotBeScheduledIsAFailedPublish_notLeftPendingForTheSettleWait() {
        Verifier verifier = new Verifier(2, 1);
        ScheduledExecutorService stopped = Executors.newSingleThreadScheduledExecutor();
        stopped.shutdown();
        try (Recaller recaller = new Recaller("127.0.0.1:1", "t.notify.events", verifier, stopped, Duration.ofMillis(300),
                Duration.ofSeconds(1).toNanos())) {
            recaller.recallLater(EventEnvelope.durable("chaos.tick", NotifyJson.mapper().createObjectNode(), ChaosAgent.userId(0)));
            assertEquals(0, recaller.pending());
        }
        assertEquals(1, verifier.verdict().publishFailures());
    }

    @Test
    void scenariosByNameAndAll() {
        assertEquals(List.of(Scenario.PAUSE_GATEWAY), Scenario.parse("pause-gateway"));
        assertEquals(List.of(Scenario.ROLLING_RESTART), Scenario.parse("rolling-restart"));
        assertEquals(6, Scenario.parse("all").size());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Scenario.parse("kill-everything"));
        assertEquals(true, e.getMessage().contains("restart-redis"));
    }

    @Test
    void onlyARollingRestartGivesTheGatewaysADrainWindow() {
        ChaosOptions kills = ChaosOptions.of(Scenario.parse("kill-gateway"), true, 1, 10, 1, 2, 10);
        assertEquals(null, kills.gatewaySettings().get("notify.gateway.drain-window"), "the stack's own 0 s");
        ChaosOptions quick = ChaosOptions.of(Scenario.parse("rolling-restart"), true, 1, 10, 1, 2, 10);
        assertEquals("2s", quick.gatewaySettings().get("notify.gateway.drain-window"));
        assertEquals("12s", quick.gatewaySettings().get("notify.registry.lease"), "the registry timings stay");
        ChaosOptions full = ChaosOptions.of(Scenario.parse("all"), false, 0, 10, 1, 2, 10);
        assertEquals("8s", full.gatewaySettings().get("notify.gateway.drain-window"));
    }

    @Test
    void faultCountsFollowTheMode() {
        ChaosOptions full = ChaosOptions.of(Scenario.parse("all"), false, 0, 10, 1, 2, 10);
        assertEquals(20, full.faultsFor(Scenario.KILL_GATEWAY));
        assertEquals(3, full.faultsFor(Scenario.RESTART_BROKER));
        assertEquals(Duration.ofMinutes(30), full.lease(), "the full mode keeps the registry defaults");
        assertEquals(Duration.ofSeconds(14), full.frozenFor(), "frozen past three liveness TTLs (4 s), not the 30 min lease");
        ChaosOptions quick = ChaosOptions.of(Scenario.parse("all"), true, 0, 10, 1, 2, 10);
        assertEquals(2, quick.faultsFor(Scenario.KILL_GATEWAY));
        assertEquals(Duration.ofSeconds(12), quick.lease());
        assertEquals(Duration.ofSeconds(5), quick.aliveTtl());
        assertEquals(Duration.ofSeconds(14), quick.frozenFor(), "quick: past the 12 s lease, as before");
        assertEquals(7, ChaosOptions.of(Scenario.parse("all"), true, 7, 10, 1, 2, 10).faultsFor(Scenario.KILL_ROUTER));
    }

    @Test
    void mediansPerNumericColumn() {
        Map<String, Double> m = ChaosReport.medians(List.of(
                Map.of("node", "gw-1", "resumedMs", 100, "routed", 4),
                Map.of("node", "gw-2", "resumedMs", 300, "routed", 2),
                Map.of("node", "gw-1", "resumedMs", 200, "routed", 6)));
        assertEquals(200.0, m.get("resumedMs"));
        assertEquals(4.0, m.get("routed"));
        assertEquals(false, m.containsKey("node"));
        assertEquals(150.0, ChaosReport.medians(List.of(Map.of("x", 100), Map.of("x", 200))).get("x"));
        Map<String, Double> unobserved = ChaosReport.medians(List.of(Map.of("x", -1, "y", -1), Map.of("x", 300, "y", -1)));
        assertEquals(300.0, unobserved.get("x"), "-1 (not observed) is left out");
        assertTrue(unobserved.get("y").isNaN());
    }

    @Test
    void withheldSharesPickOneEventInNAndTravelToTheAgent() {
        Withheld.Shares d = ChaosOptions.of(Scenario.parse("kill-gateway"), true, 1, 10, 1, 2, 10).withheld();
        assertEquals(Withheld.Shares.DEFAULT, d, "every run withholds some unless told not to");
        assertEquals(Withheld.Fate.EXPIRING, d.fateOf(20));
        assertEquals(Withheld.Fate.RECALLED, d.fateOf(25));
        assertEquals(Withheld.Fate.RECALLED, d.fateOf(100), "both: recalled");
        assertEquals(null, d.fateOf(21));
        long expiring = java.util.stream.LongStream.rangeClosed(1, 1000).filter(n -> d.fateOf(n) == Withheld.Fate.EXPIRING).count();
        assertEquals(40, expiring, "1 in 20, less the 10 of every 100th that are recalled");
        assertEquals("2s", d.ttlText(), "the envelope's ttl form");
        assertEquals(d, Withheld.Shares.fromArgs(java.util.Map.of("expireEvery", "20", "ttlMs", "2000", "recallEvery", "25",
                "recallAfterMs", "300")));
        assertEquals(d, Withheld.Shares.fromArgs(args(d.args())));
        assertEquals(null, Withheld.Shares.NONE.fateOf(100));
        assertEquals(Withheld.Shares.NONE, Withheld.Shares.fromArgs(java.util.Map.of()), "an agent told nothing withholds nothing");
        assertThrows(IllegalArgumentException.class, () -> new Withheld.Shares(20, Duration.ofMillis(1500), 25, Duration.ZERO),
                "an envelope's ttl is whole seconds");
        assertThrows(IllegalArgumentException.class, () -> new Withheld.Shares(-1, Duration.ofSeconds(2), 25, Duration.ZERO));
    }

    private static Map<String, String> args(List<String> keyValues) {
        Map<String, String> m = new java.util.HashMap<>();
        keyValues.forEach(kv -> m.put(kv.substring(0, kv.indexOf('=')), kv.substring(kv.indexOf('=') + 1)));
        return m;
    }
}
