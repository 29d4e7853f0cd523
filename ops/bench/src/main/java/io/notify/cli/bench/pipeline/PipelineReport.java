package io.notify.cli.bench.pipeline;

import io.notify.cli.bench.BaselineRun;
import io.notify.cli.bench.plot.Chart;
import io.notify.cli.bench.plot.LineChart;
import io.notify.cli.bench.report.Stats;
import java.io.PrintStream;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * What {@code bench pipeline} prints and writes: every step of every run, medians per offered rate
 * and ack mode, a summary per ack mode ({@code summary} is the first mode's), with acks both off
 * and on the cost of receipts, and the CPU per delivered event of each process.
 */
public record PipelineReport(String scenario, Instant at, Map<String, Object> machine, Map<String, Object> settings,
                             BaselineRun.Result baseline, List<StepResult> steps, List<StepMedian> medians, Summary summary,
                             List<ModeSummary> modes, ReceiptCost receiptCost, List<String> notes) {

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

        /** The summary of one mode's medians. */
        static Summary of(List<StepMedian> medians, BaselineRun.Result baseline) {
            StepMedian max = PipelineMath.maxSustained(medians);
            StepMedian half = PipelineMath.atHalf(medians, max);
            StepMedian up = PipelineMath.maxKeepingUp(medians);
            double atUp = up == null ? Double.NaN : up.deliveredPerSecond();
            double base = baseline.consumerRecordsPerSecond();
            double peak = medians.stream().mapToDouble(StepMedian::deliveredPerSecond).max().orElse(Double.NaN);
            double atMax = max == null ? Double.NaN : max.deliveredPerSecond();
            double p99Half = half == null ? Double.NaN : half.p99Ms();
            double ratio = Stats.ratio(atMax, base);
            return new Summary(max == null ? null : max.offeredRate(), atMax, up == null ? null : up.offeredRate(), atUp,
                    Stats.ratio(atUp, base), half == null ? null : half.offeredRate(), p99Half,
                    peak, base, ratio, Stats.ratio(peak, base), ratio >= RATIO_GOAL, p99Half <= P99_GOAL_MS);
        }
    }

    static PipelineReport of(Instant at, Map<String, Object> machine, Map<String, Object> settings, BaselineRun.Result baseline,
                             List<String> ackModes, List<Double> rates, List<StepResult> steps, double p99BoundMs,
                             List<String> notes) {
        List<StepMedian> medians = PipelineMath.medians(ackModes, rates, steps, p99BoundMs);
        List<ModeSummary> modes = new ArrayList<>();
        for (String mode : ackModes) {
            Summary s = Summary.of(medians.stream().filter(m -> m.acks().equals(mode)).toList(), baseline);
            modes.add(ModeSummary.of(mode, s, steps));
        }
        return new PipelineReport("pipeline", at, machine, settings, baseline, List.copyOf(steps), medians, modes.get(0).summary(),
                List.copyOf(modes), ReceiptCost.of(modes), List.copyOf(notes));
    }

    public void print(PrintStream out) {
        out.printf("%nbench pipeline: ingest HTTP -> Kafka -> fanout-streams (%s) -> gateways -> %s WebSocket clients, acks %s%n",
                settings.get("guarantee"), settings.get("users"), String.join(", ", modes.stream().map(ModeSummary::acks).toList()));
        out.printf("%10s %4s %5s %11s %11s %9s %9s %9s %9s %7s %6s %5s %7s %9s %9s %8s %11s %12s %10s %13s%n", "offered/s", "acks",
                "runs", "accepted/s", "delivered/s", "p50 ms", "p95 ms", "p99 ms", "max ms", "failed", "lost", "dup", "reconn",
                "keeps up", "sustained", "acks/ev", "receipts/ev", "coalesced/ev", "applied/ev", "server µs/ev");
        for (StepMedian m : medians) {
            out.printf("%,10.0f %4s %5d %,11.0f %,11.0f %9.1f %9.1f %9.1f %9.1f %7d %6d %5d %7d %9s %9s %8.3f %11.3f %12.3f %10.3f %13s%n",
                    m.offeredRate(), m.acks(), m.runs(), m.acceptedPerSecond(), m.deliveredPerSecond(), m.p50Ms(), m.p95Ms(), m.p99Ms(),
                    m.maxMs(), m.failed(), m.lost(), m.duplicates(), m.reconnects(), m.keepsUp() ? "yes" : "no",
                    m.sustained() ? "yes" : "no", m.acksPerEvent(), m.receiptsPerEvent(), m.coalescedPerEvent(), m.appliedPerEvent(),
                    CpuPerEvent.micros(m.cpuPerEvent().serverMicros()));
        }
        out.printf("medians over runs (failed, lost, dup, reconn summed); lost and dup are counted by event id and recipient; "
                + "reconn = clients a gateway closed that reconnected with their position; "
                + "latency = data.sentAtMs at the generator -> arrival at a client; per delivered event, over the runs: "
                + "acks/ev = ack frames the gateways received, receipts/ev = ack receipts they wrote to notify.receipts, "
                + "coalesced/ev = acks folded into a waiting receipt, applied/ev = ack receipts fanout-streams applied; "
                + "server µs/ev = CPU of the server processes per delivered event (table below)%n");
        for (ModeSummary m : modes) {
            printSummary(out, modes.size() == 1 ? "" : "acks " + m.acks() + ": ", m);
        }
        if (receiptCost != null) {
            ReceiptCost c = receiptCost;
            out.printf("cost of receipts (acks on / off): max sustained rate %s / %s events/s = %.3f (goal >= %.2f, i.e. <= 10%% of "
                            + "throughput: %s); peak delivered %,.0f / %,.0f events/s = %.3f%n", rate(c.onMaxSustainedRate()),
                    rate(c.offMaxSustainedRate()), c.sustainedRatio(), c.goal(), c.goalMet() ? "met" : "NOT met",
                    c.onPeakDeliveredPerSecond(), c.offPeakDeliveredPerSecond(), c.peakRatio());
        }
        printCpu(out);
        printHops(out);
        printCommits(out);
        printPaths(out);
        notes.forEach(n -> out.println("note: " + n));
    }

    private void printSummary(PrintStream out, String prefix, ModeSummary mode) {
        Summary s = mode.summary();
        out.printf("%smax sustained rate (keeps up, p99 <= %s): %s; p99 at half of it (%s events/s): %s (goal <= %.0f ms: %s)%n",
                prefix, settings.get("p99Bound"), s.maxSustainedRate() == null ? "none"
                        : String.format("%,.0f events/s, delivered %,.0f/s", s.maxSustainedRate(), s.deliveredAtMaxPerSecond()),
                s.halfRate() == null ? "-" : String.format("%,.0f", s.halfRate()),
                Double.isNaN(s.p99AtHalfMs()) ? "-" : String.format("%.1f ms", s.p99AtHalfMs()), P99_GOAL_MS,
                s.latencyGoalMet() ? "met" : "NOT met");
        out.printf("%shighest rate that keeps up (delivered >= %.2f x offered, nothing lost), any latency: %s%n", prefix,
                PipelineMath.SUSTAINED_FRACTION, s.maxKeepingUpRate() == null ? "none"
                        : String.format("%,.0f events/s, delivered %,.0f/s = %.3f x baseline", s.maxKeepingUpRate(),
                        s.deliveredKeepingUpPerSecond(), s.keepingUpRatio()));
        out.printf("%sbaseline (raw Kafka, same broker): %,.0f records/s consumed; delivered/baseline %.3f at the max sustained rate "
                        + "(goal >= %.2f: %s), %.3f at the peak (%,.0f/s)%n", prefix, s.baselineRecordsPerSecond(), s.ratio(),
                RATIO_GOAL, s.ratioGoalMet() ? "met" : "NOT met", s.peakRatio(), s.peakDeliveredPerSecond());
        if (mode.acks().equals("on")) {
            out.printf("%sper delivered event over the sweep: %.3f ack frames received by the gateways, %.3f ack receipts written "
                            + "(%d dropped, %d failed), %.3f acks coalesced, %.3f ack receipts applied by fanout-streams%n", prefix,
                    mode.acksPerEvent(), mode.receiptsPerEvent(), mode.receiptsDropped(), mode.receiptsFailed(),
                    mode.coalescedPerEvent(), mode.appliedPerEvent());
        }
    }

    private static String rate(Double r) {
        return r == null ? "none" : String.format("%,.0f", r);
    }

    /** The steps of one row of the medians: its offered rate and ack mode. */
    private List<StepResult> stepsOf(StepMedian m) {
        return steps.stream().filter(s -> s.offeredRate() == m.offeredRate() && s.acks().equals(m.acks())).toList();
    }

    /** Per offered rate and ack mode, summed over the runs: how many frames the safety net (query API) carried, and why. */
    private void printPaths(PrintStream out) {
        out.printf("%ndelivery paths (gateways' counters, summed over runs): live frames, replayed frames (resume, gap fill, "
                + "recheck), events only a recheck found, gap fills, connections closed by a gateway, resets sent, durable "
                + "events not sent because the connection had them, node-topic records that found no connection%n");
        out.printf("%10s %4s %12s %10s %9s %11s %9s %8s %7s %9s %8s%n", "offered/s", "acks", "live", "replayed", "share",
                "recheck-only", "gap fills", "closes", "resets", "dup drops", "no conn");
        for (StepMedian m : medians) {
            DeliveryPaths sum = DeliveryPaths.sum(stepsOf(m).stream().filter(s -> s.paths() != null).map(StepResult::paths).toList());
            out.printf("%,10.0f %4s %,12d %,10d %8.4f%% %,11d %,9d %,8d %,7d %,9d %,8d%n", m.offeredRate(), m.acks(), sum.live(),
                    sum.replayed(), 100 * sum.replayedShare(), sum.recheckFound(), sum.gapFills(), sum.closes(), sum.resets(),
                    sum.duplicatesDropped(), sum.noConnection());
        }
    }

    /** Per offered rate and ack mode, the CPU of each process per delivered event: medians over the runs. */
    private void printCpu(PrintStream out) {
        out.printf("%nCPU per delivered event (µs; /proc utime+stime over the measured window; medians over runs)%n");
        out.printf("%10s %4s %10s %10s %10s %10s %10s %13s %16s %15s%n", "offered/s", "acks", "broker", "fanout", "ingest",
                "gateways", "redis", "server total", "load generators", "machine busy %");
        for (StepMedian m : medians) {
            CpuPerEvent c = m.cpuPerEvent();
            out.printf("%,10.0f %4s %10s %10s %10s %10s %10s %13s %16s %15s%n", m.offeredRate(), m.acks(),
                    CpuPerEvent.micros(c.brokerMicros()), CpuPerEvent.micros(c.fanoutMicros()), CpuPerEvent.micros(c.ingestMicros()),
                    CpuPerEvent.micros(c.gatewaysMicros()), CpuPerEvent.micros(c.redisMicros()), CpuPerEvent.micros(c.serverMicros()),
                    CpuPerEvent.micros(c.loadMicros()), CpuPerEvent.percent(c.machineBusy()));
        }
        out.printf("measured window: from the start of a step's load until its deliveries were counted (the wait for the last "
                + "ones included); fanout and gateways summed over their instances; server total = broker + fanout + ingest + "
                + "gateways + redis (each column its own median); load generators = the ingest load JVM and the client agents, "
                + "not in the total; machine busy = all cores, everything on the box; - = not measured%n");
    }

    /** The latency budget per offered rate and ack mode: medians over the runs of each hop's mean, p50 and p99. */
    private void printHops(PrintStream out) {
        out.printf("%nlatency budget, hop by hop (gateways' notify_gateway_hop_latency_seconds; medians over runs; "
                + "means add up to total, percentiles do not)%n");
        out.printf("%10s %4s  %-13s %10s %10s %10s%n", "offered/s", "acks", "hop", "mean ms", "p50 ms", "p99 ms");
        for (StepMedian m : medians) {
            for (String hop : HopBudget.HOPS) {
                List<HopBudget.Hop> of = stepsOf(m).stream().flatMap(s -> s.hops().stream()).filter(h -> h.hop().equals(hop)).toList();
                if (!of.isEmpty()) {
                    out.printf("%,10.0f %4s  %-13s %10.2f %10.2f %10.2f%n", m.offeredRate(), m.acks(), hop,
                            Stats.median(of.stream().map(HopBudget.Hop::meanMs).toList()),
                            Stats.median(of.stream().map(HopBudget.Hop::p50Ms).toList()),
                            Stats.median(of.stream().map(HopBudget.Hop::p99Ms).toList()));
                }
            }
        }
    }

    /** Per offered rate and ack mode, fanout-streams' commits over the steps' windows: medians over the runs. */
    private void printCommits(PrintStream out) {
        out.printf("%nfanout-streams' transaction commits over the same windows (medians over runs; /metrics of every instance: "
                + "kafka_stream_thread_commit_total, notify_fanout_catch_up_commits_total, the transactional producer's flush, "
                + "send-offsets and commit times): part of node_topic is the wait for a commit to start, part the commit%n");
        out.printf("%10s %4s %10s %10s %10s %10s %10s %10s%n", "offered/s", "acks", "commits/s", "catch-up", "mean ms", "flush ms",
                "offsets ms", "EndTxn ms");
        for (StepMedian m : medians) {
            CommitCost c = CommitCost.median(stepsOf(m).stream().map(StepResult::commits).toList());
            if (!Double.isNaN(c.perSecond())) {
                out.printf("%,10.0f %4s %10.1f %9.0f%% %10.2f %10.2f %10.2f %10.2f%n", m.offeredRate(), m.acks(), c.perSecond(),
                        100 * c.catchUpShare(), c.meanMs(), c.flushMs(), c.offsetsMs(), c.endTxnMs());
            }
        }
    }

    /**
     * The PNG: offered vs accepted/delivered rates; offered vs latency percentiles (log scale); per
     * ack mode when there are several, the acks-on lines' legend with what the acks became.
     */
    public Chart[] charts() {
        LineChart rates = new LineChart("Pipeline throughput (" + settings.get("guarantee") + ", " + settings.get("users")
                + " clients): medians", "offered events/s", "events/s");
        LineChart latency = new LineChart("Pipeline end-to-end latency (ingest -> client): medians", "offered events/s", "ms").logY();
        boolean several = modes.size() > 1;
        for (ModeSummary mode : modes) {
            List<StepMedian> of = medians.stream().filter(m -> m.acks().equals(mode.acks())).toList();
            double[] xs = column(of, StepMedian::offeredRate);
            String suffix = !several && mode.acks().equals("off") ? "" : ", acks " + mode.acks();
            if (mode == modes.get(0)) {
                rates.add("offered", xs, xs);
            }
            String receipts = mode.acks().equals("on") ? String.format(" (per event: %.2f receipts written, %.2f applied)",
                    mode.receiptsPerEvent(), mode.appliedPerEvent()) : "";
            rates.add("accepted by ingest" + suffix, xs, column(of, StepMedian::acceptedPerSecond))
                    .add("delivered to clients" + suffix + receipts, xs, column(of, StepMedian::deliveredPerSecond));
            latency.add("p50" + suffix, xs, column(of, StepMedian::p50Ms));
            if (!several) {
                latency.add("p95" + suffix, xs, column(of, StepMedian::p95Ms));
            }
            latency.add("p99" + suffix, xs, column(of, StepMedian::p99Ms)).add("max" + suffix, xs, column(of, StepMedian::maxMs));
        }
        return new Chart[] {rates, latency};
    }

    private static double[] column(List<StepMedian> of, ToDoubleFunction<StepMedian> f) {
        return of.stream().mapToDouble(f).toArray();
    }
}
