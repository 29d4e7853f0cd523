package io.notify.push;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.notify.common.config.PlatformSettings;
import io.notify.common.http.OpsEndpoints;
import io.notify.common.metrics.KafkaMeters;
import io.notify.common.metrics.ServiceMeters;
import io.notify.common.service.NotifyService;
import io.notify.push.apns.ApnsProvider;
import io.notify.push.fcm.FcmProvider;
import io.notify.push.metrics.PushMetrics;
import io.notify.push.provider.PushProvider;
import io.notify.push.sender.FallbackConsumer;
import io.notify.push.sender.PushSender;
import io.notify.push.webpush.WebPushProvider;
import io.notify.schemas.topic.TopicCatalog;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.kafka.KafkaClientMetrics;
import io.undertow.Undertow;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The push sender (docs/push.md): one consumer of {@code notify.fallback} in the group
 * {@code notify.push.group-id} (run more instances to share its partitions), the providers whose
 * credentials are set, one producer of outcomes, removals and DLQ records, and a management listener
 * ({@code /metrics}, {@code /healthz}, {@code /readyz}: ready while the consumer's thread runs).
 * {@link #start} makes the two topics only it writes when they are missing ({@link OwnTopics}).
 * {@link #stop} stops polling, lets the batch in flight finish (at most {@code rebalance-wait}) and
 * commits it, then closes the clients.
 */
public final class PushService implements NotifyService {

    private static final Logger LOG = LoggerFactory.getLogger(PushService.class);
    /** Fallback records per poll at most ({@code max.poll.records}). */
    static final int MAX_BATCH = 500;
    /** Fallback records handed over and not yet committed at most: past it the consumer pauses. */
    static final int MAX_PENDING = 4000;

    private final PushConfig config;
    private final PrometheusMeterRegistry registry = ServiceMeters.create();
    private final List<PushProvider> providers = new ArrayList<>();
    private final KafkaProducer<byte[], byte[]> producer;
    private final PushSender sender;
    private final Undertow management;
    private final KafkaMeters consumerMetrics;
    private final java.util.function.Consumer<Throwable> onFailure;
    private volatile Thread thread;
    private volatile Throwable failure;
    private boolean stopped;

    public PushService(PushConfig config) {
        this(config, e -> { });
    }

    /**
     * @param onFailure what to do when the consumer's thread dies of an error (PushMain: exit, so the
     *                  orchestrator restarts the process); readiness says so either way
     */
    public PushService(PushConfig config, java.util.function.Consumer<Throwable> onFailure) {
        this.config = config;
        this.onFailure = onFailure;
        PushMetrics metrics = new PushMetrics(registry);
        if (config.webpush() != null) {
            providers.add(new WebPushProvider(config.webpush()));
        }
        if (config.fcm() != null) {
            providers.add(new FcmProvider(config.fcm()));
        }
        if (config.apns() != null) {
            providers.add(new ApnsProvider(config.apns()));
        }
        this.producer = new KafkaProducer<>(producerProps(config), new ByteArraySerializer(), new ByteArraySerializer());
        KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(consumerProps(config), new ByteArrayDeserializer(),
                new ByteArrayDeserializer());
        // the client's own meters on /metrics: kafka_consumer_fetch_manager_records_lag{topic,partition} is the sender's lag
        this.consumerMetrics = KafkaMeters.bind(registry, "push-consumer",
                (refresh, every) -> new KafkaClientMetrics(consumer, Tags.empty(), refresh, every));
        io.micrometer.core.instrument.Gauge.builder("notify.push.ready", () -> readiness().ready() ? 1 : 0)
                .description("1 while the fallback consumer runs").register(registry);
        PushSender.Pacing pacing = new PushSender.Pacing(config.maxInFlight(), config.deviceRatePerMinute(), config.deviceBurst(),
                config.maxAttempts(), config.initialBackoff(), config.maxBackoff(), config.retryDeadline(), config.defaultTtl(),
                config.rebalanceWait(), MAX_PENDING);
        this.sender = PushSender.create(pacing, TopicCatalog.of(config.topicPrefix()), providers, consumer, producer,
                Clock.systemUTC(), metrics);
        this.management = Undertow.builder()
                .addHttpListener(config.managementPort(), config.managementHost())
                .setIoThreads(1)
                .setWorkerThreads(2)
                .setHandler(OpsEndpoints.management(this::readiness, registry))
                .build();
    }

    static Map<String, Object> consumerProps(PushConfig config) {
        Map<String, Object> p = PlatformSettings.kafkaProps(config.bootstrapServers(), config.kafkaClient());
        p.put(ConsumerConfig.GROUP_ID_CONFIG, config.topicPrefix() + config.groupId());
        p.put(ConsumerConfig.CLIENT_ID_CONFIG, "notify-push");
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed"); // fanout-streams writes fallbacks in transactions
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        p.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, MAX_BATCH);
        p.put(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, (int) config.sessionTimeout().toMillis());
        p.put(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, (int) Math.max(1000, config.sessionTimeout().toMillis() / 3));
        return p;
    }

    static Map<String, Object> producerProps(PushConfig config) {
        Map<String, Object> p = PlatformSettings.kafkaProps(config.bootstrapServers(), config.kafkaClient());
        p.put(ProducerConfig.CLIENT_ID_CONFIG, "notify-push");
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        p.put(ProducerConfig.LINGER_MS_CONFIG, 5);
        return p;
    }

    private OpsEndpoints.Readiness readiness() {
        Thread t = thread;
        if (failure != null) {
            return OpsEndpoints.Readiness.down("the fallback consumer failed: " + failure);
        }
        return t != null && t.isAlive() ? OpsEndpoints.Readiness.up() : OpsEndpoints.Readiness.down("the fallback consumer is not running");
    }

    @Override
    public String name() {
        return "push";
    }

    @Override
    public synchronized PushService start() {
        if (thread != null) {
            return this;
        }
        OwnTopics.ensure(config);
        management.start();
        FallbackConsumer consumer = sender.consumer();
        thread = new Thread(() -> {
            try {
                consumer.run();
            } catch (RuntimeException | Error e) {
                failure = e;
                LOG.error("the fallback consumer stopped", e);
                onFailure.accept(e);
            }
        }, "push-consumer");
        thread.start();
        LOG.info("push sender consuming {} as {} with {} (management on {}:{})", TopicCatalog.of(config.topicPrefix()).fallback().name(),
                config.groupId(), providers.stream().map(PushProvider::name).toList(), config.managementHost(), managementPort());
        return this;
    }

    /** The management listener's port: {@code /metrics}, {@code /healthz}, {@code /readyz}. */
    public int managementPort() {
        return OpsEndpoints.boundPort(management, 0);
    }

    public PrometheusMeterRegistry registry() {
        return registry;
    }

    @Override
    public synchronized void stop() {
        if (stopped) {
            return;
        }
        stopped = true;
        sender.consumer().stop();
        if (thread != null) {
            try {
                thread.join(config.rebalanceWait().toMillis() + 10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        sender.close();
        consumerMetrics.close();
        producer.close();
        providers.forEach(PushProvider::close);
        management.stop();
    }
}
