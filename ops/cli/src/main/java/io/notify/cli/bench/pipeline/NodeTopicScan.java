package io.notify.cli.bench.pipeline;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * A diagnostic read of a whole node topic, for {@link LostEvents}: the records whose value
 * contains an event id, read once {@code read_committed} and once {@code read_uncommitted}, so a
 * delivery message that fanout wrote but whose transaction never committed tells itself apart
 * from one never written. Reads from the beginning to the end offsets taken at the start; bounded.
 */
final class NodeTopicScan {

    private static final Duration BOUND = Duration.ofSeconds(60);

    private NodeTopicScan() {
    }

    /** "committed: p@offset …; uncommitted: …" for the records of {@code topic} holding {@code eventId}. */
    static String find(String bootstrapServers, String topic, String eventId) {
        return "committed " + scan(bootstrapServers, topic, eventId, "read_committed") + ", uncommitted "
                + scan(bootstrapServers, topic, eventId, "read_uncommitted");
    }

    private static List<String> scan(String bootstrapServers, String topic, String eventId, String isolation) {
        byte[] needle = ("\"" + eventId + "\"").getBytes(StandardCharsets.UTF_8);
        List<String> hits = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, isolation, ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false,
                ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 5000), new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> tps = c.partitionsFor(topic, BOUND).stream()
                    .map(p -> new TopicPartition(p.topic(), p.partition())).toList();
            c.assign(tps);
            c.seekToBeginning(tps);
            Map<TopicPartition, Long> end = c.endOffsets(tps, BOUND);
            long deadline = System.nanoTime() + BOUND.toNanos();
            while (tps.stream().anyMatch(tp -> c.position(tp, BOUND) < end.get(tp)) && System.nanoTime() < deadline) {
                for (ConsumerRecord<byte[], byte[]> r : c.poll(Duration.ofMillis(500))) {
                    if (r.value() != null && contains(r.value(), needle)) {
                        hits.add(r.partition() + "@" + r.offset());
                    }
                }
            }
        } catch (RuntimeException e) {
            hits.add("scan failed: " + e);
        }
        return hits;
    }

    static boolean contains(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }
}
