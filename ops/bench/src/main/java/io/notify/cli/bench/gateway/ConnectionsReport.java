package io.notify.cli.bench.gateway;

import io.notify.cli.bench.LatencySummary;
import io.notify.cli.bench.pipeline.HopBudget;
import io.notify.cli.bench.plot.Chart;
import io.notify.cli.bench.plot.LineChart;
import java.io.PrintStream;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * The results of {@code bench connections}: memory samples of the gateway process at each
 * checkpoint, the ramps, the per-connection costs derived from them, the optional delivery run,
 * and notes on what the numbers do and do not include.
 */
record ConnectionsReport(String scenario, Instant at, Map<String, Object> machine, Map<String, Object> settings,
                         List<Checkpoint> checkpoints, List<BenchMath.Ramp> ramps, List<CpuPerClient> rampCpu,
                         double rampConnectionsPerSecond,
                         PerConnection perConnection, Delivery delivery, long heldAtEnd, List<String> notes) {

    /** Issue 12's goals per idle connection: heap 2 KB (WebSocket) or 3 KB (SSE), RSS 6 KB. */
    static final double GOAL_HEAP_BYTES_WS = 2048;
    static final double GOAL_HEAP_BYTES_SSE = 3072;
    static final double GOAL_RSS_BYTES = 6144;

    static double heapGoal(String transport) {
        return "sse".equals(transport) ? GOAL_HEAP_BYTES_SSE : GOAL_HEAP_BYTES_WS;
    }

    /** The gateway process at one point: connections by its own gauge, memory after full GCs. */
    record Checkpoint(String label, long connections, long heapUsedBytes, long heapCommittedBytes, long rssBytes,
                      long openFiles, long tcpMemPages) {

        /** RSS beyond the committed heap: native memory (metaspace, code, threads, direct buffers, malloc). */
        long nativeRssBytes() {
            return rssBytes - heapCommittedBytes;
        }
    }

    /**
     * Bytes per idle connection. "average": (at target − baseline) ÷ connections; "marginal":
     * (at target − at half) ÷ (connections added in the second half), which excludes one-time costs.
     * "native": RSS minus committed heap, i.e. what the connections cost outside the Java heap.
     */
    record PerConnection(double heapAverage, double rssAverage, double heapMarginal, double rssMarginal,
                         double nativeAverage, double nativeMarginal, boolean heapGoalMet, boolean rssGoalMet) {

        static PerConnection of(Checkpoint base, Checkpoint half, Checkpoint full, double heapGoal) {
            double heapAvg = BenchMath.perConnection(base.heapUsedBytes(), full.heapUsedBytes(), base.connections(), full.connections());
            double rssAvg = BenchMath.perConnection(base.rssBytes(), full.rssBytes(), base.connections(), full.connections());
            double heapMarg = BenchMath.perConnection(half.heapUsedBytes(), full.heapUsedBytes(), half.connections(), full.connections());
            double rssMarg = BenchMath.perConnection(half.rssBytes(), full.rssBytes(), half.connections(), full.connections());
            double nativeAvg = BenchMath.perConnection(base.nativeRssBytes(), full.nativeRssBytes(), base.connections(),
                    full.connections());
            double nativeMarg = BenchMath.perConnection(half.nativeRssBytes(), full.nativeRssBytes(), half.connections(),
                    full.connections());
            return new PerConnection(heapAvg, rssAvg, heapMarg, rssMarg, nativeAvg, nativeMarg,
                    heapAvg <= heapGoal, rssAvg <= GOAL_RSS_BYTES);
        }
    }

    /** Events published at an offered rate to the connected users and the frames the agents counted. */
    record Delivery(double offeredPerSecond, long published, long received, double seconds, double deliveredPerSecond,
                    long droppedConnections, List<LatencySummary> latencyMsPerAgent, long missing, long extra,
                    long duplicates, List<Integer> sampleShortClients, List<HopBudget.Hop> hops, LatencySummary publishAckMs) {
    }

    void print(PrintStream out) {
        Object nodes = settings.getOrDefault("gateways", 1);
        out.printf("%nbench connections: %s gateway node(s)%s, %s transport%n", nodes,
                Integer.valueOf(1).equals(nodes) ? "" : " (memory and connections summed)", settings.get("transport"));
        out.printf("%-10s %12s %13s %13s %9s %13s %9s %11s%n", "point", "connections", "heap used MB", "heap cmt MB",
                "RSS MB", "RSS-heap MB", "open fds", "tcp mem MB");
        for (Checkpoint c : checkpoints) {
            out.printf("%-10s %,12d %13.1f %13.1f %9.1f %13.1f %,9d %11.1f%n", c.label(), c.connections(),
                    c.heapUsedBytes() / 1048576.0, c.heapCommittedBytes() / 1048576.0, c.rssBytes() / 1048576.0,
                    c.nativeRssBytes() / 1048576.0, c.openFiles(), c.tcpMemPages() * 4096 / 1048576.0);
        }
        out.printf("%n%-34s %12s %12s %8s%n", "per idle connection", "average", "marginal", "goal");
        out.printf("%-34s %,12.0f %,12.0f %8s  %s%n", "heap after GC (bytes)", perConnection.heapAverage(),
                perConnection.heapMarginal(), String.format("%,.0f", heapGoal(String.valueOf(settings.get("transport")))),
                perConnection.heapGoalMet() ? "met" : "NOT met");
        out.printf("%-34s %,12.0f %,12.0f %8s  %s%n", "RSS (bytes)", perConnection.rssAverage(), perConnection.rssMarginal(),
                String.format("%,.0f", GOAL_RSS_BYTES), perConnection.rssGoalMet() ? "met" : "NOT met");
        out.printf("%-34s %,12.0f %,12.0f%n", "RSS outside the committed heap", perConnection.nativeAverage(),
                perConnection.nativeMarginal());
        out.printf("%n%-10s %10s %12s %9s %9s %10s %12s %10s %12s %8s %12s %12s %8s%n", "ramp", "clients", "established", "rejected",
                "failed", "seconds", "conn/s", "p99 ms", "gw µs/conn", "its JIT", "agents µs", "machine µs", "busy");
        for (int i = 0; i < ramps.size(); i++) {
            BenchMath.Ramp r = ramps.get(i);
            CpuPerClient c = rampCpu.get(i);
            out.printf("%-10s %,10d %,12d %,9d %,9d %10.1f %,12.0f %10.1f %,12.0f %,8.0f %,12.0f %,12.0f %7.0f%%%n",
                    i == 0 ? "warm-up" : "ramp " + i, r.clients(), r.established(), r.rejected(), r.clients() - r.established(),
                    r.seconds(), r.connectionsPerSecond(), r.handshakeMs().p99(), c.gatewayMicros(), c.gatewayJitMicros(), c.agentsMicros(),
                    c.machineMicros(), c.machineBusy() * 100);
        }
        out.printf("ramp rate (ramps 1+2): %,.0f connections/s; held at the end: %,d%n", rampConnectionsPerSecond, heldAtEnd);
        if (delivery != null) {
            out.printf("%ndelivery: offered %,.0f events/s, published %,d, received %,d in %.1f s = %,.0f events/s delivered; "
                            + "dropped connections %d; latency p99 (worst agent) %.1f ms%n", delivery.offeredPerSecond(),
                    delivery.published(), delivery.received(), delivery.seconds(), delivery.deliveredPerSecond(),
                    delivery.droppedConnections(),
                    delivery.latencyMsPerAgent().stream().mapToDouble(LatencySummary::p99).max().orElse(Double.NaN));
            out.printf("delivery check per client: %d missing, %d extra, %d duplicates%s%n", delivery.missing(),
                    delivery.extra(), delivery.duplicates(), delivery.sampleShortClients().isEmpty() ? ""
                            : "; e.g. short: clients " + delivery.sampleShortClients());
            out.printf("delivery hops (the gateways' hop_latency_seconds over the phase): %s%n", HopBudget.line(delivery.hops()));
            out.printf("publisher: send to broker acknowledgement (acks=all) p50 %.1f ms, p99 %.1f ms, max %.1f ms%n",
                    delivery.publishAckMs().p50(), delivery.publishAckMs().p99(), delivery.publishAckMs().max());
        }
        notes.forEach(n -> out.println("note: " + n));
    }

    /** The PNG: heap used and RSS of the gateway against idle connections; the slopes are the per-connection costs. */
    Chart chart() {
        double[] conns = checkpoints.stream().mapToDouble(Checkpoint::connections).toArray();
        return new LineChart(String.format("%s gateway node(s): memory vs idle connections (%,.0f B heap, %,.0f B RSS each)",
                settings.getOrDefault("gateways", 1), perConnection.heapAverage(), perConnection.rssAverage()), "idle connections", "MB")
                .add("heap used after GC", conns, checkpoints.stream().mapToDouble(c -> c.heapUsedBytes() / 1048576.0).toArray())
                .add("RSS", conns, checkpoints.stream().mapToDouble(c -> c.rssBytes() / 1048576.0).toArray())
                .add("RSS outside committed heap", conns,
                        checkpoints.stream().mapToDouble(c -> c.nativeRssBytes() / 1048576.0).toArray());
    }
}
