package io.notify.gateway;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.notify.common.config.PlatformSettings;
import io.notify.common.http.HttpResponses;
import io.notify.common.http.OpsEndpoints;
import io.notify.common.http.Problem;
import io.notify.common.limits.TokenBucket;
import io.notify.common.service.NotifyService;
import io.notify.common.tls.ServerTls;
import io.notify.gateway.admission.AcceptGovernor;
import io.notify.gateway.admission.ConnectionLimiter;
import io.notify.gateway.admission.HandshakeGate;
import io.notify.gateway.admission.OriginPolicy;
import io.notify.gateway.auth.KeyRing;
import io.notify.gateway.auth.KeySetLoader;
import io.notify.gateway.auth.RemoteKeySet;
import io.notify.gateway.auth.TicketStore;
import io.notify.gateway.auth.TokenVerifier;
import io.notify.gateway.config.GatewayConfig;
import io.notify.gateway.delivery.Dispatcher;
import io.notify.gateway.delivery.NodeTopicConsumer;
import io.notify.gateway.drain.DrainReport;
import io.notify.gateway.drain.Drainer;
import io.notify.gateway.handshake.CheckEndpoint;
import io.notify.gateway.handshake.SseEndpoint;
import io.notify.gateway.handshake.TicketEndpoint;
import io.notify.gateway.handshake.WebSocketEndpoint;
import io.notify.gateway.inbox.InboxEndpoints;
import io.notify.gateway.inbox.InboxSource;
import io.notify.gateway.inbox.PreferenceEndpoints;
import io.notify.gateway.inbox.PushRegistrationEndpoints;
import io.notify.gateway.metrics.GatewayMetrics;
import io.notify.gateway.receipts.ReceiptBatcher;
import io.notify.gateway.receipts.ReceiptSink;
import io.notify.gateway.receipts.UserChangeSinks;
import io.notify.gateway.registry.Registrar;
import io.notify.gateway.resume.BatchingResumeSource;
import io.notify.gateway.resume.ResumeSource;
import io.notify.gateway.session.Announcer;
import io.notify.gateway.session.ConnectionIds;
import io.notify.gateway.session.LivenessSweeper;
import io.notify.gateway.session.SessionContext;
import io.notify.gateway.session.SessionTable;
import io.notify.gateway.transport.AcceptingChannels;
import io.notify.gateway.web.WebAssets;
import io.notify.schemas.publish.NotifyPublisher;
import io.notify.schemas.topic.TopicCatalog;
import io.undertow.Undertow;
import io.undertow.UndertowOptions;
import io.undertow.server.RoutingHandler;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.xnio.Options;
import org.xnio.XnioIoThread;
import org.xnio.XnioWorker;
import org.xnio.channels.AcceptingChannel;

/**
 * One gateway node: wires configuration, auth, admission, sessions, delivery, resume, registry,
 * the inbox API and receipts, and drain, and owns their lifecycle. {@link #start} follows docs/gateway.md "Start-up order": JWKS URL
 * fetched (bounded wait) → node topic created and positioned at its end → receipts producer made →
 * registry liveness → listener open → ready.
 * {@link #drain} is the SIGTERM path; {@link #stop} ends everything at once.
 */
public final class GatewayServer implements NotifyService {

    private static final Logger LOG = LoggerFactory.getLogger(GatewayServer.class);

    private final GatewayConfig config;
    private final Registrar registrar;
    private final ResumeSource resumeSource;
    private final PrometheusMeterRegistry meterRegistry;
    private final GatewayMetrics metrics;
    private final SessionTable table = new SessionTable();
    private final ScheduledThreadPoolExecutor timer;
    private final NodeTopicConsumer consumer;
    private final NotifyPublisher presencePublisher; // null while no room has presence on
    private final Drainer drainer;
    private final SessionContext ctx;
    private final Undertow undertow;
    private final KeyRing keys;
    private final ServerTls tls;
    private final TicketStore tickets;
    private final InboxSource inboxSource;
    private final ReceiptSink receiptSink;
    private final UserChangeSinks userChanges; // null: a node without Kafka (tests' doubles)
    private final ReceiptBatcher receipts;
    private AcceptGovernor governor;
    private LivenessSweeper sweeper;
    private volatile boolean started;

