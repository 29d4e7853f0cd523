package io.notify.cli.bench;

import io.notify.cli.bench.report.Stats;
import io.notify.protocol.inbox.FallbackRecord;
import io.notify.schemas.serde.NotifySerdes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * What {@code bench fallback} reads back: every record of the run's {@code notify.fallback},
 * {@code read_committed} (what a push sender sees), reduced to the event's id and the three times
 * that matter; and {@link Timing}, the pure arithmetic over them.
 */
final class FallbackRecords {

    /** One record: the event it is for, when the event was sequenced, when its fallback was due, and when it was written. */
    record Seen(String eventId, long sequencedAt, long dueAt, long at) {
    }

    /**
     * The records of one run against the events that asked for a fallback.
     *
     * @param missing            events with no record ({@code expected} minus distinct event ids)
     * @param duplicates         records beyond the first for an event (0 under exactly_once_v2)
     * @param latenessMinMs      {@code at - dueAt}, least; p50, p99 (nearest rank) and max follow
     * @param sequencingSeconds  first to last {@code sequencedAt}: how long the backlog took to sequence
     * @param allPendingAtOnce   the last event was sequenced before the first fallback was due, so every
     *                           one was pending at once (else {@code --after} was too short)
     * @param dueSpanSeconds     first to last due time (= the sequencing span): the drain cannot be faster
     *                           than the due times come
     * @param drainSeconds       first due time to the last record's {@code at}
     * @param drainPerSecond     records / {@code drainSeconds}
     * @param lastRecordAfterLastDueMs the last record's {@code at} minus the last due time
     */
    record Timing(long records, long missing, long duplicates, double latenessMinMs, double latenessP50Ms,
                  double latenessP99Ms, double latenessMaxMs, double sequencingSeconds, boolean allPendingAtOnce,
                  double dueSpanSeconds, double drainSeconds, double drainPerSecond, double lastRecordAfterLastDueMs) {

        static Timing of(List<Seen> seen, long expected) {
            long distinct = new HashSet<>(seen.stream().map(Seen::eventId).toList()).size();
            long[] lateness = seen.stream().mapToLong(s -> s.at() - s.dueAt()).sorted().toArray();
            if (seen.isEmpty()) {
                return new Timing(0, expected, 0, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, false,
                        Double.NaN, Double.NaN, Double.NaN, Double.NaN);
            }
            long firstSequenced = seen.stream().mapToLong(Seen::sequencedAt).min().orElseThrow();
            long lastSequenced = seen.stream().mapToLong(Seen::sequencedAt).max().orElseThrow();
            long firstDue = seen.stream().mapToLong(Seen::dueAt).min().orElseThrow();
            long lastDue = seen.stream().mapToLong(Seen::dueAt).max().orElseThrow();
            long lastAt = seen.stream().mapToLong(Seen::at).max().orElseThrow();
            double drain = (lastAt - firstDue) / 1000.0;
            return new Timing(seen.size(), Math.max(0, expected - distinct), seen.size() - distinct,
                    lateness[0], Stats.quantile(lateness, 0.5), Stats.quantile(lateness, 0.99), lateness[lateness.length - 1],
                    (lastSequenced - firstSequenced) / 1000.0, lastSequenced < firstDue, (lastDue - firstDue) / 1000.0,
                    drain, drain > 0 ? seen.size() / drain : Double.NaN, lastAt - lastDue);
        }
    }

    private FallbackRecords() {
    }

    /**
     * Reads {@code topic} from the beginning until {@code expected} records are seen and the
     * committed end is reached (so duplicates would show), or {@code bound} passes (then what was
     * read; the caller counts the rest missing).
     */
    static List<Seen> read(String bootstrap, String topic, long expected, Duration bound) {
        return read(bootstrap, topic, expected, bound, f -> new Seen(f.event().id(), f.event().sequencedAt(), f.dueAt(), f.at()));
    }

    /** As {@link #read(String, String, long, Duration)}, each record reduced by {@code reduce} (the quiet and digest modes keep more). */
    static <T> List<T> read(String bootstrap, String topic, long expected, Duration bound, Function<FallbackRecord, T> reduce) {
        var deserializer = NotifySerdes.fallbackRecord().deserializer();
        List<T> seen = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed", ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false,
                ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 10_000), new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic, bound).stream()
                    .map(p -> new TopicPartition(topic, p.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            long deadline = System.nanoTime() + bound.toNanos();
            Map<TopicPartition, Long> end = null;
            while (System.nanoTime() - deadline < 0) {
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    seen.add(reduce.apply(deserializer.deserialize(topic, r.value())));
                }
                if (seen.size() >= expected && end == null) {
                    end = consumer.endOffsets(partitions, bound); // the committed end now: read up to it, then stop
                }
                if (end != null && reached(consumer, end, bound)) {
                    break;
                }
            }
        }
        return seen;
    }

    private static boolean reached(KafkaConsumer<?, ?> consumer, Map<TopicPartition, Long> end, Duration bound) {
        return end.entrySet().stream().allMatch(e -> consumer.position(e.getKey(), bound) >= e.getValue());
    }
}
