package io.notify.fanout.query;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.concurrent.TimeUnit;

/**
 * Query API meters: {@code notify_fanout_query_requests_seconds{kind,outcome}} (a timer, so it
 * counts and times), kind = head | events | batch, outcome = ok | reset | forwarded |
 * forward_failed | unavailable | bad_request.
 */
public final class QueryMetrics {

    private final MeterRegistry registry;

    public QueryMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    void request(String kind, String outcome, long startNanos) {
        Timer.builder("notify.fanout.query.requests")
                .description("Query API requests by kind and outcome")
                .tag("kind", kind).tag("outcome", outcome)
                .register(registry)
                .record(System.nanoTime() - startNanos, TimeUnit.NANOSECONDS);
    }
}
