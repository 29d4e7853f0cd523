package io.notify.cli.bench.gateway;

import io.notify.cli.bench.plot.Chart;
import io.notify.cli.bench.plot.LineChart;
import io.notify.cli.bench.report.ResultFiles;
import java.io.PrintStream;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * The results of {@code bench rebalance}: each node's own connection gauge, sampled once a second
 * from the moment the new node was ready (t = 0), and how long until every node held its share
 * within the tolerance ({@link #evenAfter}); plus the recycles and reconnects it cost.
 */
record RebalanceReport(String scenario, Instant at, Map<String, Object> machine, Map<String, Object> settings,
                       BenchMath.Ramp initialConnect, double joinedAfterConnectSeconds, List<Sample> samples, double evenAfterSeconds,
                       double finalSpread, long recycled, long reconnects, long heldAtEnd, List<String> notes) {

    /** Each node's connections {@code seconds} after the new node was ready (node order: gw-1, gw-2, …, the new one last). */
    record Sample(double seconds, List<Long> perNode) {

        long total() {
            return perNode.stream().mapToLong(Long::longValue).sum();
        }

        /** The largest deviation of a node from the even share, as a fraction of that share (0 = perfectly even). */
        double spread() {
            double share = (double) total() / perNode.size();
            return share == 0 ? Double.NaN
                    : perNode.stream().mapToDouble(n -> Math.abs(n - share)).max().orElse(0) / share;
        }
    }

    /**
     * Seconds from t = 0 to the first sample from which every node stays within {@code tolerance} of
     * the even share for {@code stable} samples in a row; NaN when that never happened.
     */
    static double evenAfter(List<Sample> samples, double tolerance, int stable) {
        int run = 0;
        for (int i = 0; i < samples.size(); i++) {
            run = samples.get(i).spread() <= tolerance ? run + 1 : 0;
            if (run == stable) {
                return samples.get(i - stable + 1).seconds();
            }
        }
        return Double.NaN;
    }

    void print(PrintStream out) {
        out.printf("%nbench rebalance: %s clients on %s nodes, one more node joins; max-connection-lifetime %s, jitter %s%n",
                settings.get("clients"), settings.get("nodes"), settings.get("lifetime"), settings.get("jitter"));
        out.printf("%8s %s %10s %8s%n", "t s", "connections per node", "total", "spread");
        int every = Math.max(1, samples.size() / 30);
        for (int i = 0; i < samples.size(); i++) {
            Sample s = samples.get(i);
            if (i % every == 0 || i == samples.size() - 1) {
                out.printf("%8.1f %s %,10d %7.1f%%%n", s.seconds(), s.perNode(), s.total(), s.spread() * 100);
            }
        }
        out.printf("the new node was ready %.1f s after the initial connect ended (the connections' age at t = 0)%n",
                joinedAfterConnectSeconds);
        out.printf("even (every node within %.0f%% of its share for %s samples in a row) after: %s; final spread %.1f%%%n",
                (double) settings.get("tolerance") * 100, settings.get("stableSamples"),
                Double.isNaN(evenAfterSeconds) ? "NOT reached within " + settings.get("observe")
                        : String.format("%.1f s", evenAfterSeconds), finalSpread * 100);
        out.printf("cost: %,d connections recycled (4010), %,d reconnects by the clients; %,d of %s clients connected at the end%n",
                recycled, reconnects, heldAtEnd, settings.get("clients"));
        notes.forEach(n -> out.println("note: " + n));
    }

    /** The PNG: each node's connections over time since the new node joined. */
    Chart chart() {
        LineChart c = new LineChart(String.format("Rebalance after a node joins: connections per node (lifetime %s)",
                settings.get("lifetime")), "seconds since the new node was ready", "connections");
        double[] xs = samples.stream().mapToDouble(Sample::seconds).toArray();
        int nodes = samples.isEmpty() ? 0 : samples.get(0).perNode().size();
        for (int n = 0; n < nodes; n++) {
            int node = n;
            c.add("gw-" + (n + 1) + (n == nodes - 1 ? " (joined)" : ""), xs,
                    samples.stream().mapToDouble(s -> s.perNode().get(node)).toArray());
        }
        return c;
    }

    static RebalanceReport of(Map<String, Object> settings, BenchMath.Ramp initial, double joinedAfterConnectSeconds,
                              List<Sample> samples, double tolerance,
                              int stable, long recycled, long reconnects, List<String> notes) {
        Sample last = samples.isEmpty() ? new Sample(0, List.of()) : samples.get(samples.size() - 1);
        return new RebalanceReport("rebalance", Instant.now(), ResultFiles.machine(), settings, initial, joinedAfterConnectSeconds, samples,
                evenAfter(samples, tolerance, stable), last.spread(), recycled, reconnects, last.total(), notes);
    }
}
