package io.notify.cli.bench;

import static io.notify.cli.bench.FallbackRun.BASELINE;
import static io.notify.cli.bench.FallbackRun.FALLBACK;

import io.notify.cli.bench.plot.BarChart;
import io.notify.cli.bench.plot.Chart;
import io.notify.cli.bench.report.ResultFiles;
import io.notify.cli.bench.report.Stats;
import java.io.PrintStream;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * What {@code bench fallback} prints and writes as JSON: every run's modes, and the medians
 * over runs (each number on its own): routed events/s without and with fallbacks, and the
 * fallbacks' lateness, drain and cost. Missing and duplicate records are summed, not medians.
 * The quiet and digest modes are {@code rules} ({@link FallbackRulesReport}); a mode that was not
 * run is absent ({@code throughput} without it, {@code fallbacks} or {@code rules} null).
 */
record FallbackReport(String scenario, Instant at, Map<String, Object> machine, Map<String, Object> settings,
                      List<FallbackRun.Result> runs, Map<String, Throughput> throughput, Fallbacks fallbacks,
                      FallbackRulesReport rules, FallbackDevices.Result devices) {

    /** Medians of one mode; {@code ratioToBaseline} is the fallback mode's events/s over the baseline's. */
    record Throughput(double eventsPerSecond, double ratioToBaseline, double routingCpuSeconds) {
    }

    /** Medians of the fallback mode's numbers (see {@link FallbackDrain.Drain} and {@link FallbackRecords.Timing}). */
    record Fallbacks(long missing, long duplicates, long runsNotAllPending, double latenessMinMs, double latenessP50Ms,
                     double latenessP99Ms, double latenessMaxMs, double sequencingSeconds, double dueSpanSeconds,
                     double drainSeconds, double drainPerSecond, double peakPending, double pendingCpuPerSecond,
                     double burstCpuSeconds, double pendingRssMiB, double burstRssPeakMiB, double metricP50Ms,
                     double metricP99Ms) {
    }

    /** @param devices the devices phase; null when it was skipped */
    static FallbackReport of(Map<String, Object> settings, List<FallbackRun.Result> runs, FallbackDevices.Result devices) {
        return of(settings, runs, List.of(), devices);
    }

    /**
     * @param rules   the quiet and digest modes' runs (none: {@code rules} null)
     * @param devices the devices phase; null when it was skipped
     */
    static FallbackReport of(Map<String, Object> settings, List<FallbackRun.Result> runs, List<FallbackRules.Result> rules,
                             FallbackDevices.Result devices) {
        Map<String, Throughput> throughput = new LinkedHashMap<>();
        double base = med(mode(runs, BASELINE), FallbackRun.Result::eventsPerSecond);
        for (String mode : List.of(BASELINE, FALLBACK)) {
            List<FallbackRun.Result> of = mode(runs, mode);
            if (of.isEmpty()) {
                continue;
            }
            double rate = med(of, FallbackRun.Result::eventsPerSecond);
            throughput.put(mode, new Throughput(rate, Stats.ratio(rate, base), med(of, FallbackRun.Result::routingCpuSeconds)));
        }
        List<FallbackDrain.Drain> d = mode(runs, FALLBACK).stream().map(FallbackRun.Result::drain).toList();
        Fallbacks f = d.isEmpty() ? null : new Fallbacks(d.stream().mapToLong(x -> x.timing().missing()).sum(),
                d.stream().mapToLong(x -> x.timing().duplicates()).sum(),
                mode(runs, FALLBACK).stream().filter(FallbackReport::notAllPending).count(),
                medD(d, x -> x.timing().latenessMinMs()), medD(d, x -> x.timing().latenessP50Ms()),
                medD(d, x -> x.timing().latenessP99Ms()), medD(d, x -> x.timing().latenessMaxMs()),
                medD(d, x -> x.timing().sequencingSeconds()), medD(d, x -> x.timing().dueSpanSeconds()),
                medD(d, x -> x.timing().drainSeconds()), medD(d, x -> x.timing().drainPerSecond()),
                medD(d, FallbackDrain.Drain::peakPending), medD(d, FallbackDrain.Drain::pendingCpuPerSecond),
                medD(d, FallbackDrain.Drain::burstCpuSeconds), medD(d, x -> x.pendingRssBytes() / 1048576.0),
                medD(d, x -> x.burstRssPeakBytes() / 1048576.0), medD(d, FallbackDrain.Drain::metricP50Ms),
                medD(d, FallbackDrain.Drain::metricP99Ms));
        return new FallbackReport("fallback", Instant.now(), ResultFiles.machine(), settings, runs, throughput, f,
                FallbackRulesReport.of(rules), devices);
    }

    /** {@code --after} was too short: some fallback was due before the last event was sequenced. */
    private static boolean notAllPending(FallbackRun.Result r) {
        return !r.drain().timing().allPendingAtOnce() || r.drain().peakPending() < r.events();
    }

    private static List<FallbackRun.Result> mode(List<FallbackRun.Result> runs, String mode) {
        return runs.stream().filter(r -> r.mode().equals(mode)).toList();
    }

    private static double med(List<FallbackRun.Result> runs, ToDoubleFunction<FallbackRun.Result> f) {
        return Stats.median(runs.stream().map(f::applyAsDouble).toList());
    }

    private static double medD(List<FallbackDrain.Drain> drains, ToDoubleFunction<FallbackDrain.Drain> f) {
        return Stats.median(drains.stream().map(f::applyAsDouble).toList());
    }

    void print(PrintStream out) {
        if (!runs.isEmpty()) {
            printRuns(out);
        }
        if (rules != null) {
            rules.print(out);
        }
        out.printf("settings: %,d pending to %,d users, after %s, check interval %s, max-per-run %s/task, commit interval %s,"
                + " %s; load average %.2f at start, %.2f at end%n", settings.get("pending"), settings.get("users"),
                settings.get("after"), settings.get("checkInterval"), settings.get("maxPerRunPerTask"),
                settings.get("commitInterval"), settings.get("guarantee"), settings.get("loadAverageAtStart"),
                machine.get("loadAverageAtEnd"));
        if (devices != null) {
            FallbackDevices.Result v = devices;
            out.printf("%ndevices: %,d (half WebSocket, half SSE), %d events each with fallback after %s, their gateway killed"
                    + " (SIGKILL) with %.0f ack frames counted and its receipt batch unflushed:%n", v.devices(), v.perDevice(),
                    v.after(), v.acksBeforeKill());
            out.printf("  fallbacks for events a device received: %d of %,d (goal 0); for users with no device: %,d of %,d;"
                    + " duplicates %d; %.1f s from publishing to the last%n", v.firedForReceived(), v.receivedEvents(),
                    v.firedForOffline(), v.offlineEvents(), v.duplicates(), v.secondsToAllFallbacks());
        }
    }

    /** The baseline and fallback modes. */
    private void printRuns(PrintStream out) {
        out.printf("%n%-9s %12s %7s %14s%n", "mode", "routed ev/s", "x base", "CPU s routing");
        throughput.forEach((mode, t) -> out.printf("%-9s %,12.0f %7.3f %14.2f%n", mode, t.eventsPerSecond(),
                t.ratioToBaseline(), t.routingCpuSeconds()));
        if (fallbacks == null) {
            return;
        }
        out.printf("%n%-7s %8s %7s %4s %9s %8s %8s %6s %7s %7s %11s %12s %8s %8s %8s%n", "run", "records", "missing", "dup",
                "late p50", "p99", "max ms", "seq s", "drain s", "due s", "drain rec/s", "peak pending", "idle c/s",
                "burst c", "RSS MiB");
        for (FallbackRun.Result r : mode(runs, FALLBACK)) {
            FallbackDrain.Drain d = r.drain();
            FallbackRecords.Timing t = d.timing();
            out.printf("%-7s %,8d %7d %4d %9.0f %8.0f %8.0f %6.1f %7.1f %7.1f %,11.0f %,12d %8.2f %8.2f %8.0f%n",
                    "run " + r.run(), t.records(), t.missing(), t.duplicates(), t.latenessP50Ms(), t.latenessP99Ms(),
                    t.latenessMaxMs(), t.sequencingSeconds(), t.drainSeconds(), t.dueSpanSeconds(), t.drainPerSecond(),
                    d.peakPending(), d.pendingCpuPerSecond(), d.burstCpuSeconds(), d.burstRssPeakBytes() / 1048576.0);
        }
        Fallbacks f = fallbacks;
        out.printf("%-7s %8s %7d %4d %9.0f %8.0f %8.0f %6.1f %7.1f %7.1f %,11.0f %,12.0f %8.2f %8.2f %8.0f%n", "median", "",
                f.missing(), f.duplicates(), f.latenessP50Ms(), f.latenessP99Ms(), f.latenessMaxMs(), f.sequencingSeconds(),
                f.drainSeconds(), f.dueSpanSeconds(), f.drainPerSecond(), f.peakPending(), f.pendingCpuPerSecond(),
                f.burstCpuSeconds(), f.burstRssPeakMiB());
        out.printf("%d run(s), medians; missing/dup summed. lateness = at - dueAt of each record; drain = first due time to"
                + " the last record; due s = first to last due time; idle c/s = CPU s per s while all were pending;"
                + " burst c = CPU s deciding them%n", runCount());
        out.printf("the app's notify_fanout_fallback_lateness_seconds, interpolated in its buckets: p50 %.0f ms, p99 %.0f ms;"
                + " RSS %.0f MiB with all pending (medians)%n", f.metricP50Ms(), f.metricP99Ms(), f.pendingRssMiB());
        for (FallbackRun.Result r : mode(runs, FALLBACK)) {
            FallbackDrain.Drain d = r.drain();
            if (notAllPending(r)) {
                out.printf("note: run %d: not all %,d fallbacks were pending at once (peak %,d; sequencing took %.1f s,"
                        + " after is %s): raise --after%n", r.run(), r.events(), d.peakPending(), d.timing().sequencingSeconds(),
                        settings.get("after"));
            }
            if (d.timing().missing() > 0 || d.timing().duplicates() > 0 || d.timing().latenessMinMs() < 0) {
                out.printf("note: run %d: %d missing, %d duplicate fallback records, least lateness %.0f ms; outcomes %s%n",
                        r.run(), d.timing().missing(), d.timing().duplicates(), d.timing().latenessMinMs(), d.outcomes());
            }
        }
    }

    /** The PNG: routed events/s per run without and with fallbacks; the fallbacks' lateness per run; the quiet and digest modes'. */
    Chart[] charts() {
        int n = runCount();
        List<String> labels = new ArrayList<>();
        for (int r = 1; r <= n; r++) {
            labels.add("run " + r);
        }
        labels.add("median");
        BarChart rate = new BarChart("routed events/s, events without and with an offline fallback (" + FallbackRun.GUARANTEE + ")",
                "run", "events/s", labels);
        for (String mode : throughput.keySet()) {
            rate.add(mode, perRun(mode, FallbackRun.Result::eventsPerSecond, throughput.get(mode).eventsPerSecond()));
        }
        List<Chart> charts = new ArrayList<>();
        if (!throughput.isEmpty()) {
            charts.add(rate);
        }
        if (fallbacks != null) {
            charts.add(new BarChart("fallback lateness (at - dueAt)", "run", "ms", labels)
                    .add("p50", perRun(FALLBACK, r -> r.drain().timing().latenessP50Ms(), fallbacks.latenessP50Ms()))
                    .add("p99", perRun(FALLBACK, r -> r.drain().timing().latenessP99Ms(), fallbacks.latenessP99Ms()))
                    .add("max", perRun(FALLBACK, r -> r.drain().timing().latenessMaxMs(), fallbacks.latenessMaxMs())));
        }
        if (rules != null) {
            charts.addAll(rules.charts());
        }
        return charts.toArray(Chart[]::new);
    }

    /** One value per run of {@code mode} (NaN where a run has none), then {@code median}. */
    private double[] perRun(String mode, ToDoubleFunction<FallbackRun.Result> f, double median) {
        int n = runCount();
        double[] v = new double[n + 1];
        for (int r = 1; r <= n; r++) {
            int run = r;
            v[r - 1] = runs.stream().filter(x -> x.mode().equals(mode) && x.run() == run).mapToDouble(f).findFirst()
                    .orElse(Double.NaN);
        }
        v[n] = median;
        return v;
    }

    private int runCount() {
        return (int) runs.stream().mapToInt(FallbackRun.Result::run).distinct().count();
    }
}
