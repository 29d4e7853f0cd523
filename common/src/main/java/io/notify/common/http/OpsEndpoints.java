package io.notify.common.http;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.undertow.Undertow;
import io.undertow.server.HttpHandler;
import io.undertow.server.RoutingHandler;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The operational endpoints every Notify service exposes: {@code GET /healthz} (the process is
 * up), {@code GET /readyz} (its dependencies answer; 503 with the reason otherwise) and
 * {@code GET /metrics} (Prometheus text format). They run on the I/O thread and never block:
 * readiness is read from a cached check, never probed inline.
 *
 * <p>Where they are served: all three on the service's management listener
 * ({@code notify.<service>.management-port}, {@link #management}); on the port that clients and load
 * balancers reach only the two probes ({@link #addProbes}), never {@code /metrics}, which tells
 * anyone who can read it how many users are connected and how the service is doing.
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

    /** The management listener's handler: the probes, {@code /metrics}, and a 404 problem for anything else. */
    public static HttpHandler management(Supplier<Readiness> readiness, PrometheusMeterRegistry registry) {
        return addProbes(new RoutingHandler(), readiness)
                .get("/metrics", ex -> HttpResponses.text(ex, 200,
                        "text/plain; version=0.0.4; charset=utf-8", registry.scrape()))
                .setFallbackHandler(ex -> HttpResponses.problem(ex, Problem.of(404, "not-found", "Not found",
                        "the management listener serves /healthz, /readyz and /metrics")));
    }

    /** Adds {@code /healthz} and {@code /readyz}, what a load balancer probes, to a client-facing listener's routes. */
    public static RoutingHandler addProbes(RoutingHandler routes, Supplier<Readiness> readiness) {
        return routes
                .get("/healthz", ex -> HttpResponses.json(ex, 200, Map.of("status", "up")))
                .get("/readyz", ex -> {
                    Readiness r = readiness.get();
                    if (r.ready()) {
                        HttpResponses.json(ex, 200, Map.of("status", "ready"));
                    } else {
                        HttpResponses.retryLater(ex, Problem.of(503, "not-ready", "Not ready", r.reason()), 1);
                    }
                });
    }

    /**
     * The default management port of a service listening on {@code port}: {@code port + 100}
     * (ingest 8180, gateway 8181, the query API's 8190), or any free port when {@code port} is 0 or
     * above 65435.
     */
    public static int defaultManagementPort(int port) {
        return port == 0 || port > 65435 ? 0 : port + 100;
    }

    /** The port listener {@code index} of {@code server} is bound to (useful with port 0): 0 is the client listener, 1 management. */
    public static int boundPort(Undertow server, int index) {
        return ((InetSocketAddress) server.getListenerInfo().get(index).getAddress()).getPort();
    }
}
