package io.notify.cli.bench;

import io.notify.cli.bench.plot.BarChart;
import io.notify.cli.bench.plot.Chart;
import io.notify.cli.bench.report.ResultFiles;
import java.io.PrintStream;
import java.time.Instant;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * What {@code bench fanout} prints and writes as JSON: every run, and per mode the median of each
 * number over the runs (each column on its own), with routed events/s as a ratio to the median
 * of the baseline relay measured in the same invocation.
 */
record FanoutReport(String scenario, Instant at, Map<String, Object> machine, Map<String, Object> settings,
                    List<LoadResult> baselineRuns, List<FanoutRouteRun.Result> runs, Map<String, Summary> medians) {

    /** Medians of one mode (a guarantee, or the baseline, which has only the first two numbers). */
    record Summary(double eventsPerSecond, double ratioToBaseline, double steadyEventsPerSecond,
                   double steadyRedisReadsPerEvent,
                   double redisReadsPerEvent, double steadyRedisCommandsPerEvent, double cacheHitRatio,
                   double queryReadsPerSecond, double queryP50Ms, double queryP99Ms, long queryFailures,
                   double routingsPerSecond, double stateMiB, double invalidationsPerRouting) {
    }

    static FanoutReport of(Map<String, Object> settings, List<LoadResult> baseline, List<FanoutRouteRun.Result> runs) {
        double base = median(baseline.stream().map(LoadResult::eventsPerSecond).toList());
        Map<String, Summary> medians = new LinkedHashMap<>();
        medians.put("baseline-relay", new Summary(base, 1, base, 0, 0, 0, 0, 0, 0, 0, 0, base, 0, 0));
        for (String g : runs.stream().map(FanoutRouteRun.Result::guarantee).distinct().toList()) {
            List<FanoutRouteRun.Result> of = runs.stream().filter(r -> r.guarantee().equals(g)).toList();
            double rate = med(of, FanoutRouteRun.Result::eventsPerSecond);
            medians.put(g, new Summary(rate, base == 0 ? 0 : Math.round(rate / base * 1000) / 1000.0,
                    med(of, FanoutRouteRun.Result::steadyEventsPerSecond),
                    med(of, FanoutRouteRun.Result::steadyRedisReadsPerEvent), med(of, FanoutRouteRun.Result::redisReadsPerEvent),
                    med(of, FanoutRouteRun.Result::steadyRedisCommandsPerEvent), med(of, FanoutRouteRun.Result::cacheHitRatio),
                    med(of, r -> r.query().eventsPerSecond()), med(of, r -> r.query().latency().p50()),
                    med(of, r -> r.query().latency().p99()), of.stream().mapToLong(r -> r.query().failures()).sum(),
                    med(of, FanoutRouteRun.Result::routingsPerSecond), med(of, r -> r.stateBytes() / 1048576.0),
                    med(of, FanoutRouteRun.Result::invalidationsPerRouting)));
        }
        return new FanoutReport("fanout", Instant.now(), ResultFiles.machine(), settings, baseline, runs, medians);
    }

    private static double med(List<FanoutRouteRun.Result> runs, ToDoubleFunction<FanoutRouteRun.Result> f) {
        return median(runs.stream().map(f::applyAsDouble).toList());
    }

    /** The median (mean of the middle two for an even count); 0 for none. */
    static double median(List<Double> values) {
        List<Double> sorted = values.stream().sorted(Comparator.naturalOrder()).toList();
        int n = sorted.size();
        return n == 0 ? 0 : n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }

    void print(PrintStream out) {
        out.printf("%n%-16s %12s %7s %12s %12s %14s %15s %9s %13s %8s %8s%n", "mode", "routed ev/s", "x base",
                "recipients/s", "ev/s steady", "redis rd/rc st", "redis cmd/rc st", "cache hit", "query reads/s", "q p50ms",
                "q p99ms");
        for (var e : medians.entrySet()) {
            Summary s = e.getValue();
            if (e.getKey().equals("baseline-relay")) {
                out.printf("%-16s %,12.0f %7.3f %12s %12s %14s %15s %9s %13s %8s %8s%n", e.getKey(), s.eventsPerSecond(),
                        s.ratioToBaseline(), "-", "-", "-", "-", "-", "-", "-", "-");
            } else {
                out.printf("%-16s %,12.0f %7.3f %,12.0f %,12.0f %14.4f %15.4f %9.4f %,13.0f %8.2f %8.2f%n", e.getKey(),
                        s.eventsPerSecond(), s.ratioToBaseline(), s.routingsPerSecond(), s.steadyEventsPerSecond(),
                        s.steadyRedisReadsPerEvent(),
                        s.steadyRedisCommandsPerEvent(), s.cacheHitRatio(), s.queryReadsPerSecond(), s.queryP50Ms(),
                        s.queryP99Ms());
            }
        }
        out.printf("medians of %d run(s); 'steady'/'st' = 2nd half of the backlog; rc = routed recipient; redis rd = the"
                + " router's reads by its own meter (1-2 round trips each), cmd = ZRANGE+MGET counted by Redis (goal: <= 0.1 per event)%n",
                baselineRuns.size());
        for (var e : medians.entrySet()) {
            if (!e.getKey().equals("baseline-relay")) {
                out.printf("%s: state %.1f MiB in changelog topics after the run; %.4f cache invalidations per routed recipient"
                        + " (medians)%n", e.getKey(), e.getValue().stateMiB(), e.getValue().invalidationsPerRouting());
            }
        }
        for (FanoutRouteRun.Result r : runs) {
            long undelivered = r.undelivered().values().stream().mapToLong(Long::longValue).sum();
            if (undelivered > 0 || r.query().failures() > 0) {
                out.printf("note: run %d %s: undelivered %s, query failures %d%n", r.run(), r.guarantee(),
                        r.undelivered(), r.query().failures());
            }
        }
    }

    /** The PNG: events/s of every run and the median, per mode (the relay, then each guarantee), log scale. */
    Chart chart() {
        List<String> modes = List.copyOf(medians.keySet());
        BarChart chart = new BarChart("fanout-streams routed events/s per guarantee vs a raw Kafka relay",
                "mode", "events/s", modes).logY();
        for (int run = 1; run <= baselineRuns.size(); run++) {
            double[] values = new double[modes.size()];
            values[0] = baselineRuns.get(run - 1).eventsPerSecond();
            for (int m = 1; m < modes.size(); m++) {
                String g = modes.get(m);
                int r = run;
                values[m] = runs.stream().filter(x -> x.guarantee().equals(g) && x.run() == r)
                        .mapToDouble(FanoutRouteRun.Result::eventsPerSecond).findFirst().orElse(Double.NaN);
            }
            chart.add("run " + run, values);
        }
        return chart.add("median", modes.stream().mapToDouble(m -> medians.get(m).eventsPerSecond()).toArray());
    }
}
