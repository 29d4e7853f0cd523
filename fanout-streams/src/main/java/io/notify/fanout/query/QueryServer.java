package io.notify.fanout.query;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.notify.common.auth.BearerKeys;
import io.notify.common.http.BodyReader;
import io.notify.common.http.HttpResponses;
import io.notify.common.http.OpsEndpoints;
import io.notify.common.http.Problem;
import io.notify.common.tls.ServerTls;
import io.undertow.Undertow;
import io.undertow.UndertowOptions;
import io.undertow.server.RoutingHandler;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.state.HostInfo;

/**
 * The fanout-streams query HTTP server. It binds BEFORE Kafka Streams starts (so a port-0 listener
 * can be advertised as {@code application.server}), answers 503 until {@link #attach} hands it the
 * running app, and serves docs/query-api.md — to callers with a service token only ({@link
 * QueryAuth}) — plus, without one, {@code /healthz} and {@code /readyz} (the app's own verdict: Kafka
 * Streams RUNNING and the instance holding tasks). {@code /metrics} is on its second listener, the
 * management port, with the two probes.
 */
public final class QueryServer implements AutoCloseable {

    /**
     * A connection that sends no request for this long (none yet, or none since its last answer) is
     * closed: longer than the JDK HTTP client's 30 s keep-alive, so gateways close their idle pooled
     * connections first and never reuse one the server is closing.
     */
    public static final Duration IDLE_TIMEOUT = Duration.ofSeconds(60);
    /** A request's line and headers must arrive within this, once its first byte has. */
    static final int REQUEST_HEADER_TIMEOUT_MS = 10_000;

    private final Undertow undertow;
    private final AtomicReference<StreamOwners> owners = new AtomicReference<>();
    private final AtomicReference<Supplier<OpsEndpoints.Readiness>> readiness = new AtomicReference<>();
    private final String advertisedHost;

    /**
     * Listens on {@code host:port}; query requests must present one of {@code tokens}. {@code /metrics}
     * and the probes are served on {@code managementPort} (the query port keeps only the probes).
     */
    public QueryServer(String host, int port, String advertisedHost, String managementHost, int managementPort,
                       BearerKeys tokens, PrometheusMeterRegistry registry) {
        this(host, port, advertisedHost, managementHost, managementPort, tokens, registry, null);
    }

    /**
     * As above; with {@code tls} both listeners are HTTPS and queries are forwarded to other instances
     * over HTTPS, trusting the certificates of this instance's certificate file (its chain: instances
     * share a CA, or a certificate).
     */
    public QueryServer(String host, int port, String advertisedHost, String managementHost, int managementPort,
                       BearerKeys tokens, PrometheusMeterRegistry registry, ServerTls tls) {
        this(host, port, advertisedHost, managementHost, managementPort, tokens, registry, tls, IDLE_TIMEOUT);
    }

    /**
     * As above, closing a connection that sends no request for {@code idleTimeout} (none yet, or none
     * since its last answer).
     */
    public QueryServer(String host, int port, String advertisedHost, String managementHost, int managementPort,
                       BearerKeys tokens, PrometheusMeterRegistry registry, ServerTls tls, Duration idleTimeout) {
        this.advertisedHost = advertisedHost;
        QueryMetrics metrics = new QueryMetrics(registry);
        QueryForwarder forwarder = new QueryForwarder(Duration.ofSeconds(2), tls == null ? null : tls.peerTrust());
        QueryHandlers handlers = new QueryHandlers(owners::get, forwarder, metrics);
        QueryAuth auth = new QueryAuth(tokens, metrics);
        RoutingHandler routes = new RoutingHandler()
                .get("/v1/streams/{stream}", auth.guard("head", handlers.head()))
                .get("/v1/streams/{stream}/events", auth.guard("events", handlers.events()))
                .get("/v1/streams/{stream}/inbox", auth.guard("inbox", handlers.inbox()))
                .get("/v1/streams/{stream}/state", auth.guard("state", handlers.state()))
                .get("/v1/streams/{stream}/status", auth.guard("status", handlers.status()))
                .get("/v1/streams/{stream}/push-registrations", auth.guard("push_registrations", handlers.pushRegistrations()))
                .get("/v1/streams/{stream}/preferences", auth.guard("preferences", handlers.preferences()))
                .post(QueryHandlers.BATCH_PATH, auth.guard("batch", handlers.batch()))
                .setFallbackHandler(ex -> HttpResponses.problem(ex,
                        Problem.of(404, "not-found", "Not found", "no route for " + ex.getRequestPath())))
                .setInvalidMethodHandler(ex -> HttpResponses.problem(ex, Problem.of(405, "method-not-allowed",
                        "Method not allowed", ex.getRequestMethod() + " is not allowed on " + ex.getRequestPath())));
        OpsEndpoints.addProbes(routes, this::readiness);
        Undertow.Builder builder = ServerTls.addListener(Undertow.builder(), tls, port, host, null);
        this.undertow = ServerTls.addListener(builder, tls, managementPort, managementHost, OpsEndpoints.management(this::readiness, registry))
                .setIoThreads(2)
                .setWorkerThreads(16)
                .setServerOption(UndertowOptions.REQUEST_PARSE_TIMEOUT, REQUEST_HEADER_TIMEOUT_MS)
                .setServerOption(UndertowOptions.NO_REQUEST_TIMEOUT, (int) idleTimeout.toMillis())
                .setServerOption(UndertowOptions.MAX_ENTITY_SIZE, (long) QueryHandlers.MAX_BATCH_BYTES * BodyReader.DRAIN_FACTOR + 64 * 1024)
                .setHandler(routes)
                .build();
        undertow.start();
    }

    /** The port actually bound (useful with port 0). */
    public int port() {
        return OpsEndpoints.boundPort(undertow, 0);
    }

    /** The management listener's port: {@code /metrics}, {@code /healthz}, {@code /readyz}. */
    public int managementPort() {
        return OpsEndpoints.boundPort(undertow, 1);
    }

    /** The {@code application.server} value other instances use to reach this one. */
    public HostInfo advertised() {
        return new HostInfo(advertisedHost, port());
    }

    /** Starts answering queries from this (started) Kafka Streams instance, ready as {@code readiness} says. */
    public void attach(KafkaStreams app, Supplier<OpsEndpoints.Readiness> readiness) {
        this.readiness.set(readiness);
        owners.set(new StreamOwners(app, advertised()));
    }

    private OpsEndpoints.Readiness readiness() {
        Supplier<OpsEndpoints.Readiness> r = readiness.get();
        return r == null ? OpsEndpoints.Readiness.down("fanout-streams not started") : r.get();
    }

    @Override
    public void close() {
        owners.set(null);
        undertow.stop();
    }
}
