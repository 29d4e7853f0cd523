package io.notify.common.metrics;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.core.instrument.distribution.DistributionStatisticConfig;
import java.time.Duration;
import java.util.Map;

/**
 * Gives every Notify timer ({@code notify.*}) Prometheus histogram buckets, so dashboards and alerts
 * take percentiles across nodes with {@code histogram_quantile} instead of averaging per-node
 * quantiles. A timer that asks for a histogram itself keeps its own range; the others get the range
 * below ({@link #DEFAULT} where not listed). (Micrometer's timer builder always sets a range, 1 ms to
 * 30 s, so whether a timer asked is told by its histogram flag, not by its range.)
 *
 * <p>Cost: Micrometer's fixed-boundary buckets are an array of counters found by binary search, so
 * recording allocates nothing (the gateway's per-frame timers already had them); each timer series
 * gains one {@code _bucket} series per bucket of its range: 69 for each range below and for
 * {@link #DEFAULT} (Micrometer's fixed bucket set, clipped to the range; counted in docs/observability.md).
 */
public final class LatencyHistograms implements MeterFilter {

    /** The expected range of a latency: values outside it fall into the first or the {@code +Inf} bucket. */
    public record Range(Duration min, Duration max) {
        public Range {
            if (min.isNegative() || min.isZero() || max.compareTo(min) <= 0) {
                throw new IllegalArgumentException("a latency range needs 0 < min < max, got " + min + ".." + max);
            }
        }
    }

    /** Requests and hand-offs measured in milliseconds: Kafka acks, query API round trips. */
    public static final Range DEFAULT = new Range(Duration.ofMillis(1), Duration.ofSeconds(30));

    /** Timers whose values sit outside {@link #DEFAULT}: Redis round trips and local query API answers are sub-millisecond. */
    static final Map<String, Range> RANGES = Map.of(
            "notify.registry.lookup.redis.latency", new Range(Duration.ofNanos(100_000), Duration.ofSeconds(10)),
            "notify.registry.renew.latency", new Range(Duration.ofNanos(100_000), Duration.ofSeconds(10)),
            "notify.fanout.query.requests", new Range(Duration.ofNanos(100_000), Duration.ofSeconds(30)));

    @Override
    public DistributionStatisticConfig configure(Meter.Id id, DistributionStatisticConfig config) {
        if (id.getType() != Meter.Type.TIMER || !id.getName().startsWith("notify.")
                || Boolean.TRUE.equals(config.isPercentileHistogram())) {
            return config;
        }
        Range range = RANGES.getOrDefault(id.getName(), DEFAULT);
        return DistributionStatisticConfig.builder() // ours wins over the builder's default range; the rest is the timer's
                .percentilesHistogram(true)
                .minimumExpectedValue((double) range.min().toNanos())
                .maximumExpectedValue((double) range.max().toNanos())
                .build()
                .merge(config);
    }
}
