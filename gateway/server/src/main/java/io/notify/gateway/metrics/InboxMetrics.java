package io.notify.gateway.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.TimeUnit;

/**
 * The meters of the end-user inbox (docs/gateway.md, "Inbox API" and "Receipts"), part of
 * {@link GatewayMetrics} ({@link GatewayMetrics#inbox()}) and counted in its registry, so
 * {@link GatewayMetrics#count} reads them too. Prometheus names:
 * {@code notify_gateway_inbox_requests_total{endpoint,outcome}} (every inbox request once, by how it
 * was answered), {@code notify_gateway_inbox_latency_seconds{endpoint}} (histogram: request to
 * answer), {@code notify_gateway_receipts_total{kind,outcome}} (receipts written to
 * {@code notify.receipts}: {@code produced}, {@code failed}, or for acks {@code dropped} when the
 * pending bound is full), {@code notify_gateway_acks_coalesced_total} (acks folded into a pending
 * receipt of the same device and stream), {@code notify_gateway_state_frames_total} (state frames
 * handed to connections) and the gauge {@code notify_gateway_receipts_pending}. Never blocks; safe
 * from any thread.
 */
public final class InboxMetrics {

    private final GatewayMetrics parent;
    private final ConcurrentMap<String, Timer> latency = new ConcurrentHashMap<>();
    private final Counter coalesced;
    private final Counter stateFrames;

    InboxMetrics(GatewayMetrics parent) {
        this.parent = parent;
        this.coalesced = parent.counter("notify.gateway.acks.coalesced",
                "Client acks folded into a pending receipt of the same device and stream");
        this.stateFrames = parent.counter("notify.gateway.state.frames", "State frames handed to client connections");
    }

    /**
     * One inbox request answered. endpoint: {@code inbox}, {@code unread}, {@code read}, {@code seen},
     * {@code archive}, {@code preflight}; outcome: {@code ok} or the refusal ({@code bad_request},
     * {@code unauthorized}, {@code origin}, {@code unsupported_media_type}, {@code body_too_large},
     * {@code method_not_allowed}, {@code rate_limited}, {@code unavailable}).
     */
    public void request(String endpoint, String outcome, long startNanos) {
        parent.counter("notify.gateway.inbox.requests", "Inbox API requests, by endpoint and outcome",
                "endpoint", endpoint, "outcome", outcome).increment();
        latency.computeIfAbsent(endpoint, e -> Timer.builder("notify.gateway.inbox.latency")
                        .description("Inbox API requests, from the request to its answer")
                        .tag("endpoint", e)
                        .publishPercentileHistogram()
                        .minimumExpectedValue(Duration.ofMillis(1))
                        .maximumExpectedValue(Duration.ofSeconds(30))
                        .register(parent.registry()))
                .record(Math.max(0, System.nanoTime() - startNanos), TimeUnit.NANOSECONDS);
    }

    /** A receipt written to {@code notify.receipts} (or not); kind: its wire name; outcome: produced, failed, dropped. */
    public void receipt(String kind, String outcome, int n) {
        if (n > 0) {
            parent.counter("notify.gateway.receipts", "Receipts written to notify.receipts, by kind and outcome",
                    "kind", kind, "outcome", outcome).increment(n);
        }
    }

    /** An ack replaced (or was folded into) the pending receipt of its device and stream. */
    public void ackCoalesced() {
        coalesced.increment();
    }

    /** {@code n} state frames handed to connections (one delivery message's fan-out, counted once). */
    public void stateFrames(int n) {
        if (n > 0) {
            stateFrames.increment(n);
        }
    }
}
