package io.notify.cli.bench;

import org.HdrHistogram.Histogram;

/** Latency percentiles in milliseconds, taken from an HdrHistogram recorded in microseconds. */
public record LatencySummary(double p50, double p95, double p99, double max, long count) {

    public static Histogram newHistogram() {
        return new Histogram(60_000_000L, 3);
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
