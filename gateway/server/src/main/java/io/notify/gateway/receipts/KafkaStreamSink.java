package io.notify.gateway.receipts;

import io.notify.common.config.PlatformSettings;
import io.notify.gateway.config.GatewayConfig;
import io.notify.protocol.stream.StreamId;
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
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;

/**
 * One of the node's producers of records keyed by a user's stream ({@code notify.receipts},
 * {@code notify.push-changes}): idempotent, {@code acks=all}, a 5 ms linger, the node's Kafka client
 * settings ({@code notify.kafka.client.*}), made when the node starts ({@link #start}).
 * {@code KafkaProducer.send} may block for metadata or buffer space, so it is called only on this
 * sink's own thread; callers (I/O threads answering a request, the node's timer flushing acks) only
 * hand records over, and at most {@value #MAX_QUEUED} hand-overs wait: beyond that {@link #send}
 * fails at once. Each stage completes from the broker's acknowledgement, or exceptionally within
 * {@code inbox.produce-timeout} (the producer's delivery and blocking timeouts). One thread keeps the
 * hand-over order, so one stream's records are written in the order they were taken.
 */
public class KafkaStreamSink<V> {

    static final int MAX_QUEUED = 10_000;
    private static final int LINGER_MS = 5;

    private final Supplier<Producer<StreamId, V>> producers;
    private final String topic;
    private final Function<V, StreamId> key;
    private volatile Producer<StreamId, V> producer; // from start()
    private final Duration closeTimeout;
    private final ThreadPoolExecutor sender;
    private final AtomicBoolean closed = new AtomicBoolean();

    /**
     * @param producers makes the producer when the node starts (a node made and never started makes none)
     * @param key       a record's key: the stream it belongs to
     * @param thread    the name of the sink's thread
     */
    public KafkaStreamSink(Supplier<Producer<StreamId, V>> producers, String topic, Function<V, StreamId> key, Duration closeTimeout,
                           String thread) {
        this.producers = producers;
        this.topic = topic;
        this.key = key;
        this.closeTimeout = closeTimeout;
        this.sender = new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS, new ArrayBlockingQueue<>(MAX_QUEUED), r -> {
            Thread t = new Thread(r, thread);
            t.setDaemon(true);
            return t;
        });
    }

    /** The producer settings of a node's sink; {@code purpose} ends its client id. */
    static Map<String, Object> producerProps(GatewayConfig config, String purpose) {
        Map<String, Object> p = PlatformSettings.kafkaProps(config.bootstrapServers(), config.kafkaClient());
        long timeout = config.inbox().produceTimeout().toMillis();
        long request = Math.max(100, timeout / 2);
        p.put(ProducerConfig.CLIENT_ID_CONFIG, "notify-gateway-" + config.nodeId() + "-" + purpose);
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.LINGER_MS_CONFIG, LINGER_MS);
        p.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) request);
        p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, (int) Math.max(timeout, request + LINGER_MS));
        p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, timeout);
        return p;
    }

    /** Makes the producer (the node calls it in {@code start}); a send before it fails. */
    public synchronized void start() {
        if (producer == null && !closed.get()) {
            producer = producers.get();
        }
    }

    /** Hands one record over; never blocks, never throws. */
    public CompletionStage<Void> send(V record) {
        return sendAll(List.of(record)).get(0);
    }

    /** Hands several over at once: one stage each, in order. */
    public List<CompletionStage<Void>> sendAll(List<V> records) {
        List<CompletableFuture<Void>> done = new ArrayList<>(records.size());
        for (int i = 0; i < records.size(); i++) {
            done.add(new CompletableFuture<>());
        }
        try {
            sender.execute(() -> {
                for (int i = 0; i < records.size(); i++) {
                    produce(records.get(i), done.get(i));
                }
            });
        } catch (RejectedExecutionException e) {
            IllegalStateException refused = new IllegalStateException(sender.isShutdown() ? "the node is stopping"
                    : "more than " + MAX_QUEUED + " hand-overs wait for the " + topic + " producer");
            done.forEach(f -> f.completeExceptionally(refused));
        }
        return List.copyOf(done);
    }

    /** Hands over a tombstone (a null value) for {@code key}: on a compacted topic, the key's record goes. */
    public CompletionStage<Void> remove(StreamId key) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        try {
            sender.execute(() -> produce(key, null, done));
        } catch (RejectedExecutionException e) {
            done.completeExceptionally(new IllegalStateException(sender.isShutdown() ? "the node is stopping"
                    : "more than " + MAX_QUEUED + " hand-overs wait for the " + topic + " producer"));
        }
        return done;
    }

    private void produce(V record, CompletableFuture<Void> done) {
        produce(key.apply(record), record, done);
    }

    private void produce(StreamId recordKey, V record, CompletableFuture<Void> done) {
        Producer<StreamId, V> producer = this.producer;
        if (producer == null) {
            done.completeExceptionally(new IllegalStateException("the " + topic + " producer is not started"));
            return;
        }
        try {
            producer.send(new ProducerRecord<>(topic, recordKey, record), (metadata, error) -> {
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
        Producer<StreamId, V> started;
        synchronized (this) {
            started = producer;
        }
        if (started != null) {
            started.close(closeTimeout);
        }
    }
}
