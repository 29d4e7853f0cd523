package io.notify.common.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.kafka.FilteredKafkaMetrics;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.junit.jupiter.api.Test;

class FilteredKafkaMetricsTest {

    /** A Kafka metric with a fixed value, or one that must never be read. */
    private record FixedMetric(MetricName metricName, Double value) implements Metric {
        @Override
        public Object metricValue() {
            if (value == null) {
                throw new AssertionError(metricName + " was read: a closing store's gauge would have crashed the JVM");
            }
            return value;
        }
    }

    @Test
    void aRefusedMetricIsNeverReadNorBoundAndTheOthersAre() {
        MetricName lag = new MetricName("records-lag-max", "consumer-fetch-manager-metrics", "", Map.of("client-id", "c"));
        MetricName store = new MetricName("num-uncommitted-bytes", "stream-state-metrics", "", Map.of("task-id", "0_0"));
        Map<MetricName, Metric> all = Map.of(lag, new FixedMetric(lag, 7.0), store, new FixedMetric(store, null));
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
        try (FilteredKafkaMetrics binder = new FilteredKafkaMetrics(() -> all, name -> !name.group().equals("stream-state-metrics"),
                Tags.empty(), scheduler, Duration.ofHours(1))) {
            binder.bindTo(registry); // binds at once, reading each metric it is given
            assertNotNull(registry.find("kafka.consumer.fetch.manager.records.lag.max").gauge(), registry.getMetersAsString());
            assertEquals(7.0, registry.find("kafka.consumer.fetch.manager.records.lag.max").gauge().value());
            assertNull(registry.find("kafka.stream.state.num.uncommitted.bytes").gauge());
        } finally {
            scheduler.shutdownNow();
        }
        assertEquals(Map.of(lag, all.get(lag)), FilteredKafkaMetrics.filter(all, name -> name.equals(lag)));
    }
}
