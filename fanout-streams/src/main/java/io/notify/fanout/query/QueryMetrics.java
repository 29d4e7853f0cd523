package io.notify.fanout.query;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.concurrent.TimeUnit;

/**
 * Query API meters: {@code notify_fanout_query_requests_seconds{kind,outcome}} (a timer, so it
 * counts and times), kind = head | events | batch, outcome = ok | reset | forwarded |
 * forward_failed | unavailable | bad_request | unauthorized (no valid service token: answered 401);
 * and {@code notify_fanout_query_token_uses_total{token}}, the requests each service token let in,
 * by its position in {@code notify.fanout.query.tokens} (1, 2, …): a rotation's old token may go
 * once its count stops growing on every instance.
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

    void tokenUsed(String position) {
        Counter.builder("notify.fanout.query.token.uses")
                .description("Query API requests let in, by the position of their service token in notify.fanout.query.tokens")
                .tag("token", position)
                .register(registry)
                .increment();
    }
}
