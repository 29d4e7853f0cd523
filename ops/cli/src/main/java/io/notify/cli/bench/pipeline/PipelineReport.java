package io.notify.cli.bench.pipeline;

import io.notify.cli.bench.BaselineRun;
import io.notify.cli.bench.plot.Chart;
import io.notify.cli.bench.plot.LineChart;
import io.notify.cli.bench.report.Stats;
import java.io.PrintStream;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/** What {@code bench pipeline} prints and writes: every step of every run, medians per offered rate, the summary. */
public record PipelineReport(String scenario, Instant at, Map<String, Object> machine, Map<String, Object> settings,
                             BaselineRun.Result baseline, List<StepResult> steps, List<StepMedian> medians, Summary summary,
                             List<String> notes) {

    static final double RATIO_GOAL = 0.33;
    static final double P99_GOAL_MS = 60;

    /**
     * The max sustained offered rate (null if no step was), the delivered rate there, the step at
     * half of it and its p99, the peak delivered rate of any step, both as ratios of the baseline's
     * consumed records/s, and whether the goals are met (ratio ≥ 0.33, p99 ≤ 60 ms at half the max
     * rate); also the highest rate that kept up whatever its latency, and its ratio.
     */
    public record Summary(Double maxSustainedRate, double deliveredAtMaxPerSecond, Double maxKeepingUpRate,
                          double deliveredKeepingUpPerSecond, double keepingUpRatio, Double halfRate, double p99AtHalfMs,
                          double peakDeliveredPerSecond, double baselineRecordsPerSecond, double ratio, double peakRatio,
                          boolean ratioGoalMet, boolean latencyGoalMet) {
    }

    static PipelineReport of(Instant at, Map<String, Object> machine, Map<String, Object> settings, BaselineRun.Result baseline,
                             List<Double> rates, List<StepResult> steps, double p99BoundMs, List<String> notes) {
        List<StepMedian> medians = PipelineMath.medians(rates, steps, p99BoundMs);
        StepMedian max = PipelineMath.maxSustained(medians);
        StepMedian half = PipelineMath.atHalf(medians, max);
        StepMedian up = PipelineMath.maxKeepingUp(medians);
        double atUp = up == null ? Double.NaN : up.deliveredPerSecond();
        double base = baseline.consumerRecordsPerSecond();
        double peak = medians.stream().mapToDouble(StepMedian::deliveredPerSecond).max().orElse(Double.NaN);
        double atMax = max == null ? Double.NaN : max.deliveredPerSecond();
        double p99Half = half == null ? Double.NaN : half.p99Ms();
        double ratio = Stats.ratio(atMax, base);
        Summary s = new Summary(max == null ? null : max.offeredRate(), atMax, up == null ? null : up.offeredRate(), atUp,
                Stats.ratio(atUp, base), half == null ? null : half.offeredRate(), p99Half,
                peak, base, ratio, Stats.ratio(peak, base), ratio >= RATIO_GOAL, p99Half <= P99_GOAL_MS);
        return new PipelineReport("pipeline", at, machine, settings, baseline, List.copyOf(steps), medians, s, List.copyOf(notes));
    }

    public void print(PrintStream out) {
        out.printf("%nbench pipeline: ingest HTTP -> Kafka -> fanout-streams (%s) -> gateways -> %s WebSocket clients%n",
                settings.get("guarantee"), settings.get("users"));
        out.printf("%10s %5s %11s %11s %9s %9s %9s %9s %7s %6s %5s %7s %9s %9s%n", "offered/s", "runs", "accepted/s", "delivered/s",
                "p50 ms", "p95 ms", "p99 ms", "max ms", "failed", "lost", "dup", "reconn", "keeps up", "sustained");
        for (StepMedian m : medians) {
            out.printf("%,10.0f %5d %,11.0f %,11.0f %9.1f %9.1f %9.1f %9.1f %7d %6d %5d %7d %9s %9s%n", m.offeredRate(), m.runs(),
                    m.acceptedPerSecond(), m.deliveredPerSecond(), m.p50Ms(), m.p95Ms(), m.p99Ms(), m.maxMs(), m.failed(),
                    m.lost(), m.duplicates(), m.reconnects(), m.keepsUp() ? "yes" : "no", m.sustained() ? "yes" : "no");
        }
        out.printf("medians over runs (failed, lost, dup, reconn summed); lost and dup are counted by event id and recipient; "
                + "reconn = clients a gateway closed that reconnected with their position; "
                + "latency = data.sentAtMs at the generator -> arrival at a client%n");
        out.printf("max sustained rate (keeps up, p99 <= %s): %s; p99 at half of it (%s events/s): %s (goal <= %.0f ms: %s)%n",
                settings.get("p99Bound"), summary.maxSustainedRate() == null ? "none"
                        : String.format("%,.0f events/s, delivered %,.0f/s", summary.maxSustainedRate(), summary.deliveredAtMaxPerSecond()),
                summary.halfRate() == null ? "-" : String.format("%,.0f", summary.halfRate()),
                Double.isNaN(summary.p99AtHalfMs()) ? "-" : String.format("%.1f ms", summary.p99AtHalfMs()), P99_GOAL_MS,
                summary.latencyGoalMet() ? "met" : "NOT met");
        out.printf("highest rate that keeps up (delivered >= %.2f x offered, nothing lost), any latency: %s%n",
                PipelineMath.SUSTAINED_FRACTION, summary.maxKeepingUpRate() == null ? "none"
                        : String.format("%,.0f events/s, delivered %,.0f/s = %.3f x baseline", summary.maxKeepingUpRate(),
                        summary.deliveredKeepingUpPerSecond(), summary.keepingUpRatio()));
        out.printf("baseline (raw Kafka, same broker): %,.0f records/s consumed; delivered/baseline %.3f at the max sustained rate "
                        + "(goal >= %.2f: %s), %.3f at the peak (%,.0f/s)%n", summary.baselineRecordsPerSecond(), summary.ratio(),
                RATIO_GOAL, summary.ratioGoalMet() ? "met" : "NOT met", summary.peakRatio(), summary.peakDeliveredPerSecond());
        printHops(out);
        printPaths(out);
        notes.forEach(n -> out.println("note: " + n));
    }

    /** Per offered rate, summed over the runs: how many frames the safety net (query API) carried, and why. */
    private void printPaths(PrintStream out) {
        out.printf("%ndelivery paths (gateways' counters, summed over runs): live frames, replayed frames (resume, gap fill, "
                + "recheck), events only a recheck found, gap fills, connections closed by a gateway, resets sent, durable "
                + "events not sent because the connection had them, node-topic records that found no connection%n");
        out.printf("%10s %12s %10s %9s %11s %9s %8s %7s %9s %8s%n", "offered/s", "live", "replayed", "share", "recheck-only",
                "gap fills", "closes", "resets", "dup drops", "no conn");
        for (StepMedian m : medians) {
            DeliveryPaths sum = DeliveryPaths.sum(steps.stream().filter(s -> s.offeredRate() == m.offeredRate() && s.paths() != null)
                    .map(StepResult::paths).toList());
            out.printf("%,10.0f %,12d %,10d %8.4f%% %,11d %,9d %,8d %,7d %,9d %,8d%n", m.offeredRate(), sum.live(), sum.replayed(),
                    100 * sum.replayedShare(), sum.recheckFound(), sum.gapFills(), sum.closes(), sum.resets(),
                    sum.duplicatesDropped(), sum.noConnection());
        }
    }

    /** The latency budget per offered rate: medians over the runs of each hop's mean, p50 and p99. */
    private void printHops(PrintStream out) {
        out.printf("%nlatency budget, hop by hop (gateways' notify_gateway_hop_latency_seconds; medians over runs; "
                + "means add up to total, percentiles do not)%n");
        out.printf("%10s  %-13s %10s %10s %10s%n", "offered/s", "hop", "mean ms", "p50 ms", "p99 ms");
        for (StepMedian m : medians) {
            for (String hop : HopBudget.HOPS) {
                List<HopBudget.Hop> of = steps.stream().filter(s -> s.offeredRate() == m.offeredRate())
                        .flatMap(s -> s.hops().stream()).filter(h -> h.hop().equals(hop)).toList();
                if (!of.isEmpty()) {
                    out.printf("%,10.0f  %-13s %10.2f %10.2f %10.2f%n", m.offeredRate(), hop,
                            Stats.median(of.stream().map(HopBudget.Hop::meanMs).toList()),
                            Stats.median(of.stream().map(HopBudget.Hop::p50Ms).toList()),
                            Stats.median(of.stream().map(HopBudget.Hop::p99Ms).toList()));
                }
            }
        }
    }

    /** The PNG: offered vs accepted/delivered rates; offered vs latency percentiles (log scale). */
    public Chart[] charts() {
        double[] xs = column(StepMedian::offeredRate);
        LineChart rates = new LineChart("Pipeline throughput (" + settings.get("guarantee") + ", " + settings.get("users")
                + " clients): medians", "offered events/s", "events/s")
                .add("offered", xs, xs)
                .add("accepted by ingest", xs, column(StepMedian::acceptedPerSecond))
                .add("delivered to clients", xs, column(StepMedian::deliveredPerSecond));
        LineChart latency = new LineChart("Pipeline end-to-end latency (ingest -> client): medians", "offered events/s", "ms")
                .add("p50", xs, column(StepMedian::p50Ms))
                .add("p95", xs, column(StepMedian::p95Ms))
                .add("p99", xs, column(StepMedian::p99Ms))
                .add("max", xs, column(StepMedian::maxMs))
                .logY();
        return new Chart[] {rates, latency};
    }

    private double[] column(ToDoubleFunction<StepMedian> f) {
        return medians.stream().mapToDouble(f).toArray();
    }
}
