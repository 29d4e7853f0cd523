package io.notify.cli.bench.push;

import io.notify.cli.bench.plot.BarChart;
import io.notify.cli.bench.plot.Chart;
import io.notify.cli.bench.report.ResultFiles;
import io.notify.cli.bench.report.Stats;
import java.io.PrintStream;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.ToDoubleFunction;

/**
 * What {@code bench push} prints and writes as JSON: every run, and the medians over runs (each
 * number on its own); lost, duplicate, misdelivered and refused pushes are summed, not medians. A
 * run <em>keeps up</em> when the pushes/s received are at least {@value #KEEPS_UP} of those offered
 * and none was lost or repeated; it is <em>sustained</em> when it also keeps lateness p99 within
 * the bound. The goal: {@value #GOAL_PUSHES_PER_SECOND} pushes/s from one sender at
 * {@value #GOAL_LATENCY_MS} ms provider latency with lateness p99 of at most {@value #GOAL_P99_MS} ms.
 */
record PushReport(String scenario, Instant at, Map<String, Object> machine, Map<String, Object> settings,
                  List<PushRun.Result> runs, Medians medians, Totals totals, double p99BoundMs, Goal goal) {

    static final double KEEPS_UP = 0.95;
    static final double GOAL_PUSHES_PER_SECOND = 2000;
    static final long GOAL_LATENCY_MS = 50;
    static final double GOAL_P99_MS = 1000;

    /** The median over runs of each figure of {@link PushRun.Result}, {@link PushRun.Cpu} and the baseline. */
    record Medians(double offeredRecordsPerSecond, double producedRecordsPerSecond, double offeredPushesPerSecond,
                   double pushesPerSecond, double baselinePushesPerSecond, double ratioToBaseline, double senderMicrosPerPush,
                   double senderJitMicrosPerPush, double brokerMicrosPerPush, double benchMicrosPerPush, double machineBusy,
                   double latenessMinMs, double latenessP50Ms, double latenessP99Ms, double latenessMaxMs, double drainSeconds,
                   double senderStartSeconds, double senderRssMiB, long runsKeepingUp, long runsSustained) {
    }

    /** Summed over runs; each is 0 in a good series (the bench's exit code is 1 otherwise). */
    record Totals(long records, long expected, long lost, long duplicates, long misdelivered, long rejected, long baselineFailed,
                  Map<String, Long> rejectedByReason) {
    }

    /**
     * The goal on this series' medians; {@code applies} is false when the series does not
     * measure it (another latency, or fewer pushes/s offered than the goal).
     */
    record Goal(boolean applies, boolean met, String text) {
    }

    static PushReport of(Map<String, Object> settings, List<PushRun.Result> runs, double p99BoundMs, long latencyMs) {
        Medians m = new Medians(med(runs, PushRun.Result::offeredRecordsPerSecond), med(runs, r -> r.pushes().recordsPerSecond()),
                med(runs, PushRun.Result::offeredPushesPerSecond), med(runs, PushRun.Result::pushesPerSecond),
                med(runs, r -> r.baseline().pushesPerSecond()), med(runs, PushRun.Result::ratioToBaseline),
                med(runs, r -> r.cpu().senderMicrosPerPush()), med(runs, r -> r.cpu().senderJitMicrosPerPush()),
                med(runs, r -> r.cpu().brokerMicrosPerPush()), med(runs, r -> r.cpu().benchMicrosPerPush()),
                med(runs, r -> r.cpu().machineBusy()), med(runs, r -> r.pushes().latenessMinMs()),
                med(runs, r -> r.pushes().latenessP50Ms()), med(runs, r -> r.pushes().latenessP99Ms()),
                med(runs, r -> r.pushes().latenessMaxMs()), med(runs, PushRun.Result::drainSeconds),
                med(runs, PushRun.Result::senderStartSeconds), med(runs, PushRun.Result::senderRssMiB),
                runs.stream().filter(PushReport::keepsUp).count(), runs.stream().filter(r -> sustained(r, p99BoundMs)).count());
        Map<String, Long> reasons = new TreeMap<>();
        runs.forEach(r -> r.rejected().forEach((k, v) -> reasons.merge(k, v, Long::sum)));
        Totals t = new Totals(sum(runs, r -> r.pushes().records()), sum(runs, r -> r.pushes().expected()),
                sum(runs, r -> r.pushes().lost()), sum(runs, r -> r.pushes().duplicates()), sum(runs, r -> r.pushes().misdelivered()),
                reasons.values().stream().mapToLong(Long::longValue).sum(), sum(runs, r -> r.baseline().failed()), reasons);
        return new PushReport("push", Instant.now(), ResultFiles.machine(), settings, runs, m, t, p99BoundMs, goal(m, t, latencyMs));
    }

    /** Received at least {@value #KEEPS_UP} of the pushes/s offered, nothing lost or repeated. */
    static boolean keepsUp(PushRun.Result r) {
        return r.pushesPerSecond() >= KEEPS_UP * r.offeredPushesPerSecond() && r.pushes().lost() == 0 && r.pushes().duplicates() == 0;
    }

    static boolean sustained(PushRun.Result r, double p99BoundMs) {
        return keepsUp(r) && r.pushes().latenessP99Ms() <= p99BoundMs;
    }

    static Goal goal(Medians m, Totals t, long latencyMs) {
        String what = String.format("goal: >= %,.0f pushes/s from one sender at %d ms provider latency, lateness p99 <= %.0f ms",
                GOAL_PUSHES_PER_SECOND, GOAL_LATENCY_MS, GOAL_P99_MS);
        if (latencyMs != GOAL_LATENCY_MS || !(m.offeredPushesPerSecond() >= GOAL_PUSHES_PER_SECOND * KEEPS_UP)) {
            return new Goal(false, false, what + ": not measured by this series (--latency 50ms and at least --rate 2000 do)");
        }
        boolean met = m.pushesPerSecond() >= GOAL_PUSHES_PER_SECOND * KEEPS_UP && m.latenessP99Ms() <= GOAL_P99_MS && t.lost() == 0;
        return new Goal(true, met, String.format("%s: %s (median %,.0f pushes/s, p99 %.0f ms, %d lost)", what, met ? "met" : "NOT met",
                m.pushesPerSecond(), m.latenessP99Ms(), t.lost()));
    }

    private static double med(List<PushRun.Result> runs, ToDoubleFunction<PushRun.Result> f) {
        return Stats.median(runs, f);
    }

    private static long sum(List<PushRun.Result> runs, java.util.function.ToLongFunction<PushRun.Result> f) {
        return runs.stream().mapToLong(f).sum();
    }

    void print(PrintStream out) {
        out.printf("%n%-7s %9s %9s %9s %7s %8s %8s %7s %8s %8s %8s %8s %6s %4s %7s %5s %9s%n", "run", "offered/s", "pushes/s",
                "base/s", "x base", "µs/push", "its JIT", "broker", "bench", "late p50", "p99", "max ms", "lost", "dup", "drain s",
                "busy", "sustained");
        for (PushRun.Result r : runs) {
            PushTally p = r.pushes();
            out.printf("%-7s %,9.0f %,9.0f %,9.0f %7.3f %8.1f %8.1f %7.1f %8.1f %8.0f %8.0f %8.0f %6d %4d %7.1f %4.0f%% %9s%n",
                    "run " + r.run(), r.offeredPushesPerSecond(), r.pushesPerSecond(), r.baseline().pushesPerSecond(),
                    r.ratioToBaseline(), r.cpu().senderMicrosPerPush(), r.cpu().senderJitMicrosPerPush(),
                    r.cpu().brokerMicrosPerPush(), r.cpu().benchMicrosPerPush(), p.latenessP50Ms(), p.latenessP99Ms(),
                    p.latenessMaxMs(), p.lost(), p.duplicates(), r.drainSeconds(), r.cpu().machineBusy() * 100,
                    sustained(r, p99BoundMs) ? "yes" : keepsUp(r) ? "no (p99)" : "no");
        }
        Medians m = medians;
        out.printf("%-7s %,9.0f %,9.0f %,9.0f %7.3f %8.1f %8.1f %7.1f %8.1f %8.0f %8.0f %8.0f %6d %4d %7.1f %4.0f%% %9s%n", "median",
                m.offeredPushesPerSecond(), m.pushesPerSecond(), m.baselinePushesPerSecond(), m.ratioToBaseline(),
                m.senderMicrosPerPush(), m.senderJitMicrosPerPush(), m.brokerMicrosPerPush(), m.benchMicrosPerPush(),
                m.latenessP50Ms(), m.latenessP99Ms(), m.latenessMaxMs(), totals.lost(), totals.duplicates(), m.drainSeconds(),
                m.machineBusy() * 100, m.runsSustained() + "/" + runs.size());
        out.printf("%d run(s), medians; lost/dup summed. offered/s and pushes/s: pushes (records x devices) made and received per"
                + " second over the measured window; base/s: the receiver alone at the same latency driven by a plain HTTP client"
                + " (%s requests in flight, same run); µs/push: CPU (/proc utime+stime) of the sender JVM per push received in the"
                + " window (its JIT threads apart), broker and bench (receiver + load generator) likewise; lateness = arrival at the"
                + " receiver - the record's dueAt, records due in the window; sustained = pushes/s >= %.2f x offered, nothing lost"
                + " or repeated, p99 <= %.0f ms%n", runs.size(), settings.get("baselineConcurrency"), KEEPS_UP, p99BoundMs);
        out.printf("settings: %,.0f records/s to %,d users x %s device(s), %s provider latency, max-in-flight %s (ceiling %s pushes/s),"
                        + " %s partitions, warm-up %s, window %s; load average %.2f at start, %.2f at end%n",
                settings.get("rate") instanceof Number n ? n.doubleValue() : Double.NaN, settings.get("users"), settings.get("devicesPerUser"), settings.get("latency"),
                settings.get("maxInFlight"), settings.get("inFlightCeiling"), settings.get("partitions"), settings.get("warmup"),
                settings.get("duration"), settings.get("loadAverageAtStart"), machine.get("loadAverageAtEnd"));
        out.printf("sender: start %.1f s to every partition assigned, RSS %.0f MiB at the window's end; machine busy %.0f%% over the"
                + " window (medians)%n", m.senderStartSeconds(), m.senderRssMiB(), m.machineBusy() * 100);
        for (PushRun.Result r : runs) {
            PushTally p = r.pushes();
            if (p.lost() > 0 || p.duplicates() > 0 || p.misdelivered() > 0 || !r.rejected().isEmpty() || r.baseline().failed() > 0) {
                out.printf("note: run %d: %,d of %,d pushes lost, %d duplicates, %d misdelivered, refused by the receiver %s,"
                        + " baseline requests failed %d%n", r.run(), p.lost(), p.expected(), p.duplicates(), p.misdelivered(),
                        r.rejected(), r.baseline().failed());
            }
            if (r.ratioToBaseline() > 0.9 && Double.isFinite(r.ratioToBaseline())) {
                out.printf("note: run %d: the sender reached %.0f%% of the receiver's own capacity: raise --baseline-concurrency to see"
                        + " the sender's limit apart from the receiver's%n", r.run(), r.ratioToBaseline() * 100);
            }
        }
        out.println(goal.text());
    }

    /** The PNG: pushes/s per run (offered, received, the receiver alone) and lateness per run. */
    Chart[] charts() {
        List<String> labels = new ArrayList<>();
        runs.forEach(r -> labels.add("run " + r.run()));
        labels.add("median");
        BarChart rate = new BarChart("pushes/s: offered, received from one sender, and the receiver alone (same latency, same run)",
                "run", "pushes/s", labels)
                .add("offered", perRun(PushRun.Result::offeredPushesPerSecond, medians.offeredPushesPerSecond()))
                .add("sender", perRun(PushRun.Result::pushesPerSecond, medians.pushesPerSecond()))
                .add("receiver alone", perRun(r -> r.baseline().pushesPerSecond(), medians.baselinePushesPerSecond()));
        BarChart lateness = new BarChart("push lateness (arrival at the push service - dueAt)", "run", "ms", labels)
                .add("p50", perRun(r -> r.pushes().latenessP50Ms(), medians.latenessP50Ms()))
                .add("p99", perRun(r -> r.pushes().latenessP99Ms(), medians.latenessP99Ms()))
                .add("max", perRun(r -> r.pushes().latenessMaxMs(), medians.latenessMaxMs()));
        return new Chart[] {rate, lateness};
    }

    private double[] perRun(ToDoubleFunction<PushRun.Result> f, double median) {
        double[] v = new double[runs.size() + 1];
        for (int i = 0; i < runs.size(); i++) {
            v[i] = f.applyAsDouble(runs.get(i));
        }
        v[runs.size()] = median;
        return v;
    }
}
