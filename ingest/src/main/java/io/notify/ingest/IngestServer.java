package io.notify.ingest;

import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.kafka.KafkaClientMetrics;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.notify.common.auth.BearerKeys;
import io.notify.common.config.PlatformSettings;
import io.notify.common.http.BodyReader;
import io.notify.common.http.HttpResponses;
import io.notify.common.http.OpsEndpoints;
import io.notify.common.http.Problem;
import io.notify.common.metrics.KafkaMeters;
import io.notify.common.metrics.ServiceMeters;
import io.notify.common.service.NotifyService;
import io.notify.common.tls.ServerTls;
import io.notify.ingest.http.CorsHandler;
import io.notify.ingest.http.EventsHandler;
import io.notify.ingest.http.RecallsHandler;
import io.notify.ingest.idempotency.IdempotencyStore;
import io.notify.ingest.metrics.IngestMetrics;
import io.notify.ingest.produce.EventWriter;
import io.notify.ingest.produce.KafkaReadiness;
import io.notify.schemas.topic.TopicCatalog;
import io.undertow.Undertow;
import io.undertow.UndertowOptions;
import io.undertow.server.RoutingHandler;
import io.undertow.server.handlers.GracefulShutdownHandler;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The ingest service: wires config, Kafka, the idempotency store and the HTTP routes, and owns
 * their lifecycle. {@link #stop} stops taking requests, waits for in-flight ones to be answered
 * (bounded), then flushes and closes the producer.
 */
public final class IngestServer implements NotifyService {

    private boolean stopped;
    private static final Logger LOG = LoggerFactory.getLogger(IngestServer.class);

    /** How far above max-batch-bytes Undertow's own entity limit sits: more than one read buffer, so BodyReader sees the overflow first. */
    static final long ENTITY_BACKSTOP_BYTES = 1024 * 1024;

    private final IngestConfig config;
    private final PrometheusMeterRegistry registry = ServiceMeters.create();
    private final Admin admin;
    private final KafkaReadiness readiness;
    private final EventWriter writer;
    private final KafkaMeters producerMetrics;
    private final GracefulShutdownHandler graceful;
    private final Undertow undertow;
    private final ServerTls tls;

    public IngestServer(IngestConfig config) {
        this.config = config;
        IngestMetrics metrics = new IngestMetrics(registry);
        String topic = TopicCatalog.of(config.topicPrefix()).events().name();
        Map<String, Object> adminProps = PlatformSettings.kafkaProps(config.bootstrapServers(), config.kafkaClient());
        adminProps.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) config.readinessInterval().toMillis());
        adminProps.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) config.readinessInterval().toMillis());
        this.admin = Admin.create(adminProps);
        this.readiness = new KafkaReadiness(admin, topic, config.readinessInterval());
        KafkaProducer<String, byte[]> producer = new KafkaProducer<>(producerProps(config));
        // kafka_producer_* on /metrics (record errors, request latency, buffer)
        this.producerMetrics = KafkaMeters.bind(registry, "ingest-producer",
                (refresh, every) -> new KafkaClientMetrics(producer, Tags.empty(), refresh, every));
        this.writer = new EventWriter(producer, topic, config.maxInFlight(), readiness, metrics);
        IdempotencyStore idempotency = new IdempotencyStore(config.dedupWindow(), config.dedupMaxEntries());
        metrics.gauge("notify.ingest.dedup.entries", "Event ids remembered for idempotency", idempotency::size);
        BearerKeys keys = new BearerKeys(config.apiKeys());
        EventsHandler events = new EventsHandler(h -> keys.authenticate(h).orElse(null), idempotency, writer, metrics,
                config.maxEventBytes(), config.maxBatchBytes(), config.maxBatchItems());

        RecallsHandler recalls = new RecallsHandler(h -> keys.authenticate(h).orElse(null), writer, metrics, config.maxEventBytes());
        RoutingHandler routes = new RoutingHandler()
                .post("/v1/events", events)
                .delete("/v1/events/{id}", recalls)
                .post("/v1/recalls", recalls)
                .setFallbackHandler(ex -> HttpResponses.problem(ex,
                        Problem.of(404, "not-found", "Not found", "no route for " + ex.getRequestPath())))
                .setInvalidMethodHandler(ex -> HttpResponses.problem(ex,
                        Problem.of(405, "method-not-allowed", "Method not allowed",
                                ex.getRequestMethod() + " is not allowed on " + ex.getRequestPath())));
        OpsEndpoints.addProbes(routes, readiness);
        // CORS only when origins are configured (the dev demo page); otherwise browsers get no CORS answers at all
        this.graceful = new GracefulShutdownHandler(
                config.corsOrigins().isEmpty() ? routes : new CorsHandler(config.corsOrigins(), routes));
        // with notify.ingest.tls.*, both listeners are HTTPS, the certificate reloaded when its files change
        this.tls = ServerTls.startOrNull(Optional.ofNullable(config.tls()), registry);
        Undertow.Builder builder = ServerTls.addListener(Undertow.builder(), tls, config.port(), config.host(), null);
        // listener 1: /metrics and the probes, on a port load balancers and producers do not reach
        this.undertow = ServerTls.addListener(builder, tls, config.managementPort(), config.managementHost(),
                        OpsEndpoints.management(readiness, registry))
                .setIoThreads(config.ioThreads())
                .setWorkerThreads(config.workerThreads())
                // Slowloris: a client must send its request headers within the timeout, counted from
                // accept (NO_REQUEST_TIMEOUT: nothing sent yet, or idle between keep-alive requests)
                // and from the first byte of a request (REQUEST_PARSE_TIMEOUT).
                .setServerOption(UndertowOptions.REQUEST_PARSE_TIMEOUT, (int) config.requestHeaderTimeout().toMillis())
                .setServerOption(UndertowOptions.NO_REQUEST_TIMEOUT, (int) config.requestHeaderTimeout().toMillis())
                .setServerOption(UndertowOptions.MAX_HEADER_SIZE, 16 * 1024)
                // BodyReader answers 413 at max-batch-bytes (after reading a refused body to its end, up to
                // DRAIN_FACTOR times that); Undertow's own bound is only a backstop above it, because it
                // closes the connection before anything can be answered.
                .setServerOption(UndertowOptions.MAX_ENTITY_SIZE,
                        (long) config.maxBatchBytes() * BodyReader.DRAIN_FACTOR + ENTITY_BACKSTOP_BYTES)
                .setHandler(graceful)
                .build();
    }

    static Map<String, Object> producerProps(IngestConfig config) {
        Map<String, Object> p = PlatformSettings.kafkaProps(config.bootstrapServers(), config.kafkaClient());
        p.put(ProducerConfig.CLIENT_ID_CONFIG, "notify-ingest");
        p.put(ProducerConfig.LINGER_MS_CONFIG, 2);
        p.put(ProducerConfig.BATCH_SIZE_CONFIG, 128 * 1024);
        p.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4");
        long timeout = config.produceTimeout().toMillis();
        p.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) Math.max(500, timeout / 2));
        p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, config.maxBlock().toMillis());
        p.putAll(config.producerOverrides());
        // Not overridable: the 202 contract depends on them.
        p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, (int) timeout);
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        return p;
    }

    @Override
    public IngestServer start() {
        if (config.createTopic()) {
            createEventsTopic();
        }
        readiness.start();
        undertow.start();
        LOG.info("ingest listening on {}://{}:{}, management on {}:{} (Kafka: {})", ServerTls.scheme(tls), config.host(), port(),
                config.managementHost(), managementPort(), readiness.get().reason());
        return this;
    }

    private void createEventsTopic() {
        String topic = TopicCatalog.of(config.topicPrefix()).events().name();
        try {
            admin.createTopics(List.of(new NewTopic(topic, Optional.of(config.topicPartitions()), Optional.empty())))
                    .all().get(30, TimeUnit.SECONDS);
            LOG.info("created topic {} with {} partitions", topic, config.topicPartitions());
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof TopicExistsException)) {
                throw new IllegalStateException("cannot create topic " + topic + ": " + e.getCause(), e.getCause());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (TimeoutException e) {
            throw new IllegalStateException("Kafka did not create topic " + topic + " within 30 s", e);
        }
    }

    public int port() {
        return OpsEndpoints.boundPort(undertow, 0);
    }

    /** The management listener's port: {@code /metrics}, {@code /healthz}, {@code /readyz}. */
    public int managementPort() {
        return OpsEndpoints.boundPort(undertow, 1);
    }

    public PrometheusMeterRegistry registry() {
        return registry;
    }

    @Override
    public String name() {
        return "ingest";
    }

    /** Stops taking requests, waits for those in flight (up to the produce timeout), then releases everything. Idempotent. */
    @Override
    public synchronized void stop() {
        if (stopped) {
            return;
        }
        stopped = true;
        graceful.shutdown();
        try {
            if (!graceful.awaitShutdown(TimeUnit.SECONDS.toMillis(config.produceTimeout().toSeconds() + 1))) {
                LOG.warn("stopping with requests still in flight");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        undertow.stop();
        if (tls != null) {
            tls.close();
        }
        producerMetrics.close();
        writer.close();
        readiness.close();
        admin.close(java.time.Duration.ofSeconds(2));
        registry.close();
    }
}
