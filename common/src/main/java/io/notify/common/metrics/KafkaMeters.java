package io.notify.common.metrics;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.BiFunction;
import org.slf4j.LoggerFactory;

/**
 * A Kafka client's own meters bound to a service's registry (Micrometer's {@code KafkaClientMetrics}
 * or {@code KafkaStreamsMetrics}, made by the caller, who has the client), with the binder's check
 * for new Kafka metrics every {@link #REFRESH} instead of Micrometer's 60 s: a partition's
 * {@code kafka_consumer_fetch_manager_records_lag} exists only after its first fetch, and an
 * operator (or an alert) should not wait a minute to see it. Close with the client.
 */
public final class KafkaMeters implements AutoCloseable {

    /** How often the binder looks for Kafka metrics that appeared since (new partitions, threads, nodes). */
    public static final Duration REFRESH = Duration.ofSeconds(5);

    private final AutoCloseable binder;
    private final ScheduledExecutorService scheduler;

    private KafkaMeters(AutoCloseable binder, ScheduledExecutorService scheduler) {
        this.binder = binder;
        this.scheduler = scheduler;
    }

    /**
     * Binds the binder {@code factory} makes, given the refresh thread and {@link #REFRESH}, e.g.
     * {@code (refresh, every) -> new KafkaClientMetrics(consumer, Tags.empty(), refresh, every)}.
     */
    public static <B extends MeterBinder & AutoCloseable> KafkaMeters bind(
            MeterRegistry registry, String clientName, BiFunction<ScheduledExecutorService, Duration, B> factory) {
        ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "kafka-meters-" + clientName);
            t.setDaemon(true);
            return t;
        });
        B binder = factory.apply(scheduler, REFRESH);
        binder.bindTo(registry);
        return new KafkaMeters(binder, scheduler);
    }

    /** Removes the client's meters and stops the refresh. */
    @Override
    public void close() {
        try {
            binder.close();
        } catch (Exception e) {
            // the client's own close comes next and must still run: say so, do not throw
            LoggerFactory.getLogger(KafkaMeters.class).warn("closing the Kafka meters failed", e);
        } finally {
            scheduler.shutdownNow();
        }
    }
}
