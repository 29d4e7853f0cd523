package io.notify.push.sender;

import io.notify.protocol.inbox.FallbackRecord;
import io.notify.protocol.push.PushRegistration;
import io.notify.push.metrics.PushMetrics;
import io.notify.push.provider.PushMessage;
import io.notify.schemas.serde.NotifySerdes;
import io.notify.schemas.topic.DlqFailure;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
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
 * every record polled is handed over at once (each of channel {@code push} to every registration it
 * carries, within the providers' in-flight bounds), and a partition's offset is committed up to the
 * first record whose pushes are not all at a final outcome with their outcome records acknowledged:
 * records finish out of order, offsets move in order. At most {@code maxPending} records wait at a
 * time: past it the partitions are paused (and still polled, so the instance stays in its group).
 * Other channels are skipped (counted); an unreadable record goes to the DLQ.
 *
 * <p>So a push is sent at least once per (event, registration), and twice only when the sender dies
 * or loses its partitions between a push and the commit that covers it: the next owner reads the
 * record again. Such a repeat carries the same collapse id (Web Push {@code Topic}, FCM
 * {@code collapse_key}, APNs {@code apns-collapse-id} and {@code apns-id}), so the device shows it
 * once. A partition revoked (or a stop) waits up to {@code rebalance-wait} for its records, then
 * commits what finished. If Kafka refuses an outcome record, the partition is read again from that
 * record.
 */
public final class FallbackConsumer implements Runnable {

    private static final Logger LOG = LoggerFactory.getLogger(FallbackConsumer.class);
    /** The poll's wait with nothing in flight. */
    private static final Duration IDLE_POLL = Duration.ofMillis(100);
    /** The poll's wait while records are in flight: how soon a finished one is committed. */
    private static final Duration BUSY_POLL = Duration.ofMillis(10);
    /** Commits at most this often while records finish. */
    private static final long COMMIT_EVERY_MS = 50;

    /** A record handed over, and when all of its pushes are done. */
    private record Pending(long offset, CompletableFuture<Void> done) {
    }

    private final Consumer<byte[], byte[]> consumer;
    private final String topic;
    private final Delivery delivery;
    private final Duration ttl;
    private final Duration rebalanceWait;
    private final int maxPending;
    private final Clock clock;
    private final PushMetrics metrics;
    private final Map<TopicPartition, ArrayDeque<Pending>> pending = new HashMap<>(); // the consumer thread's only
    private int pendingCount;
    private long lastCommit;
    private volatile boolean running = true;

    FallbackConsumer(Consumer<byte[], byte[]> consumer, String topic, Delivery delivery, Duration ttl, Duration rebalanceWait,
                     int maxPending, Clock clock, PushMetrics metrics) {
        this.consumer = consumer;
        this.topic = topic;
        this.delivery = delivery;
        this.ttl = ttl;
        this.rebalanceWait = rebalanceWait;
        this.maxPending = maxPending;
        this.clock = clock;
        this.metrics = metrics;
    }

    @Override
    public void run() {
        consumer.subscribe(List.of(topic), new Rebalance());
        try {
            while (running) {
                ConsumerRecords<byte[], byte[]> records = consumer.poll(pendingCount == 0 ? IDLE_POLL : BUSY_POLL);
                for (ConsumerRecord<byte[], byte[]> record : records) {
                    TopicPartition tp = new TopicPartition(record.topic(), record.partition());
                    pending.computeIfAbsent(tp, k -> new ArrayDeque<>()).add(new Pending(record.offset(), handle(record)));
                    pendingCount++;
                }
                commitFinished(false);
                if (pendingCount >= maxPending) {
                    consumer.pause(consumer.assignment());
                } else if (!consumer.paused().isEmpty()) {
                    consumer.resume(consumer.paused());
                }
            }
        } catch (WakeupException e) {
            if (running) {
                throw e;
            }
        } finally {
            try {
                settle(new HashSet<>(pending.keySet()));
            } catch (RuntimeException e) {
                LOG.warn("could not commit the last pushes on stop: {}", e.toString());
            }
            consumer.close(Duration.ofSeconds(5));
        }
    }

    /** Stops polling; what is in flight gets {@code rebalance-wait} to finish and be committed. */
    public void stop() {
        running = false;
        consumer.wakeup();
    }

    /** All of one record's pushes: done when each reached its final outcome and its records were acknowledged. */
    private CompletableFuture<Void> handle(ConsumerRecord<byte[], byte[]> record) {
        List<CompletableFuture<Void>> pushes = pushes(record);
        return pushes.isEmpty() ? CompletableFuture.completedFuture(null)
                : pushes.size() == 1 ? pushes.get(0) : CompletableFuture.allOf(pushes.toArray(CompletableFuture[]::new));
    }

    private List<CompletableFuture<Void>> pushes(ConsumerRecord<byte[], byte[]> record) {
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

    /**
     * Commits each partition up to its first unfinished record (at most every {@value #COMMIT_EVERY_MS} ms
     * unless {@code now}); a record whose outcome Kafka refused sends its partition back to it.
     */
    private void commitFinished(boolean now) {
        if (pendingCount == 0 || !now && clock.millis() - lastCommit < COMMIT_EVERY_MS) {
            return;
        }
        Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
        for (Map.Entry<TopicPartition, ArrayDeque<Pending>> e : pending.entrySet()) {
            ArrayDeque<Pending> queue = e.getValue();
            long next = -1;
            while (!queue.isEmpty() && queue.peekFirst().done().isDone()) {
                Pending head = queue.peekFirst();
                if (head.done().isCompletedExceptionally()) {
                    LOG.warn("an outcome of {} offset {} was not written; reading the partition again from it", e.getKey(), head.offset());
                    consumer.seek(e.getKey(), head.offset()); // what was handed over after it is read again too
                    pendingCount -= queue.size();
                    queue.clear();
                    break;
                }
                next = queue.pollFirst().offset() + 1;
                pendingCount--;
            }
            if (next >= 0) {
                offsets.put(e.getKey(), new OffsetAndMetadata(next));
            }
        }
        lastCommit = clock.millis();
        if (offsets.isEmpty()) {
            return;
        }
        try {
            consumer.commitSync(offsets);
        } catch (CommitFailedException e) { // the partitions moved on: their next owner reads those records again
            LOG.warn("a commit failed ({}); its pushes may be repeated by the partitions' next owner", e.getMessage());
        }
    }

    /** Waits up to {@code rebalance-wait} for the records of {@code partitions}, commits what finished, forgets them. */
    private void settle(Collection<TopicPartition> partitions) {
        List<CompletableFuture<Void>> waits = new ArrayList<>();
        for (TopicPartition tp : partitions) {
            ArrayDeque<Pending> queue = pending.get(tp);
            if (queue != null) {
                queue.forEach(p -> waits.add(p.done()));
            }
        }
        try {
            CompletableFuture.allOf(waits.toArray(CompletableFuture[]::new)).get(rebalanceWait.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            LOG.warn("pushes were still in flight after {}; they may be repeated by the partitions' next owner", rebalanceWait);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (java.util.concurrent.ExecutionException e) {
            LOG.warn("an outcome was not written; the partitions' next owner reads those records again", e.getCause());
        }
        Map<TopicPartition, ArrayDeque<Pending>> others = new HashMap<>(pending);
        others.keySet().removeAll(partitions);
        pending.keySet().retainAll(partitions);
        commitFinished(true); // only the settled partitions are in the map now
        pending.clear();
        pending.putAll(others);
        pendingCount = others.values().stream().mapToInt(ArrayDeque::size).sum();
    }

    /** Partitions revoked: their records settle first. */
    private final class Rebalance implements ConsumerRebalanceListener {
        @Override
        public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
            settle(partitions);
        }

        @Override
        public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
        }

        @Override
        public void onPartitionsLost(Collection<TopicPartition> partitions) {
            // gone without a chance to commit: their next owner reads those records again
            partitions.forEach(tp -> {
                ArrayDeque<Pending> queue = pending.remove(tp);
                pendingCount -= queue == null ? 0 : queue.size();
            });
        }
    }
}
