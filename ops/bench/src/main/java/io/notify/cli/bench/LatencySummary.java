package io.notify.cli.bench;

import org.HdrHistogram.Histogram;

/** Latency percentiles in milliseconds, taken from an HdrHistogram recorded in microseconds. */
public record LatencySummary(double p50, double p95, double p99, double max, long count) {

    public static Histogram newHistogram() {
        return new Histogram(60_000_000L, 3);
    }

    /** A latency in microseconds clamped into the histogram's range (1 µs .. 60 s). */
    public static long clampMicros(long micros) {
        return Math.max(1, Math.min(micros, 60_000_000L));
    }

    public static LatencySummary of(Histogram microseconds) {
        return new LatencySummary(
                microseconds.getValueAtPercentile(50) / 1000.0,
                microseconds.getValueAtPercentile(95) / 1000.0,
                microseconds.getValueAtPercentile(99) / 1000.0,
                microseconds.getMaxValue() / 1000.0,
                microseconds.getTotalCount());
    }
}
