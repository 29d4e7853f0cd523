package io.micrometer.core.instrument.binder.kafka;

import io.micrometer.core.instrument.Tag;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;

/**
 * Micrometer's Kafka binder over a filtered view of a client's metrics: the metrics {@code keep}
 * refuses are never seen by the binder, which otherwise reads every metric's value on each refresh
 * to decide whether it is numeric. In this package because Micrometer's {@code KafkaMetrics} (what
 * {@code KafkaClientMetrics} and {@code KafkaStreamsMetrics} are) offers its supplier constructor
 * to its own package only; Notify runs on the class path, where a package may span jars.
 *
 * <p>Why (fanout-streams): reading the per-store gauge {@code num-uncommitted-bytes} of a
 * transactional RocksDB store (KIP-892) while the store is closing — at a rebalance or at shutdown —
 * calls into a freed RocksDB write batch and crashed the JVM (SIGSEGV in
 * {@code WriteBatch.getDataSize}, seen in {@code mvn verify}).
 */
public final class FilteredKafkaMetrics extends KafkaMetrics {

    public FilteredKafkaMetrics(Supplier<Map<MetricName, ? extends Metric>> metrics, Predicate<MetricName> keep,
                                Iterable<Tag> tags, ScheduledExecutorService scheduler, Duration refresh) {
        super(() -> filter(metrics.get(), keep), tags, scheduler, refresh);
    }

    /** The metrics of {@code all} that {@code keep} accepts. */
    public static Map<MetricName, ? extends Metric> filter(Map<MetricName, ? extends Metric> all, Predicate<MetricName> keep) {
        return all.entrySet().stream().filter(e -> keep.test(e.getKey()))
                .collect(Collectors.toUnmodifiableMap(Map.Entry::getKey, Map.Entry::getValue));
    }
}
