package io.notify.cli.bench.gateway;

import io.notify.cli.bench.plot.BarChart;
import io.notify.cli.bench.plot.Chart;
import io.notify.cli.bench.report.ResultFiles;
import java.io.PrintStream;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * The results of {@code bench storm}: the initial connect, one entry per storm round (agents merged,
 * plus the gateway's own counters for the round), the medians over rounds, and the verdict: every
 * client resumed with exactly its missed events, none lost, none twice.
 */
record StormReport(String scenario, Instant at, Map<String, Object> machine, Map<String, Object> settings,
                   BenchMath.Ramp initialConnect, List<Round> rounds, double medianResumesPerSecond,
                   double medianSecondsTo99, boolean correct, boolean goalMet, List<String> notes) {

    static final double GOAL_RESUMES_PER_SECOND = 5000;

    /**
     * One round: the clients' view, the gateway's counters over the same round (its query API
     * requests for the resumes and their mean latency as the gateway measured it), and the CPU it
     * cost per resume.
     */
    record Round(int round, BenchMath.StormRound clients, long gatewayRejectedHandshakes, long gatewayReplayedEvents,
                 long gatewayQueryRequests, double gatewayQueryMeanMs, CpuPerClient cpu) {
    }

    static StormReport of(Map<String, Object> settings, BenchMath.Ramp initial, List<Round> rounds, List<String> notes) {
        double rate = BenchMath.median(rounds.stream().map(r -> r.clients().resumesPerSecond()).toList());
        double t99 = BenchMath.median(rounds.stream().map(r -> r.clients().secondsTo99()).toList());
        boolean correct = !rounds.isEmpty() && rounds.stream().allMatch(r -> r.clients().correct());
        return new StormReport("storm", Instant.now(), ResultFiles.machine(), settings, initial, rounds, rate, t99,
                correct, rate >= GOAL_RESUMES_PER_SECOND, notes);
    }

    void print(PrintStream out) {
        out.printf("%nbench storm: %s clients reconnect to one gateway node, each resuming a replay of %s events%s%n",
                settings.get("clients"), settings.get("replay"),
                "0s".equals(settings.get("jitter")) ? " (all at once)" : " (full jitter over " + settings.get("jitter") + ")");
        out.printf("%-5s %8s %8s %11s %8s %8s %9s %9s %6s %5s %11s %9s %9s %8s%n", "round", "clients", "resumed",
                "resumes/s", "t99% s", "last s", "rejected", "attempts", "lost", "dup", "welcome p50", "p50 ms", "p99 ms",
                "verdict");
        for (Round r : rounds) {
            BenchMath.StormRound c = r.clients();
            out.printf("%-5d %,8d %,8d %,11.0f %8.2f %8.2f %,9d %,9d %,6d %,5d %11.1f %9.1f %9.1f %8s%n", r.round(),
                    c.clients(), c.resumed(), c.resumesPerSecond(), c.secondsTo99(), c.secondsToLast(), c.rejected(),
                    c.attempts(), c.lost(), c.duplicates(), c.welcomeLatencyMs().p50(), c.resumeLatencyMs().p50(),
                    c.resumeLatencyMs().p99(), c.correct() ? "ok" : "FAILED");
        }
        out.printf("median resumes/s %,.0f (goal >= %,.0f: %s); median time to 99%% resumed %.2f s; lost/duplicates: %s%n",
                medianResumesPerSecond, GOAL_RESUMES_PER_SECOND, goalMet ? "met" : "NOT met", medianSecondsTo99,
                correct ? "none (verified per client)" : "FAILED, see rounds");
        for (Round r : rounds) {
            out.printf("round %d gateway: %,d handshakes rejected (rate_limited), %,d events replayed, %,d query API requests "
                            + "(mean %.1f ms); client failures by reason: %s%n", r.round(), r.gatewayRejectedHandshakes(),
                    r.gatewayReplayedEvents(), r.gatewayQueryRequests(), r.gatewayQueryMeanMs(), r.clients().failures());
            out.printf("round %d CPU per resume: %s%n", r.round(), r.cpu().describe());
        }
        notes.forEach(n -> out.println("note: " + n));
    }

    /** The PNG: resumes/s per round (against the goal), then lost and duplicate events per round (should be 0). */
    Chart[] charts() {
        List<String> names = rounds.stream().map(r -> "round " + r.round()).toList();
        BarChart rate = new BarChart(String.format("Reconnect storm: %s clients, resumes/s per round (goal %,.0f/s)",
                settings.get("clients"), GOAL_RESUMES_PER_SECOND), "round", "resumes/s", names)
                .add("resumes/s", rounds.stream().mapToDouble(r -> r.clients().resumesPerSecond()).toArray());
        BarChart loss = new BarChart("Lost and duplicate events per round (must be 0)", "round", "events", names)
                .add("lost", rounds.stream().mapToDouble(r -> r.clients().lost()).toArray())
                .add("duplicates", rounds.stream().mapToDouble(r -> r.clients().duplicates()).toArray());
        return new Chart[] {rate, loss};
    }
}
