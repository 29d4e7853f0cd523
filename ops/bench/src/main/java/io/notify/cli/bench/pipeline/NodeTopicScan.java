package io.notify.cli.bench.pipeline;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * A diagnostic read of a whole node topic, for {@link LostEvents}: the records whose value
 * contains one of some event ids, read once {@code read_committed} and once {@code read_uncommitted}, so a
 * delivery message that fanout wrote but whose transaction never committed tells itself apart
 * from one never written. Reads from the beginning to the end offsets taken at the start; bounded.
 */
final class NodeTopicScan {

    private static final Duration BOUND = Duration.ofSeconds(60);

    private NodeTopicScan() {
    }

    /** For each of {@code eventIds}: "committed [p@offset …], uncommitted [p@offset …]" — one read of the topic per isolation level. */
    static Map<String, String> find(String bootstrapServers, String topic, Set<String> eventIds) {
        Map<String, List<String>> committed = scan(bootstrapServers, topic, eventIds, "read_committed");
        Map<String, List<String>> uncommitted = scan(bootstrapServers, topic, eventIds, "read_uncommitted");
        Map<String, String> out = new LinkedHashMap<>();
        for (String id : eventIds) {
            out.put(id, "committed " + committed.get(id) + ", uncommitted " + uncommitted.get(id));
        }
        return out;
    }

    private static Map<String, List<String>> scan(String bootstrapServers, String topic, Set<String> eventIds, String isolation) {
        Map<String, byte[]> needles = new LinkedHashMap<>();
        Map<String, List<String>> hits = new LinkedHashMap<>();
        for (String id : eventIds) {
            needles.put(id, ("\"" + id + "\"").getBytes(StandardCharsets.UTF_8));
            hits.put(id, new ArrayList<>());
        }
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
                    if (r.value() == null) {
                        continue;
                    }
                    needles.forEach((id, needle) -> {
                        if (contains(r.value(), needle)) {
                            hits.get(id).add(r.partition() + "@" + r.offset());
                        }
                    });
                }
            }
        } catch (RuntimeException e) {
            hits.values().forEach(h -> h.add("scan failed: " + e));
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