    /**
     * @param meterRegistry served on {@code /metrics}; {@code metrics} must write to it (the registrar's
     *                      and the resume source's meters should too)
     * @param inboxSource   where the inbox API reads users' inboxes (the query API); closed by {@link #stop}
     * @param receiptSink   where marks and coalesced acks go ({@code notify.receipts}); closed by {@link #stop}
     * @param userChanges   where push registrations and preferences go ({@code notify.push-changes}, {@code notify.preferences});
     *                      null answers them 503; closed by {@link #stop}
     */
    public GatewayServer(GatewayConfig config, PrometheusMeterRegistry meterRegistry, GatewayMetrics metrics,
                         Registrar registrar, ResumeSource resumeSource, InboxSource inboxSource, ReceiptSink receiptSink,
                         UserChangeSinks userChanges, Clock clock) {
        this.config = config;
        this.meterRegistry = meterRegistry;
        this.metrics = metrics;
        this.registrar = registrar;
        this.inboxSource = inboxSource;
        this.receiptSink = receiptSink;
        this.userChanges = userChanges;
        // clients' acks of their own streams: one receipt per device and stream per flush (docs/gateway.md, "Receipts")
        this.receipts = new ReceiptBatcher(receiptSink, config.inbox().ackMaxPending(), clock, metrics.inbox());
        metrics.gauge("notify.gateway.receipts.pending", "Devices and streams with an ack waiting for the next receipts flush",
                receipts::pending);
        // concurrent resumes of many sessions go out as batch requests (docs/gateway.md, "Resume batching")
        this.resumeSource = new BatchingResumeSource(resumeSource, config.resumeBatching(), config.fetchDeadline(), metrics);
        this.timer = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "gateway-timer");
            t.setDaemon(true);
            return t;
        });
        timer.setRemoveOnCancelPolicy(true);
        TopicCatalog topics = TopicCatalog.of(config.topicPrefix());
        this.consumer = new NodeTopicConsumer(List.of(topics.node(config.nodeId()), topics.allNodes()),
                PlatformSettings.kafkaProps(config.bootstrapServers(), config.kafkaClient()), config.nodeTopicPartitions(),
                new Dispatcher(table, metrics), metrics);
        this.drainer = new Drainer(table, metrics, timer);
        metrics.gauge("notify.gateway.rooms", "Rooms (and b:all) with at least one subscriber on this node", table::rooms);
        metrics.gauge("notify.gateway.subscriptions", "Room and broadcast subscriptions held by this node's connections",
                table::subscriptions);
        this.presencePublisher = config.rooms().presence().isEmpty() ? null : presencePublisher(config);
        this.ctx = new SessionContext(config, metrics, registrar, this.resumeSource, table,
                new ConnectionLimiter(config.limits().maxConnectionsPerUser()), timer, clock,
                presencePublisher == null ? Announcer.NONE : event -> presencePublisher.publish(event).whenComplete((ok, failure) -> {
                    if (failure != null) {
                        metrics.announceFailure();
                    }
                }), receipts);
        this.keys = config.jwt().jwks() != null ? RemoteKeySet.create(config.jwt().jwks(), metrics)
                : KeyRing.fixed(KeySetLoader.load(config.jwt()));
        TokenVerifier verifier = new TokenVerifier(keys, config.jwt().issuer(), config.jwt().audience(), config.jwt().clockSkew(), clock);
        this.tickets = new TicketStore(config.tickets().ttl(), config.tickets().maxHeld(), clock, metrics);
        HandshakeGate gate = new HandshakeGate(
                TokenBucket.system(config.limits().handshakeRatePerSecond(), config.limits().handshakeBurst()),
                new OriginPolicy(config.allowedOrigins(), config.requireOrigin()), verifier, tickets, drainer::draining, metrics);
        ConnectionIds ids = new ConnectionIds();
        TicketEndpoint ticketEndpoint = new TicketEndpoint(gate, tickets);
        CheckEndpoint checkEndpoint = new CheckEndpoint(gate);
        RoutingHandler routes = new RoutingHandler()
                .get("/v1/ws", new WebSocketEndpoint(gate, ctx, ids))
                .get("/v1/ws/check", checkEndpoint) // why a handshake would be refused; CORS open to every origin
                .add("OPTIONS", "/v1/ws/check", checkEndpoint)
                .get("/v1/sse", new SseEndpoint(gate, ctx, ids))
                .post("/v1/tickets", ticketEndpoint)
                .add("OPTIONS", "/v1/tickets", ticketEndpoint) // the CORS preflight of a page on another allowed origin
                .get("/v1/tickets", ticketEndpoint) // answered 405 "use POST"
                .setFallbackHandler(ex -> HttpResponses.problem(ex,
                        Problem.of(404, "not-found", "Not found", "no route for " + ex.getRequestPath())))
                .setInvalidMethodHandler(ex -> HttpResponses.problem(ex,
                        Problem.of(405, "method-not-allowed", "Method not allowed", "use GET")));
        TokenBucket userRequests = TokenBucket.system(config.inbox().ratePerSecond(), config.inbox().burst());
        new InboxEndpoints(gate, userRequests, inboxSource, receiptSink, config.inbox(), config.fetchDeadline(), clock, metrics.inbox())
                .addTo(routes);
        new PushRegistrationEndpoints(gate, userRequests, inboxSource, userChanges == null ? null : userChanges.pushChanges(),
                config.inbox(), config.fetchDeadline(), clock, metrics.inbox()).addTo(routes);
        new PreferenceEndpoints(gate, userRequests, inboxSource, userChanges == null ? null : userChanges.preferences(),
                config.inbox(), config.fetchDeadline(), clock, metrics.inbox()).addTo(routes);
        OpsEndpoints.addProbes(routes, this::readiness); // what load balancers probe; /metrics is on the management port
        WebAssets.load().addTo(routes); // GET /notify.js (the browser client), / (demo page), /demo.css
        metrics.gauge("notify.gateway.ready", "1 when the node accepts handshakes", () -> readiness().ready() ? 1 : 0);
        // with notify.gateway.tls.*, both listeners are HTTPS (WSS and SSE over HTTPS), the certificate reloaded
        this.tls = ServerTls.startOrNull(Optional.ofNullable(config.tls()), meterRegistry);
        Undertow.Builder builder = ServerTls.addListener(Undertow.builder(), tls, config.port(), config.host(), null);
        // listener 1: /metrics and the probes, on a port clients do not reach; its accepts are never governed
        this.undertow = ServerTls.addListener(builder, tls, config.managementPort(), config.managementHost(),
                        OpsEndpoints.management(this::readiness, meterRegistry))
                .setIoThreads(config.ioThreads())
                // Undertow's default accept queue is 1000: a storm of reconnects would overflow it
                .setSocketOption(Options.BACKLOG, config.acceptBacklog())
                .setWorkerThreads(2) // nothing is dispatched to workers; handlers run on I/O threads
                // slowloris: request headers must be complete within this time, and an HTTP connection
                // sends its (next) request within it too; the timer armed at accept holds Undertow's HTTP
                // connection until it fires, also for a connection upgraded meanwhile, so it is kept short
                .setServerOption(UndertowOptions.REQUEST_PARSE_TIMEOUT, (int) config.limits().requestHeaderTimeout().toMillis())
                .setServerOption(UndertowOptions.NO_REQUEST_TIMEOUT, (int) config.limits().requestHeaderTimeout().toMillis())
                .setServerOption(UndertowOptions.MAX_HEADER_SIZE, 16 * 1024)
                .setServerOption(UndertowOptions.MAX_ENTITY_SIZE, 0L)
                .setHandler(routes)
                .build();
    }

    @Override
    public String name() {
        return "gateway " + config.nodeId();
    }

    @Override
    public GatewayServer start() {
        keys.start(); // a JWKS URL: the first fetch, waited for a bounded time (the node starts without keys if it fails)
        consumer.start();
        receiptSink.start();
        if (userChanges != null) {
            userChanges.start();
        }
        registrar.start();
        sweeper = new LivenessSweeper(table, ctx.clock(), timer, config.sweepInterval());
        timer.scheduleWithFixedDelay(tickets::sweep, 1, 1, TimeUnit.SECONDS); // forgets connect tickets past their time
        long ackFlush = config.inbox().ackFlushInterval().toMillis(); // at most one ack receipt per device and stream per interval
        timer.scheduleWithFixedDelay(this::flushReceipts, ackFlush, ackFlush, TimeUnit.MILLISECONDS);
        undertow.start();
        Duration maxLag = config.limits().acceptMaxLag();
        Optional<AcceptingChannel<?>> server = maxLag.isZero() ? Optional.empty()
                : AcceptingChannels.of(undertow.getListenerInfo().get(0));
        if (server.isPresent()) {
            AcceptingChannel<?> channel = server.get();
            XnioWorker worker = undertow.getWorker();
            List<XnioIoThread> ioThreads = IntStream.range(0, worker.getIoThreadCount()).mapToObj(worker::getIoThread).distinct().toList();
            governor = new AcceptGovernor(ioThreads, new AcceptGovernor.Listener() {
                @Override
                public void suspendAccepts() {
                    channel.suspendAccepts();
                }

                @Override
                public void resumeAccepts() {
                    channel.resumeAccepts();
                }
            }, maxLag, maxLag.dividedBy(5), metrics).start();
        }
        started = true;
        LOG.info("gateway {} (incarnation {}) listening on {}:{}, management on {}:{}", config.nodeId(), registrar.incarnation(),
                config.host(), port(), config.managementHost(), managementPort());
        return this;
    }

    OpsEndpoints.Readiness readiness() {
        if (!started) {
            return OpsEndpoints.Readiness.down("starting");
        }
        if (drainer.draining()) {
            return OpsEndpoints.Readiness.down("draining");
        }
        if (!consumer.isRunning()) {
            return OpsEndpoints.Readiness.down("node topic consumer stopped");
        }
        return OpsEndpoints.Readiness.up();
    }

    public int port() {
        return OpsEndpoints.boundPort(undertow, 0);
    }

    /** The management listener's port: {@code /metrics}, {@code /healthz}, {@code /readyz}. */
    public int managementPort() {
        return OpsEndpoints.boundPort(undertow, 1);
    }

    public GatewayMetrics metrics() {
        return metrics;
    }

    public GatewayConfig config() {
        return config;
    }

    public PrometheusMeterRegistry meterRegistry() {
        return meterRegistry;
    }

    public SessionTable sessions() {
        return table;
    }

    /** SIGTERM: not ready, no handshakes, connections closed over the drain window, then everything stops. */
    public DrainReport drain() {
        DrainReport report = drainer.drain(config.drainWindow(), config.drainGrace());
        stop();
        return report;
    }

    /** The timer's flush of the acks noted since the last one; never throws (that would end the schedule). */
    private void flushReceipts() {
        try {
            receipts.flush();
        } catch (RuntimeException e) {
            LOG.error("receipts flush failed", e);
        }
    }

    /** The producer of presence's join/leave events: to notify.events, with the node's Kafka client settings. */
    private static NotifyPublisher presencePublisher(GatewayConfig config) {
        var builder = NotifyPublisher.builder().bootstrapServers(config.bootstrapServers()).topicPrefix(config.topicPrefix());
        config.kafkaClient().forEach(builder::property);
        return builder.build();
    }

    /**
     * Stops at once: listener, registry (removes what it still holds), delivery, the acks noted since
     * the last flush (written, the producer waits for their acknowledgement within the produce
     * timeout), timers. Idempotent.
     */
    @Override
    public synchronized void stop() {
        if (!started) {
            return;
        }
        started = false;
        if (sweeper != null) {
            sweeper.close();
        }
        if (governor != null) {
            governor.close();
        }
        undertow.stop();
        if (tls != null) {
            tls.close();
        }
        flushReceipts(); // the last window: the listener and its I/O threads are stopped, so no ack is noted after it
        receiptSink.close();
        if (userChanges != null) {
            userChanges.close();
        }
        inboxSource.close();
        registrar.stop();
        consumer.close();
        if (presencePublisher != null) {
            presencePublisher.close();
        }
        resumeSource.close();
        keys.close();
        timer.shutdownNow();
        try {
            timer.awaitTermination(2, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        meterRegistry.close();
    }
}
