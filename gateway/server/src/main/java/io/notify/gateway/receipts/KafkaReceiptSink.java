package io.notify.gateway.receipts;

import io.notify.common.config.PlatformSettings;
import io.notify.gateway.config.GatewayConfig;
import io.notify.protocol.inbox.Receipt;
import io.notify.protocol.stream.StreamId;
import io.notify.schemas.topic.Topic;
import io.notify.schemas.topic.TopicCatalog;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;

/**
 * The node's one producer of {@code notify.receipts} (key: the stream; value: the {@link Receipt}):
 * idempotent, {@code acks=all}, a 5 ms linger, the node's Kafka client settings
 * ({@code notify.kafka.client.*}), made when the node starts ({@link #start}).
 * {@code KafkaProducer.send} may block for metadata or buffer space, so it is called only on this
 * sink's own thread ({@code gateway-receipts}); callers — I/O threads
 * answering a mark, the node's timer flushing acks — only hand receipts over, and at most
 * {@value #MAX_QUEUED} hand-overs wait: beyond that {@link #send} fails at once. Each stage completes
 * from the broker's acknowledgement, or exceptionally within {@code inbox.produce-timeout} (the
 * producer's delivery and blocking timeouts). One thread keeps the hand-over order, so one stream's
 * receipts are written in the order they were taken.
 */
public final class KafkaReceiptSink implements ReceiptSink {

    static final int MAX_QUEUED = 10_000;
    private static final int LINGER_MS = 5;

    private final Supplier<Producer<StreamId, Receipt>> producers;
    private final String topic;
    private volatile Producer<StreamId, Receipt> producer; // from start()
    private final Duration closeTimeout;
    private final ThreadPoolExecutor sender;
    private final AtomicBoolean closed = new AtomicBoolean();

    /** @param producers makes the producer when the node starts (a node made and never started makes none) */
    public KafkaReceiptSink(Supplier<Producer<StreamId, Receipt>> producers, String topic, Duration closeTimeout) {
        this.producers = producers;
        this.topic = topic;
        this.closeTimeout = closeTimeout;
        this.sender = new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS, new ArrayBlockingQueue<>(MAX_QUEUED), r -> {
            Thread t = new Thread(r, "gateway-receipts");
            t.setDaemon(true);
            return t;
        });
    }

    /** The sink of a node: its prefixed {@code notify.receipts}, its Kafka settings. */
    public static KafkaReceiptSink create(GatewayConfig config) {
        Topic<StreamId, Receipt> receipts = TopicCatalog.of(config.topicPrefix()).receipts();
        Duration timeout = config.inbox().produceTimeout();
        return new KafkaReceiptSink(() -> new KafkaProducer<>(producerProps(config), receipts.keySerde().serializer(),
                receipts.valueSerde().serializer()), receipts.name(), timeout);
    }

    static Map<String, Object> producerProps(GatewayConfig config) {
        Map<String, Object> p = PlatformSettings.kafkaProps(config.bootstrapServers(), config.kafkaClient());
        long timeout = config.inbox().produceTimeout().toMillis();
        long request = Math.max(100, timeout / 2);
        p.put(ProducerConfig.CLIENT_ID_CONFIG, "notify-gateway-" + config.nodeId() + "-receipts");
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.LINGER_MS_CONFIG, LINGER_MS);
        p.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) request);
        p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, (int) Math.max(timeout, request + LINGER_MS));
        p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, timeout);
        return p;
    }

    @Override
    public synchronized void start() {
        if (producer == null && !closed.get()) {
            producer = producers.get();
        }
    }

    @Override
    public CompletionStage<Void> send(Receipt receipt) {
        return sendAll(List.of(receipt)).get(0);
    }

    @Override
    public List<CompletionStage<Void>> sendAll(List<Receipt> receipts) {
        List<CompletableFuture<Void>> done = new ArrayList<>(receipts.size());
        for (int i = 0; i < receipts.size(); i++) {
            done.add(new CompletableFuture<>());
        }
        try {
            sender.execute(() -> {
                for (int i = 0; i < receipts.size(); i++) {
                    produce(receipts.get(i), done.get(i));
                }
            });
        } catch (RejectedExecutionException e) {
            IllegalStateException refused = new IllegalStateException(sender.isShutdown() ? "the node is stopping"
                    : "more than " + MAX_QUEUED + " receipt hand-overs wait for the producer");
            done.forEach(f -> f.completeExceptionally(refused));
        }
        return List.copyOf(done);
    }

    private void produce(Receipt receipt, CompletableFuture<Void> done) {
        Producer<StreamId, Receipt> producer = this.producer;
        if (producer == null) {
            done.completeExceptionally(new IllegalStateException("the receipts producer is not started"));
            return;
        }
        try {
            producer.send(new ProducerRecord<>(topic, receipt.stream(), receipt), (metadata, error) -> {
                if (error == null) {
                    done.complete(null);
                } else {
                    done.completeExceptionally(error);
                }
            });
        } catch (KafkaException | IllegalStateException e) {
            done.completeExceptionally(e); // no metadata within max.block.ms, buffer full, closed: the callback will not run
        }
    }

    /** Sends what was handed over, waits for the broker's answers (bounded by the produce timeout each), then closes. */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        sender.shutdown();
        try {
            sender.awaitTermination(closeTimeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        Producer<StreamId, Receipt> started;
        synchronized (this) {
            started = producer;
        }
        if (started != null) {
            started.close(closeTimeout);
        }
    }
}
