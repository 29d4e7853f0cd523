package io.notify.gateway.metrics;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.notify.schemas.trace.HopTrace;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The latency meters of live events: {@code delivery_latency_seconds} (ingestedAt → written to the
 * socket) and {@code hop_latency_seconds{hop}}, one histogram per pipeline hop from the event's trace
 * headers ({@link HopStamps}), registered at a hop's first record (a hop never seen has no series).
 * Never blocks; safe from any thread.
 */
final class HopLatency {

    /** The hops of {@code hop_latency_seconds{hop}}, in pipeline order; the last two end when the frame is written. */
    private static final String[] HOPS = {"ingest", "events_topic", "repartition", "route", "node_topic", "dispatch", "total"};
    private static final int DISPATCH = 5;
    private static final int TOTAL = 6;

    private final MeterRegistry registry;
    private final AtomicReferenceArray<Timer> hopTimers = new AtomicReferenceArray<>(HOPS.length);
    private final Timer deliveryLatency;

    HopLatency(MeterRegistry registry) {
        this.registry = registry;
        this.deliveryLatency = Timer.builder("notify.gateway.delivery.latency")
                .description("Event ingestedAt to the frame written to the client socket (live deliveries)")
                .publishPercentileHistogram()
                .minimumExpectedValue(Duration.ofMillis(1))
                .maximumExpectedValue(Duration.ofSeconds(60))
                .register(registry);
    }

    /** The hops up to the node topic's poll (ingest .. node_topic). */
    void upstream(HopStamps h) {
        hop(0, h.accept(), h.produced());
        hop(1, h.produced(), h.intake());
        hop(2, h.intake(), h.sequence());
        hop(3, h.sequence(), h.route());
        hop(4, h.route(), h.polled());
    }

    /** A frame written: its delivery latency ({@code ingestedAtMs} < 0: not an event) and, with stamps, dispatch and total. */
    void written(long ingestedAtMs, HopStamps h, Clock clock) {
        if (ingestedAtMs >= 0) {
            deliveryLatency.record(Duration.ofMillis(Math.max(0, clock.millis() - ingestedAtMs)));
        }
        if (h != null) {
            long writtenMicros = HopTrace.nowMicros(clock);
            hop(DISPATCH, h.polled(), writtenMicros);
            hop(TOTAL, h.accept(), writtenMicros);
        }
    }

    private void hop(int hop, long fromMicros, long toMicros) {
        if (fromMicros == HopTrace.NONE || toMicros == HopTrace.NONE) {
            return;
        }
        Timer t = hopTimers.get(hop);
        if (t == null) {
            t = Timer.builder("notify.gateway.hop.latency")
                    .description("Time an event spent in one hop of the pipeline (see docs/topics.md, trace headers)")
                    .tag("hop", HOPS[hop])
                    .publishPercentileHistogram()
                    .minimumExpectedValue(Duration.ofNanos(100_000))
                    .maximumExpectedValue(Duration.ofSeconds(60))
                    .register(registry); // idempotent: a racing first record gets the same timer
            hopTimers.set(hop, t);
        }
        t.record(Math.max(0, toMicros - fromMicros), TimeUnit.MICROSECONDS);
    }
}
