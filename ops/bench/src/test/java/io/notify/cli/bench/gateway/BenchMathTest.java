package io.notify.cli.bench.gateway;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Result arithmetic, agent splitting and backoff. */
class BenchMathTest {

    @Test
    void perConnectionCostIsTheDeltaOverTheConnectionsAdded() {
        assertEquals(2048.0, BenchMath.perConnection(10_000_000, 10_000_000 + 2048L * 15_000, 0, 15_000));
        assertEquals(1000.0, BenchMath.perConnection(5_000_000, 6_000_000, 1000, 2000));
        assertTrue(Double.isNaN(BenchMath.perConnection(1, 2, 5, 5)));
        ConnectionsReport.Checkpoint base = new ConnectionsReport.Checkpoint("baseline", 0, 20_000_000, 64_000_000, 200_000_000, 100, 10);
        ConnectionsReport.Checkpoint half = new ConnectionsReport.Checkpoint("half", 1000, 21_500_000, 64_000_000, 206_000_000, 1100, 10);
        ConnectionsReport.Checkpoint full = new ConnectionsReport.Checkpoint("target", 2000, 23_000_000, 68_000_000, 210_000_000, 2100, 10);
        ConnectionsReport.PerConnection p = ConnectionsReport.PerConnection.of(base, half, full, ConnectionsReport.heapGoal("ws"));
        assertEquals(1500.0, p.heapAverage());
        assertEquals(1500.0, p.heapMarginal());
        assertEquals(5000.0, p.rssAverage());
        assertEquals(4000.0, p.rssMarginal());
        assertEquals(3000.0, p.nativeAverage());
        assertEquals(0.0, p.nativeMarginal());
        assertTrue(p.heapGoalMet());
        assertTrue(p.rssGoalMet());
        assertEquals(3072.0, ConnectionsReport.heapGoal("sse"), "SSE's goal is 3 KB");
        ConnectionsReport.Checkpoint heavy = new ConnectionsReport.Checkpoint("target", 2000, 20_000_000 + 2 * 2500L * 1000,
                68_000_000, 200_000_000 + 2 * 7000L * 1000, 2100, 10);
        ConnectionsReport.PerConnection sse = ConnectionsReport.PerConnection.of(base, half, heavy, ConnectionsReport.heapGoal("sse"));
        assertTrue(sse.heapGoalMet(), "2.5 KB meets SSE's goal");
        assertFalse(ConnectionsReport.PerConnection.of(base, half, heavy, ConnectionsReport.heapGoal("ws")).heapGoalMet());
        assertFalse(sse.rssGoalMet(), "7 KB of RSS misses 6 KB");
    }

    @Test
    void timeTo99PercentCountsClientsThatNeverResumed() {
        long[] done = {5, 1, 4, 2, 3};
        assertEquals(5.0, BenchMath.quantileOfPopulation(done, 5, 0.99));
        assertEquals(3.0, BenchMath.quantileOfPopulation(done, 5, 0.6));
        assertTrue(Double.isNaN(BenchMath.quantileOfPopulation(done, 6, 0.99)), "one of six never resumed");
        assertEquals(4.0, BenchMath.quantileOfPopulation(done, 6, 0.6));
    }

    @Test
    void stormRoundMergesAgents() {
        PhaseReport a = report(new long[] {1_000_000, 2_000_000}, 0, 0);
        PhaseReport b = report(new long[] {4_000_000, 3_000_000}, 0, 0);
        BenchMath.StormRound r = BenchMath.storm(List.of(a, b), 10);
        assertEquals(4, r.clients());
        assertEquals(4, r.resumed());
        assertEquals(4.0, r.secondsToLast());
        assertEquals(4.0, r.secondsTo99());
        assertEquals(1.0, r.resumesPerSecond());
        assertEquals(40, r.received());
        assertEquals(40, r.expected());
        assertEquals(Map.of("http 503", 2L), r.failures());
        assertTrue(r.correct());
        assertFalse(BenchMath.storm(List.of(a, report(new long[] {1}, 1, 0)), 10).correct(), "a lost event");
        assertFalse(BenchMath.storm(List.of(a, report(new long[] {1}, 0, 1)), 10).correct(), "a duplicate");
    }

