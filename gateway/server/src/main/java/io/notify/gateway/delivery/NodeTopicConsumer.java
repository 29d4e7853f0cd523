package io.notify.gateway.delivery;

import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.kafka.KafkaClientMetrics;
import io.notify.common.metrics.KafkaMeters;
import io.notify.gateway.metrics.GatewayMetrics;
import io.notify.gateway.metrics.HopStamps;
import io.notify.protocol.stream.DeliveryMessage;
import io.notify.schemas.serde.NotifySerdes;
import io.notify.schemas.topic.Topic;
import io.notify.schemas.trace.HopTrace;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Consumes this node's topic {@code notify.node.<nodeId>} and the topic every node reads,
 * {@code notify.all-nodes} (broadcast and hot rooms), on one dedicated thread and hands each record
 * to the {@link Dispatcher}, in partition order.
 *
 * <p>Guarantees: both topics exist and every partition is positioned at its end before
 * {@link #start} returns (older records belong to connections of a previous incarnation, which
 * are gone; their clients resume from the inbox); only committed records are read
 * ({@code read_committed}); no consumer group and no offset commits (a restart starts at the end
 * again); an unreadable record, or one whose dispatch fails, is counted and skipped, never retried forever.
 */
public final class NodeTopicConsumer implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(NodeTopicConsumer.class);
    private static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(30);

    private final List<Topic<?, DeliveryMessage>> topics;
    private final String names;
    private final Map<String, Object> kafkaProps;
    private final int partitions;
    private final Dispatcher dispatcher;
    private final GatewayMetrics metrics;
    private KafkaConsumer<byte[], byte[]> consumer;
    private KafkaMeters consumerMetrics;
    private Thread thread;
    private volatile boolean running;

    /** @param kafkaProps the bootstrap servers and the client settings every Kafka client of the node gets */
    public NodeTopicConsumer(List<Topic<?, DeliveryMessage>> topics, Map<String, Object> kafkaProps, int partitions,
                             Dispatcher dispatcher, GatewayMetrics metrics) {
        this.topics = List.copyOf(topics);
        this.names = String.join(", ", topics.stream().map(Topic::name).toList());
        this.kafkaProps = Map.copyOf(kafkaProps);
        this.partitions = partitions;
        this.dispatcher = dispatcher;
        this.metrics = metrics;
    }

    public void start() {
        topics.forEach(this::ensureTopic);
        Map<String, Object> props = new HashMap<>(kafkaProps);
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        props.put(ConsumerConfig.CLIENT_ID_CONFIG, "notify-gateway-" + topics.get(0).name());
        props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 1000);
        props.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 50);
        consumer = new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        // the client's own meters on /metrics: kafka_consumer_fetch_manager_records_lag{topic,partition} is this node's lag
        consumerMetrics = KafkaMeters.bind(metrics.registry(), "gateway-delivery",
                (refresh, every) -> new KafkaClientMetrics(consumer, Tags.empty(), refresh, every));
        List<TopicPartition> tps = new java.util.ArrayList<>();
        topics.forEach(t -> tps.addAll(awaitPartitions(t)));
        consumer.assign(tps);
        consumer.seekToEnd(tps);
        tps.forEach(tp -> consumer.position(tp, STARTUP_TIMEOUT)); // resolve the end now, not lazily at first poll
        running = true;
        thread = new Thread(this::run, "gateway-delivery");
        thread.setDaemon(true);
        thread.start();
        LOG.info("consuming {} ({} partitions) from the end", names, tps.size());
    }

    /** The topic's partitions; right after creation metadata may not list them yet, so wait (bounded). */
    private List<TopicPartition> awaitPartitions(Topic<?, DeliveryMessage> topic) {
        long deadline = System.nanoTime() + STARTUP_TIMEOUT.toNanos();
        while (true) {
            List<TopicPartition> tps = consumer.partitionsFor(topic.name(), STARTUP_TIMEOUT).stream()
                    .map(p -> new TopicPartition(p.topic(), p.partition())).toList();
            if (!tps.isEmpty()) {
                return tps;
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("no partitions of " + topic.name() + " visible within " + STARTUP_TIMEOUT);
            }
            try {
                TimeUnit.MILLISECONDS.sleep(100); // metadata propagation; bounded by the deadline
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for " + topic.name(), e);
            }
        }
    }

    private void ensureTopic(Topic<?, DeliveryMessage> topic) {
        try (Admin admin = Admin.create(kafkaProps)) {
            admin.createTopics(List.of(new NewTopic(topic.name(), Optional.of(partitions), Optional.empty())))
                    .all().get(STARTUP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            LOG.info("created topic {} with {} partitions", topic.name(), partitions);
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof TopicExistsException)) {
                throw new IllegalStateException("cannot create " + topic.name() + ": " + e.getCause(), e.getCause());
            }
        } catch (TimeoutException e) {
            throw new IllegalStateException("Kafka did not create " + topic.name() + " within " + STARTUP_TIMEOUT, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while creating " + topic.name(), e);
        }
    }

    private void run() {
        try {
            while (running) {
                try {
                    ConsumerRecords<byte[], byte[]> records = consumer.poll(Duration.ofMillis(200));
                    long polled = HopTrace.nowMicros(Clock.systemUTC());
                    for (ConsumerRecord<byte[], byte[]> record : records) {
                        handle(record, polled);
                    }
                } catch (WakeupException e) {
                    throw e;
                } catch (KafkaException e) {
                    // Broker away, fetch errors: keep the node serving and retry; clients resume what is missed.
                    metrics.deliveryMessage("consumer_error");
                    LOG.warn("delivery consumer of {} failed to poll; retrying in 1 s: {}", names, e.toString());
                    TimeUnit.SECONDS.sleep(1);
                }
            }
        } catch (WakeupException | InterruptedException e) {
            // close() asked us to stop
        } catch (RuntimeException e) {
            LOG.error("delivery consumer of {} stopped", names, e);
        } finally {
            running = false;
            consumerMetrics.close();
            consumer.close(Duration.ofSeconds(2));
        }
    }

    /** One record: dispatched, or counted as {@code poison} (unreadable) or {@code dispatch_failed} (a fault of ours), never fatal. */
    void handle(ConsumerRecord<byte[], byte[]> record, long polledMicros) {
        DeliveryMessage message;
        try {
            message = NotifySerdes.deliveryMessage().deserializer().deserialize(record.topic(), record.value());
        } catch (RuntimeException e) {
            metrics.deliveryMessage("poison");
            LOG.warn("skipping unreadable record {}-{}@{}: {}", record.topic(), record.partition(), record.offset(), e.getMessage());
            return;
        }
        if (message == null) {
            metrics.deliveryMessage("poison");
            return;
        }
        try {
            dispatcher.dispatch(message, HopStamps.of(record, polledMicros));
        } catch (RuntimeException e) {
            metrics.deliveryMessage("dispatch_failed");
            LOG.error("dispatch of {}-{}@{} failed", record.topic(), record.partition(), record.offset(), e);
        }
    }

    public boolean isRunning() {
        return running && thread != null && thread.isAlive();
    }

    @Override
    public void close() {
        running = false;
        if (consumer != null) {
            consumer.wakeup();
        }
        if (thread != null) {
            try {
                thread.join(5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
