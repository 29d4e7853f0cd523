package io.notify.fanout.commit;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerInterceptor;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.RecordMetadata;

/**
 * Commit when caught up: under {@code exactly_once_v2} a routed event is visible to the gateways
 * only once the transaction that wrote it commits, and Kafka Streams commits when the commit
 * interval has passed. At low and moderate load that wait (half an interval on average, plus the
 * commit itself) was most of an event's latency (docs/BENCHMARKS.md "Exactly-once: where the
 * milliseconds go"). This asks for the commit as soon as the stream thread has processed
 * everything it had: the events that arrive during one commit are processed and committed by the
 * next one (a group commit), so an event waits about one commit round trip, not the interval.
 *
 * <p>"Everything it had" is decided per poll of the main consumer, on the stream thread: a poll
 * that returned fewer records than {@code max.poll.records} drained the consumer's buffer (a
 * backlog fills every poll), and {@link #processed} is called by the first processor of every
 * input record; when the last record of every partition of such a poll has been processed, the
 * task asks Kafka Streams to commit ({@link ProcessorContext#commit()}), which it does right after
 * the current processing round — all of the thread's tasks in one transaction. A full poll (a
 * backlog) asks nothing: the commit interval paces commits there, so a broker outage's backlog
 * drains in large transactions. A record no processor saw (a skipped record) leaves its poll
 * without a request, which is only a commit at the interval, never a missed one.
 *
 * <p>Commit timing changes no delivery semantics: what a transaction holds is atomic whatever
 * its size, and a crash replays exactly the uncommitted input (FanoutCrashIT).
 *
 * <p>Installed on the main consumer by {@code FanoutStreamsConfig} (with
 * {@code notify.fanout.commit-on-catch-up}, default on). Never throws, never blocks, changes no record.
 */
public final class CatchUpCommit implements ConsumerInterceptor<byte[], byte[]> {

    /** The last offset polled per partition of the current poll, while that poll may end in a commit; per stream thread. */
    private static final ThreadLocal<Map<TopicPartition, Long>> PENDING = ThreadLocal.withInitial(HashMap::new);

    private int maxPollRecords = ConsumerConfig.DEFAULT_MAX_POLL_RECORDS;

    @Override
    public void configure(Map<String, ?> configs) {
        Object max = configs.get(ConsumerConfig.MAX_POLL_RECORDS_CONFIG);
        if (max != null) {
            maxPollRecords = Integer.parseInt(max.toString().trim());
        }
    }

    @Override
    public ConsumerRecords<byte[], byte[]> onConsume(ConsumerRecords<byte[], byte[]> records) {
        polled(records, maxPollRecords);
        return records;
    }

    /** Records what a poll returned, on the polling thread: a short poll's last offsets; a full or empty one clears them. */
    static void polled(ConsumerRecords<byte[], byte[]> records, int maxPollRecords) {
        Map<TopicPartition, Long> pending = PENDING.get();
        pending.clear();
        if (records.isEmpty() || records.count() >= maxPollRecords) {
            return;
        }
        for (TopicPartition partition : records.partitions()) {
            List<ConsumerRecord<byte[], byte[]>> polled = records.records(partition);
            pending.put(partition, polled.get(polled.size() - 1).offset());
        }
    }

    /**
     * Called by the first processor of each input record, before it does anything else: when this
     * was the last record still pending of a caught-up poll, asks for a commit. Cheap when nothing
     * is pending (one thread-local read).
     *
     * @return whether a commit was asked for
     */
    public static boolean processed(ProcessorContext<?, ?> context) {
        Map<TopicPartition, Long> pending = PENDING.get();
        if (pending.isEmpty()) {
            return false;
        }
        RecordMetadata source = context.recordMetadata().orElse(null);
        if (source == null) {
            return false;
        }
        TopicPartition partition = new TopicPartition(source.topic(), source.partition());
        Long last = pending.get(partition);
        if (last == null || source.offset() < last) {
            return false;
        }
        pending.remove(partition);
        if (!pending.isEmpty()) {
            return false;
        }
        context.commit();
        return true;
    }

    @Override
    public void onCommit(Map<TopicPartition, OffsetAndMetadata> offsets) {
    }

    @Override
    public void close() {
        PENDING.remove();
    }
}
