package io.notify.common.http;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.undertow.server.RoutingHandler;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The operational endpoints every Notify service exposes: {@code GET /healthz} (the process is
 * up), {@code GET /readyz} (its dependencies answer; 503 with the reason otherwise) and
 * {@code GET /metrics} (Prometheus text format). They run on the I/O thread and never block:
 * readiness is read from a cached check, never probed inline.
 */
public final class OpsEndpoints {

    /** What a readiness check reports: ready or not, and why (shown to operators). */
    public record Readiness(boolean ready, String reason) {
        public static Readiness up() {
            return new Readiness(true, "ok");
        }

        public static Readiness down(String reason) {
            return new Readiness(false, reason);
        }
    }

    private OpsEndpoints() {
    }

    public static RoutingHandler addTo(RoutingHandler routes, Supplier<Readiness> readiness,
                                       PrometheusMeterRegistry registry) {
        return routes
                .get("/healthz", ex -> HttpResponses.json(ex, 200, Map.of("status", "up")))
                .get("/readyz", ex -> {
                    Readiness r = readiness.get();
                    if (r.ready()) {
                        HttpResponses.json(ex, 200, Map.of("status", "ready"));
                    } else {
                        HttpResponses.retryLater(ex, Problem.of(503, "not-ready", "Not ready", r.reason()), 1);
                    }
                })
                .get("/metrics", ex -> HttpResponses.text(ex, 200,
                        "text/plain; version=0.0.4; charset=utf-8", registry.scrape()));
    }
}
