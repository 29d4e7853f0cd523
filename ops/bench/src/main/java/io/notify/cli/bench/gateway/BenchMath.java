package io.notify.cli.bench.gateway;

import io.notify.cli.bench.LatencySummary;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.HdrHistogram.Histogram;

/** The arithmetic of the gateway benchmarks: per-connection costs, rates, percentiles, merges. Pure. */
final class BenchMath {

    /** One storm round, all agents merged. Seconds are from the common start instant. */
    record StormRound(int clients, int resumed, double secondsToLast, double secondsTo99, double resumesPerSecond,
                      double resumesPerSecondTo99, long attempts, long rejected, Map<String, Long> failures,
                      long received, long expected, long lost, long duplicates, long outOfOrder, long beyond,
                      long otherEpoch, long resets, long dropped, LatencySummary resumeLatencyMs,
                      LatencySummary welcomeLatencyMs) {

        boolean correct() {
            return resumed == clients && lost == 0 && duplicates == 0 && outOfOrder == 0 && otherEpoch == 0
                    && resets == 0 && beyond == 0;
        }
    }

    /** A ramp, all agents merged. */
    record Ramp(int clients, int established, long attempts, long rejected, Map<String, Long> failures,
                double seconds, double connectionsPerSecond, long dropped, LatencySummary handshakeMs) {
    }

    private BenchMath() {
    }

    /** Bytes per connection between two samples: (after - before) / (connections after - connections before). */
    static double perConnection(long before, long after, long connectionsBefore, long connectionsAfter) {
        long n = connectionsAfter - connectionsBefore;
        return n <= 0 ? Double.NaN : (double) (after - before) / n;
    }

    /** The smallest value at or above which {@code fraction} of {@code population} lie; NaN when too few values. */
    static double quantileOfPopulation(long[] values, int population, double fraction) {
        int k = (int) Math.ceil(fraction * population);
        if (k <= 0 || values.length < k) {
            return Double.NaN;
        }
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[k - 1];
    }

    static long[] concat(List<long[]> parts) {
        long[] out = new long[parts.stream().mapToInt(a -> a.length).sum()];
        int i = 0;
        for (long[] p : parts) {
            System.arraycopy(p, 0, out, i, p.length);
            i += p.length;
        }
        return out;
    }

    static LatencySummary latency(long[] micros) {
        Histogram h = LatencySummary.newHistogram();
        for (long v : micros) {
            h.recordValue(Math.max(1, Math.min(v, h.getHighestTrackableValue())));
        }
        return LatencySummary.of(h);
    }

    static Map<String, Long> mergeFailures(List<PhaseReport> reports) {
        Map<String, Long> out = new TreeMap<>();
        reports.forEach(r -> r.failures().forEach((k, v) -> out.merge(k, v, Long::sum)));
        return out;
    }

    static StormRound storm(List<PhaseReport> reports, int replayPerClient) {
        int clients = reports.stream().mapToInt(PhaseReport::clients).sum();
        long[] done = concat(reports.stream().map(PhaseReport::doneMicros).toList());
        int resumed = done.length;
        double last = resumed == 0 ? Double.NaN : Arrays.stream(done).max().orElse(0) / 1e6;
        double t99 = quantileOfPopulation(done, clients, 0.99) / 1e6;
        int n99 = (int) Math.ceil(0.99 * clients);
        return new StormRound(clients, resumed, last, t99, rate(resumed, last), rate(n99, t99),
                sum(reports, PhaseReport::attempts), sum(reports, PhaseReport::rejected), mergeFailures(reports),
                sum(reports, PhaseReport::received), (long) clients * replayPerClient, sum(reports, PhaseReport::lost),
                sum(reports, PhaseReport::duplicates), sum(reports, PhaseReport::outOfOrder), sum(reports, PhaseReport::beyond),
                sum(reports, PhaseReport::otherEpoch), sum(reports, PhaseReport::resets), sum(reports, PhaseReport::dropped),
                latency(concat(reports.stream().map(PhaseReport::resumeMicros).toList())),
                latency(concat(reports.stream().map(PhaseReport::welcomeMicros).toList())));
    }

    static Ramp ramp(List<PhaseReport> reports) {
        int clients = reports.stream().mapToInt(PhaseReport::clients).sum();
        long[] done = concat(reports.stream().map(PhaseReport::doneMicros).toList());
        double seconds = done.length == 0 ? Double.NaN : Arrays.stream(done).max().orElse(0) / 1e6;
        return new Ramp(clients, done.length, sum(reports, PhaseReport::attempts), sum(reports, PhaseReport::rejected),
                mergeFailures(reports), seconds, rate(done.length, seconds), sum(reports, PhaseReport::dropped),
                latency(concat(reports.stream().map(PhaseReport::resumeMicros).toList())));
    }

    static double rate(long count, double seconds) {
        return seconds > 0 && !Double.isNaN(seconds) ? count / seconds : Double.NaN;
    }

    static double median(List<Double> values) {
        return io.notify.cli.bench.report.Stats.median(values);
    }

    private static long sum(List<PhaseReport> reports, java.util.function.ToLongFunction<PhaseReport> f) {
        return reports.stream().mapToLong(f).sum();
    }
}
