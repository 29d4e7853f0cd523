package io.notify.ingest.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.function.Supplier;

/**
 * The ingest service's meters. Prometheus names: {@code notify_ingest_requests_total{status}},
 * {@code notify_ingest_events_accepted_total}, {@code notify_ingest_events_rejected_total{reason}},
 * {@code notify_ingest_events_duplicate_total}, {@code notify_ingest_produce_latency_seconds}
 * (histogram), {@code notify_ingest_inflight}, {@code notify_ingest_inflight_limit},
 * {@code notify_ingest_dedup_entries}.
 */
public final class IngestMetrics {

    private final MeterRegistry registry;
    private final ConcurrentMap<Integer, Counter> requestsByStatus = new ConcurrentHashMap<>();
    private final ConcurrentMap<String, Counter> rejectedByReason = new ConcurrentHashMap<>();
    private final Counter accepted;
    private final Counter duplicates;
    private final Timer produceLatency;

    public IngestMetrics(MeterRegistry registry) {
        this.registry = registry;
        this.accepted = Counter.builder("notify.ingest.events.accepted")
                .description("Events Kafka acknowledged (acks=all) and answered 202").register(registry);
        this.duplicates = Counter.builder("notify.ingest.events.duplicate")
                .description("Events answered from the idempotency store without a new Kafka record").register(registry);
        this.produceLatency = Timer.builder("notify.ingest.produce.latency")
                .description("Time from handing an event to the producer to Kafka's acknowledgement")
                .publishPercentileHistogram()
                .minimumExpectedValue(Duration.ofMillis(1))
                .maximumExpectedValue(Duration.ofSeconds(30))
                .register(registry);
    }

    public MeterRegistry registry() {
        return registry;
    }

    public void request(int status) {
        requestsByStatus.computeIfAbsent(status, s -> Counter.builder("notify.ingest.requests")
                .description("HTTP requests answered, by status").tag("status", Integer.toString(s))
                .register(registry)).increment();
    }

    public void accepted() {
        accepted.increment();
    }

    public void duplicate() {
        duplicates.increment();
    }

    /** An event not accepted; reason is a short stable slug (invalid, conflict, overloaded, unavailable, ...). */
    public void rejected(String reason) {
        rejectedByReason.computeIfAbsent(reason, r -> Counter.builder("notify.ingest.events.rejected")
                .description("Events not accepted, by reason").tag("reason", r)
                .register(registry)).increment();
    }

    /** A recall request (docs/protocol.md, "Recall"): {@code accepted}, or the slug of the problem that refused it. */
    public void recall(String outcome) {
        Counter.builder("notify.ingest.recalls").description("Recall requests, by outcome (accepted, or why refused)")
                .tag("outcome", outcome).register(registry).increment();
    }

    public void produceLatency(long nanos) {
        produceLatency.record(Duration.ofNanos(nanos));
    }

    public void gauge(String name, String description, Supplier<Number> value) {
        io.micrometer.core.instrument.Gauge.builder(name, value).description(description).register(registry);
    }
}
