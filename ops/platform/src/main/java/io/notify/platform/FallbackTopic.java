package io.notify.platform;

import io.notify.protocol.inbox.FallbackRecord;
import io.notify.protocol.stream.StreamId;
import io.notify.schemas.topic.TopicCatalog;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.function.Predicate;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;

/**
 * Reads {@code notify.fallback} from the start, {@code read_committed}, for tests and benches that
 * check which events fell back: until {@code done} holds of what was read, then {@code settle} more
 * (for a record that should not be there), or until {@code bound}.
 */
public final class FallbackTopic {

    private FallbackTopic() {
    }

    public static List<FallbackRecord> readUntil(String bootstrap, TopicCatalog topics, Predicate<List<FallbackRecord>> done,
                                                 Duration settle, Duration bound) {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        p.put(ConsumerConfig.GROUP_ID_CONFIG, "fallback-reader-" + System.nanoTime());
        List<FallbackRecord> out = new ArrayList<>();
        try (KafkaConsumer<StreamId, FallbackRecord> c = new KafkaConsumer<>(p, topics.fallback().keySerde().deserializer(),
                topics.fallback().valueSerde().deserializer())) {
            c.subscribe(List.of(topics.fallback().name()));
            long deadline = System.nanoTime() + bound.toNanos();
            long settled = Long.MAX_VALUE;
            while (System.nanoTime() < Math.min(deadline, settled)) {
                for (ConsumerRecord<StreamId, FallbackRecord> r : c.poll(Duration.ofMillis(200))) {
                    out.add(r.value());
                }
                if (settled == Long.MAX_VALUE && done.test(out)) {
                    settled = System.nanoTime() + settle.toNanos();
                }
            }
        }
        return out;
    }
}