    @Test
    void medianIgnoresNaN() {
        assertEquals(2.0, BenchMath.median(List.of(3.0, 1.0, 2.0)));
        assertEquals(2.5, BenchMath.median(List.of(3.0, Double.NaN, 1.0, 2.0, 4.0)));
        assertTrue(Double.isNaN(BenchMath.median(List.of())));
    }

    @Test
    void clientsSplitEvenlyOverAgentsAndShareProportionally() {
        assertEquals(List.of(new AgentFleet.Slice(0, 7500), new AgentFleet.Slice(7500, 7500)), AgentFleet.split(15000, 8000));
        assertEquals(List.of(new AgentFleet.Slice(0, 4), new AgentFleet.Slice(4, 3), new AgentFleet.Slice(7, 3)),
                AgentFleet.split(10, 4));
        assertEquals(List.of(new AgentFleet.Slice(0, 500)), AgentFleet.split(500, 8000));
        assertArrayEquals(new int[] {3750, 3750}, AgentFleet.shares(7500, AgentFleet.split(15000, 8000)));
        assertArrayEquals(new int[] {2, 1, 2}, AgentFleet.shares(5, AgentFleet.split(10, 4)));
        assertEquals(8, AgentFleet.split(150_000, 19_000, 8).size(), "one agent per node");
        assertEquals(18_750, AgentFleet.split(150_000, 19_000, 8).get(7).count());
        assertEquals(4, AgentFleet.split(10, 4, 2).size(), "3 slices rounded up to a multiple of 2 nodes");
        assertEquals(3, AgentFleet.split(5, 8000, 3).size(), "at least one slice per node");
        assertEquals(List.of("127.0.0.2", "127.0.0.3"), AgentFleet.sourceAddresses(2));
        assertEquals("127.0.1.0", AgentFleet.sourceAddresses(255).get(254));
    }

    @Test
    void backoffIsFullJitterOnTopOfRetryAfter() {
        assertEquals(0, AgentOut.retryDelayMs(1, -1, 0.0));
        assertEquals(999, AgentOut.retryDelayMs(1, -1, 0.999));
        assertEquals(1999, AgentOut.retryDelayMs(2, -1, 0.9995));
        assertEquals(60_000, AgentOut.retryDelayMs(30, -1, 0.99999999), "the SDK's window is [0, cap] inclusive");
        assertEquals(2000, AgentOut.retryDelayMs(1, 2, 0.0));
        assertEquals(2500, AgentOut.retryDelayMs(1, 2, 0.5));
    }

    @Test
    void deliveryExpectationsFollowTheRoundRobin() {
        // 10 events over 4 clients: 0,4,8 → client 0; 1,5,9 → client 1; 2,6 → 2; 3,7 → 3
        assertEquals(3, DeliveryMath.expectedFor(0, 10, 4));
        assertEquals(3, DeliveryMath.expectedFor(1, 10, 4));
        assertEquals(2, DeliveryMath.expectedFor(2, 10, 4));
        assertEquals(2, DeliveryMath.expectedFor(3, 10, 4));
        assertEquals(0, DeliveryMath.expectedFor(4, 10, 4));
        assertEquals(0, DeliveryMath.expectedFor(3, 3, 4));
    }

    private static PhaseReport report(long[] doneMicros, long lost, long duplicates) {
        return new PhaseReport("storm", doneMicros.length, doneMicros.length, doneMicros.length + 1L, 1,
                Map.of("http 503", 1L), doneMicros, doneMicros, doneMicros, doneMicros.length * 10L, duplicates, lost,
                0, 0, 0, 0, 0);
    }
}
