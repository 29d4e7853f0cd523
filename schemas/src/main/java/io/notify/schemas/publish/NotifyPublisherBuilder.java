package io.notify.schemas.publish;

import io.notify.protocol.event.EventEnvelope;
import io.notify.schemas.topic.Topic;
import io.notify.schemas.topic.TopicCatalog;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;

/**
 * Configures a {@link NotifyPublisher}. Defaults: production topic names, {@code max.block.ms}
 * 5 s (Kafka's own 60 s is too long for a request thread), {@code linger.ms} 5, close timeout
 * 10 s, completions on one daemon thread owned by the publisher. Always forced:
 * {@code enable.idempotence=true}, {@code acks=all}; an extra property that contradicts them, or
 * that would take over serialization or make the producer transactional, fails the build with a
 * message naming the key.
 */
public final class NotifyPublisherBuilder {

    public static final Duration DEFAULT_MAX_BLOCK = Duration.ofSeconds(5);
    public static final Duration DEFAULT_CLOSE_TIMEOUT = Duration.ofSeconds(10);

    private final Map<String, Object> props = new LinkedHashMap<>();
    private TopicCatalog topics = TopicCatalog.production();
    private Executor completionExecutor;
    private Duration closeTimeout = DEFAULT_CLOSE_TIMEOUT;
    private String producerName;

    NotifyPublisherBuilder() {
    }

    /** Required: the Kafka bootstrap servers, {@code host:port[,host:port...]}. */
    public NotifyPublisherBuilder bootstrapServers(String servers) {
        return property(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, servers);
    }

    public NotifyPublisherBuilder topics(TopicCatalog catalog) {
        this.topics = Objects.requireNonNull(catalog, "catalog");
        return this;
    }

    /** Shorthand for {@code topics(TopicCatalog.of(prefix))}. */
    public NotifyPublisherBuilder topicPrefix(String prefix) {
        return topics(TopicCatalog.of(prefix));
    }

    /**
     * The producer's name: its events' ids are its own (another producer's equal id is another event,
     * docs/topics.md "Event ids"), carried in the {@code notify.producer} header. Unset: the shared
     * scope of direct producers that name none.
     */
    public NotifyPublisherBuilder producer(String name) {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("a producer name is required");
        }
        this.producerName = name;
        return this;
    }

    public NotifyPublisherBuilder clientId(String clientId) {
        return property(ProducerConfig.CLIENT_ID_CONFIG, clientId);
    }

    /** Longest time {@code publish} may block its caller (metadata fetch, full buffer). */
    public NotifyPublisherBuilder maxBlock(Duration maxBlock) {
        if (maxBlock == null || maxBlock.isNegative()) {
            throw new IllegalArgumentException("maxBlock must be >= 0");
        }
        return property(ProducerConfig.MAX_BLOCK_MS_CONFIG, maxBlock.toMillis());
    }

    /** Longest time {@code close} waits for buffered events. */
    public NotifyPublisherBuilder closeTimeout(Duration timeout) {
        if (timeout == null || timeout.isNegative()) {
            throw new IllegalArgumentException("closeTimeout must be >= 0");
        }
        this.closeTimeout = timeout;
        return this;
    }

    /** Where futures complete; the caller owns it. Default: one daemon thread owned by the publisher. */
    public NotifyPublisherBuilder completionExecutor(Executor executor) {
        this.completionExecutor = Objects.requireNonNull(executor, "executor");
        return this;
    }

    /** Any Kafka producer property (security, batching, compression...); later calls win. */
    public NotifyPublisherBuilder property(String key, Object value) {
        props.put(Objects.requireNonNull(key, "key"), Objects.requireNonNull(value, () -> "value of " + key));
        return this;
    }

    public NotifyPublisherBuilder properties(Map<String, ?> extra) {
        extra.forEach(this::property);
        return this;
    }

    /** The producer configuration the publisher will use: defaults, then the given properties, then the forced ones. */
    Map<String, Object> producerConfig() {
        Map<String, Object> cfg = new LinkedHashMap<>();
        cfg.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, DEFAULT_MAX_BLOCK.toMillis());
        cfg.put(ProducerConfig.LINGER_MS_CONFIG, 5);
        cfg.putAll(props);
        Object servers = cfg.get(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG);
        if (servers == null || servers.toString().isBlank()) {
            throw new IllegalArgumentException(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG + " is required");
        }
        for (String owned : new String[] {ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG,
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ProducerConfig.TRANSACTIONAL_ID_CONFIG}) {
            if (cfg.containsKey(owned)) {
                throw new IllegalArgumentException(owned + " cannot be set: NotifyPublisher owns serialization and does not use transactions");
            }
        }
        Object idempotence = cfg.get(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG);
        if (idempotence != null && !"true".equalsIgnoreCase(idempotence.toString())) {
            throw new IllegalArgumentException(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG + "=" + idempotence
                    + " is not allowed: NotifyPublisher forces true so retries never duplicate or reorder events");
        }
        Object acks = cfg.get(ProducerConfig.ACKS_CONFIG);
        if (acks != null && !"all".equalsIgnoreCase(acks.toString()) && !"-1".equals(acks.toString())) {
            throw new IllegalArgumentException(ProducerConfig.ACKS_CONFIG + "=" + acks
                    + " is not allowed: NotifyPublisher forces all so an acknowledged event survives a broker loss");
        }
        cfg.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        cfg.put(ProducerConfig.ACKS_CONFIG, "all");
        return cfg;
    }

    TopicCatalog topics() {
        return topics;
    }

    public NotifyPublisher build() {
        Map<String, Object> cfg = producerConfig();
        Topic<String, EventEnvelope> topic = topics.events();
        KafkaProducer<String, EventEnvelope> producer = new KafkaProducer<>(cfg, topic.keySerde().serializer(),
                topic.valueSerde().serializer());
        ExecutorService owned = null;
        Executor completions = completionExecutor;
        if (completions == null) {
            owned = Executors.newSingleThreadExecutor(r -> {
                Thread t = new Thread(r, "notify-publisher-completions");
                t.setDaemon(true);
                return t;
            });
            completions = owned;
        }
        return new NotifyPublisher(producer, topic, completions, owned, closeTimeout, producerName);
    }
}
