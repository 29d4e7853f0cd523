package io.notify.push.sender;

import io.notify.protocol.inbox.FallbackRecord;
import io.notify.protocol.push.PushRegistration;
import io.notify.push.metrics.PushMetrics;
import io.notify.push.provider.PushMessage;
import io.notify.schemas.serde.NotifySerdes;
import io.notify.schemas.topic.DlqFailure;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.consumer.CommitFailedException;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.errors.WakeupException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sender's loop over {@code notify.fallback} (docs/push.md, "Guarantees"), on its own thread:
 * poll a batch, push every record of channel {@code push} to every registration it carries (all at
 * once, within the providers' in-flight bounds), and commit the batch's offsets only when every
 * push of it reached a final outcome and every outcome record was acknowledged. While a batch is in
 * flight the consumer's partitions are paused and it keeps polling, so it stays in its group however
 * long the retries take. Other channels are skipped (counted); an unreadable record goes to the DLQ.
 *
 * <p>So a push is sent at least once per (event, registration), and twice only when the sender dies
 * or loses its partitions between a push and its batch's commit: the batch is then read again by the
 * next owner. Such a repeat carries the same collapse id (Web Push {@code Topic}, FCM
 * {@code collapse_key}, APNs {@code apns-collapse-id} and {@code apns-id}), so the device shows it
 * once. A partition revoked while a batch is in flight waits up to {@code rebalance-wait} for it, then
 * commits what finished. If Kafka refuses an outcome, the batch is read again from its first offsets.
 */
public final class FallbackConsumer implements Runnable {

    private static final Logger LOG = LoggerFactory.getLogger(FallbackConsumer.class);
    private static final Duration POLL = Duration.ofMillis(100);

    private final Consumer<byte[], byte[]> consumer;
    private final String topic;
    private final Delivery delivery;
    private final Duration ttl;
    private final Duration rebalanceWait;
    private final Clock clock;
    private final PushMetrics metrics;
    private volatile boolean running = true;
    private volatile CompletableFuture<Void> inFlight = CompletableFuture.completedFuture(null);
    private final Map<TopicPartition, Long> batchFirst = new HashMap<>();
    private final Map<TopicPartition, Long> batchNext = new HashMap<>();

    FallbackConsumer(Consumer<byte[], byte[]> consumer, String topic, Delivery delivery, Duration ttl, Duration rebalanceWait,
                     Clock clock, PushMetrics metrics) {
        this.consumer = consumer;
        this.topic = topic;
        this.delivery = delivery;
        this.ttl = ttl;
        this.rebalanceWait = rebalanceWait;
        this.clock = clock;
        this.metrics = metrics;
    }

    @Override
    public void run() {
        consumer.subscribe(List.of(topic), new Rebalance());
        try {
            while (running) {
                ConsumerRecords<byte[], byte[]> records = consumer.poll(POLL);
                if (!records.isEmpty()) {
                    runBatch(records);
                }
            }
        } catch (WakeupException e) {
            if (running) {
                throw e;
            }
        } finally {
            finishOnStop();
            consumer.close(Duration.ofSeconds(5));
        }
    }

    /** Stops polling; what is in flight gets {@code rebalance-wait} to finish and be committed. */
    public void stop() {
        running = false;
        consumer.wakeup();
    }

    private void runBatch(ConsumerRecords<byte[], byte[]> records) {
        batchFirst.clear();
        batchNext.clear();
        List<CompletableFuture<Void>> pushes = new ArrayList<>();
        for (ConsumerRecord<byte[], byte[]> record : records) {
            TopicPartition tp = new TopicPartition(record.topic(), record.partition());
            batchFirst.putIfAbsent(tp, record.offset());
            batchNext.put(tp, record.offset() + 1);
            pushes.addAll(handle(record));
        }
        inFlight = CompletableFuture.allOf(pushes.toArray(CompletableFuture[]::new));
        consumer.pause(consumer.assignment());
        try {
            while (!inFlight.isDone()) {
                ConsumerRecords<byte[], byte[]> stray = consumer.poll(POLL); // keeps the group; paused: nothing comes
                if (!stray.isEmpty()) { // a partition assigned during the batch and not yet paused: read it again later
                    stray.partitions().forEach(tp -> consumer.seek(tp, stray.records(tp).get(0).offset()));
                    consumer.pause(consumer.assignment());
                }
            }
            commitOrRewind();
        } finally {
            consumer.resume(consumer.paused());
        }
    }

    private List<CompletableFuture<Void>> handle(ConsumerRecord<byte[], byte[]> record) {
        FallbackRecord r;
        try {
            r = NotifySerdes.fallbackRecord().deserializer().deserialize(record.topic(), record.value());
        } catch (SerializationException | IllegalArgumentException e) {
            metrics.fallback("unreadable");
            DlqFailure failure = new DlqFailure("unreadable fallback record: " + e.getMessage(), "unreadable", record.topic(),
                    record.partition(), record.offset(), clock.instant());
            return List.of(delivery.outcomes().dlq(record.key(), record.value(), failure, null));
        }
        if (r == null || !FallbackRecord.PUSH_CHANNEL.equals(r.channel())) {
            metrics.fallback("skipped_channel");
            return List.of();
        }
        metrics.fallback("handled");
        metrics.lateness(clock.millis() - r.dueAt());
        if (r.push().isEmpty()) {
            return List.of(delivery.noRegistration(r));
        }
        PushMessage message = PushMessages.of(r, ttl);
        Delivery.Source source = new Delivery.Source(record.topic(), record.partition(), record.offset());
        List<CompletableFuture<Void>> out = new ArrayList<>(r.push().size());
        boolean expired = clock.millis() - r.dueAt() > ttl.toMillis(); // a sender far behind: the push would be stale
        for (PushRegistration to : r.push()) {
            out.add(expired ? delivery.expired(r, to, record.key(), source, ttl) : delivery.deliver(r, to, message, record.key(), source));
        }
        return out;
    }

    /** Commits the batch (the partitions still ours), or rewinds it when an outcome could not be written. */
    private void commitOrRewind() {
        boolean failed = inFlight.isCompletedExceptionally();
        Set<TopicPartition> owned = consumer.assignment();
        if (failed) {
            LOG.warn("an outcome of the last batch was not written; reading the batch again", inFlightError());
            batchFirst.forEach((tp, offset) -> {
                if (owned.contains(tp)) {
                    consumer.seek(tp, offset);
                }
            });
        } else {
            commit(owned);
        }
        batchFirst.clear();
        batchNext.clear();
    }

    private void commit(Collection<TopicPartition> partitions) {
        Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
        for (TopicPartition tp : partitions) {
            Long next = batchNext.remove(tp);
            if (next != null) {
                offsets.put(tp, new OffsetAndMetadata(next));
            }
        }
        if (offsets.isEmpty()) {
            return;
        }
        try {
            consumer.commitSync(offsets);
        } catch (CommitFailedException e) { // the partitions moved on: their next owner reads the batch again
            LOG.warn("the batch's commit failed ({}); its pushes may be repeated by the partitions' next owner", e.getMessage());
        }
    }

    private Throwable inFlightError() {
        try {
            inFlight.join();
            return null;
        } catch (RuntimeException e) {
            return e.getCause() != null ? e.getCause() : e;
        }
    }

    /** Waits a bounded time for the batch in flight; commits it for {@code partitions} if it finished well. */
    private void settle(Collection<TopicPartition> partitions) {
        try {
            inFlight.get(rebalanceWait.toMillis(), TimeUnit.MILLISECONDS);
            commit(partitions);
        } catch (TimeoutException e) {
            LOG.warn("a batch was still in flight after {}; its pushes may be repeated by the partitions' next owner", rebalanceWait);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (java.util.concurrent.ExecutionException e) {
            LOG.warn("an outcome of the batch was not written; its partitions' next owner reads it again", e.getCause());
        }
    }

    private void finishOnStop() {
        if (!inFlight.isDone() || !batchNext.isEmpty()) {
            try {
                settle(new HashSet<>(consumer.assignment()));
            } catch (RuntimeException e) {
                LOG.warn("could not commit the last batch on stop: {}", e.toString());
            }
        }
    }

    /** Partitions revoked mid-batch: settle first; assigned mid-batch: paused until the batch is done. */
    private final class Rebalance implements ConsumerRebalanceListener {
        @Override
        public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
            if (!inFlight.isDone() || !batchNext.isEmpty()) {
                settle(partitions);
            }
        }

        @Override
        public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
            if (!inFlight.isDone()) {
                consumer.pause(partitions);
            }
        }
    }
}
