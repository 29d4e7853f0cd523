package io.notify.common.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Timer;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The registry every service serves: JVM meters, histogram buckets on Notify's timers, the Kafka series kept. */
class ServiceMetersTest {

    private final PrometheusMeterRegistry registry = ServiceMeters.create();

    @AfterEach
    void close() {
        registry.close();
    }

    private static long buckets(String scrape, String name) {
        return scrape.lines().filter(l -> l.startsWith(name + "_bucket{")).count();
    }

    @Test
    void notifyTimersGetBucketsInTheirRangeAndOthersDoNot() {
        Timer.builder("notify.test.latency").register(registry).record(Duration.ofMillis(5));
        Timer.builder("notify.registry.lookup.redis.latency").register(registry).record(Duration.ofNanos(300_000));
        Timer.builder("notify.test.own").publishPercentileHistogram().minimumExpectedValue(Duration.ofMillis(100))
                .maximumExpectedValue(Duration.ofSeconds(1)).register(registry).record(Duration.ofMillis(200));
        Timer.builder("notify.test.own.default").publishPercentileHistogram().register(registry).record(Duration.ofMillis(200));
        Timer.builder("other.latency").register(registry).record(Duration.ofMillis(5));
        String scrape = registry.scrape();
        assertEquals(69, buckets(scrape, "notify_test_latency_seconds"), "1 ms..30 s, +Inf included");
        assertTrue(scrape.contains("notify_test_latency_seconds_bucket{le=\"0.001\"} 0"), "the range starts at 1 ms");
        assertTrue(scrape.contains("notify_test_latency_seconds_bucket{le=\"30.0\"} 1"), "and ends at 30 s");
        assertTrue(scrape.contains("notify_registry_lookup_redis_latency_seconds_bucket{le=\"1.0E-4\"} 0"),
                "Redis reads start at 100 µs");
        assertTrue(buckets(scrape, "notify_test_own_seconds") < 20, "a timer's own range is kept");
        assertTrue(scrape.contains("notify_test_own_default_seconds_bucket{le=\"0.001\"} 0"),
                "a timer that asked for a histogram keeps Micrometer's range");
        assertEquals(0, buckets(scrape, "other_latency_seconds"), "only notify.* timers");
    }

    @Test
    void theJvmIsMeasured() {
        String scrape = registry.scrape();
        for (String name : new String[]{"jvm_memory_used_bytes{area=\"heap\"", "jvm_gc_overhead", "jvm_threads_live_threads",
                "jvm_classes_loaded_classes", "process_cpu_usage", "process_uptime_seconds", "jvm_memory_usage_after_gc"}) {
            assertTrue(scrape.contains(name), name + " in\n" + scrape);
        }
    }

    @Test
    void kafkaSeriesKeepLagOnceAndDropStoreMeters() {
        Gauge.builder("kafka.consumer.fetch.manager.records.lag", () -> 7).tag("topic", "p.notify.events").tag("partition", "0")
                .register(registry);
        Gauge.builder("kafka.consumer.fetch.manager.records.lag", () -> 7).tag("topic", "p_notify_events").tag("partition", "0")
                .register(registry);
        Gauge.builder("kafka.stream.state.put.rate", () -> 1).tag("task.id", "0_0").register(registry);
        Gauge.builder("kafka.stream.thread.process.rate", () -> 1).register(registry);
        assertNotNull(registry.find("kafka.consumer.fetch.manager.records.lag").tag("topic", "p.notify.events").gauge());
        assertNull(registry.find("kafka.consumer.fetch.manager.records.lag").tag("topic", "p_notify_events").gauge(),
                "Kafka's deprecated copy with underscores");
        assertNull(registry.find("kafka.stream.state.put.rate").gauge(), "per-store meters stay in JMX");
        assertNotNull(registry.find("kafka.stream.thread.process.rate").gauge());
    }

    @Test
    void closingTheRegistryClosesIt() {
        registry.close();
        assertTrue(registry.isClosed());
        assertFalse(registry.scrape().isEmpty(), "what was measured can still be read");
    }
}
