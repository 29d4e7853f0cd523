package io.notify.common.metrics;

import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmHeapPressureMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one way a Notify service makes the registry it serves on {@code /metrics}: Prometheus, with
 * {@link LatencyHistograms} on every {@code notify.*} timer and the JVM's own meters bound
 * ({@code jvm_memory_*}, {@code jvm_gc_*} including {@code jvm_gc_overhead} and
 * {@code jvm_memory_usage_after_gc}, {@code jvm_threads_*}, {@code jvm_classes_*},
 * {@code process_cpu_usage}, {@code system_cpu_*}, {@code process_uptime_seconds}), and
 * {@link KafkaSeries} keeping the Kafka clients' meters to what an operator reads. Closing the
 * registry closes the binders that hold GC listeners. Each service binds its own Kafka clients
 * (Micrometer's {@code KafkaClientMetrics} / {@code KafkaStreamsMetrics}) next to where it makes them.
 */
public final class ServiceMeters {

    private static final Logger LOG = LoggerFactory.getLogger(ServiceMeters.class);

    private ServiceMeters() {
    }

    /** A registry with the histogram filter and the JVM binders; {@link PrometheusMeterRegistry#close()} unbinds them. */
    public static PrometheusMeterRegistry create() {
        JvmGcMetrics gc = new JvmGcMetrics();
        JvmHeapPressureMetrics heapPressure = new JvmHeapPressureMetrics();
        List<AutoCloseable> closeables = List.of(gc, heapPressure);
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT) {
            @Override
            public void close() {
                closeables.forEach(ServiceMeters::closeQuietly);
                super.close();
            }
        };
        // before any meter is registered: a filter added later does not apply to existing meters
        registry.config().meterFilter(new LatencyHistograms()).meterFilter(new KafkaSeries());
        List<MeterBinder> binders = List.of(new JvmMemoryMetrics(), gc, heapPressure, new JvmThreadMetrics(),
                new ClassLoaderMetrics(), new ProcessorMetrics(), new UptimeMetrics());
        binders.forEach(b -> b.bindTo(registry));
        return registry;
    }

    private static void closeQuietly(AutoCloseable c) {
        try {
            c.close();
        } catch (Exception e) {
            LOG.warn("closing {} failed", c, e);
        }
    }
}
