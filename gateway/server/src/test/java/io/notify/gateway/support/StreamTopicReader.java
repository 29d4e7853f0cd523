package io.notify.gateway.support;

import io.notify.devstack.Await;
import io.notify.devstack.Infra;
import io.notify.protocol.stream.StreamId;
import io.notify.schemas.topic.Topic;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;

/**
 * A test's view of one of its prefixed topics keyed by stream ({@code notify.receipts},
 * {@code notify.push-changes}): creates the topic, then reads every partition from the beginning
 * with a real consumer ({@code read_committed}) and keeps what it read by stream, so each test asks
 * for its own users' records. Not thread-safe: the test's thread only.
 */
public class StreamTopicReader<V> implements AutoCloseable {

    private final KafkaConsumer<StreamId, V> consumer;
    private final Map<StreamId, List<ConsumerRecord<StreamId, V>>> read = new HashMap<>();

    public StreamTopicReader(Infra infra, Topic<StreamId, V> topic, int partitions) {
        infra.createTopic(topic.name(), partitions);
        consumer = new KafkaConsumer<>(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, infra.bootstrapServers(),
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed"),
                topic.keySerde().deserializer(), topic.valueSerde().deserializer());
        List<TopicPartition> parts = IntStream.range(0, partitions).mapToObj(p -> new TopicPartition(topic.name(), p)).toList();
        consumer.assign(parts);
        consumer.seekToBeginning(parts);
    }

    /** The records of {@code stream} read so far, after reading until there are at least {@code atLeast}. */
    public List<ConsumerRecord<StreamId, V>> of(StreamId stream, int atLeast, Duration timeout) {
        Await.until(() -> atLeast + " records of " + stream + ", got " + read.getOrDefault(stream, List.of()), timeout, () -> {
            poll();
            return read.getOrDefault(stream, List.of()).size() >= atLeast;
        });
        return List.copyOf(read.get(stream));
    }

    /** The values of {@link #of}. */
    public List<V> valuesOf(StreamId stream, int atLeast, Duration timeout) {
        return of(stream, atLeast, timeout).stream().map(ConsumerRecord::value).toList();
    }

    /** Every record of {@code stream} the broker acknowledged until now: the topic read up to its end as it is now. */
    public List<ConsumerRecord<StreamId, V>> allOf(StreamId stream, Duration timeout) {
        Map<TopicPartition, Long> end = consumer.endOffsets(consumer.assignment());
        Await.until("the topic read to its end " + end, timeout, () -> {
            poll();
            return end.entrySet().stream().allMatch(e -> consumer.position(e.getKey()) >= e.getValue());
        });
        return List.copyOf(read.getOrDefault(stream, List.of()));
    }

    private void poll() {
        for (ConsumerRecord<StreamId, V> r : consumer.poll(Duration.ofMillis(50))) {
            read.computeIfAbsent(r.key(), k -> new ArrayList<>()).add(r);
        }
    }

    @Override
    public void close() {
        consumer.close();
    }
}
