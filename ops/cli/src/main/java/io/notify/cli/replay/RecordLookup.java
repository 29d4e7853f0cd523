package io.notify.cli.replay;

import io.notify.schemas.topic.TopicCatalog;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.IntStream;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;

/**
 * Record look-ups for commands that answer a question about a few records rather than print a
 * window ({@code notifyctl why}), under replay's reading rules: assign + seek, no consumer group,
 * nothing committed, read_committed. A read covers the record timestamps {@code [from, to)} of the
 * partitions asked for, and stops at the end offsets {@link #captureEnds} took (for a partition not
 * captured, at its end when the read starts). The topics are listed once, when it opens.
 */
public final class RecordLookup implements AutoCloseable {

    /** Where a routing look-up read ({@link RoutingJoin}'s span around the record) and what it found. */
    public record RoutingFound(List<Routing> routes, Instant from, Instant to, List<String> topics) {
    }

    private final ConnectionOptions.Connection connection;
    private final Consumer<byte[], byte[]> consumer;
    private final Map<String, List<PartitionInfo>> topics;
    private final StopSignal stop;
    private final Map<TopicPartition, Long> ends = new HashMap<>();
    private boolean interrupted;

    private RecordLookup(ConnectionOptions.Connection connection, Consumer<byte[], byte[]> consumer) {
        this.connection = connection;
        this.consumer = consumer;
        this.topics = consumer.listTopics(connection.timeout());
        this.stop = StopSignal.onCtrlC(consumer);
    }

    /** Connects; a Kafka failure (unreachable, timed out) is thrown as Kafka's exception. */
    public static RecordLookup open(ConnectionOptions.Connection connection) {
        Consumer<byte[], byte[]> consumer = KafkaClients.consumer(connection.bootstrap(), connection.kafkaProperties());
        try {
            return new RecordLookup(connection, consumer);
        } catch (RuntimeException e) {
            consumer.close();
            throw e;
        }
    }

    public TopicCatalog catalog() {
        return connection.catalog();
    }

    /** True when {@code topic} (a full name) exists on the cluster. */
    public boolean exists(String topic) {
        return topics.containsKey(topic);
    }

    /** A {@link UsageException} (exit 2) when {@code topic} does not exist, as replay says it. */
    public void require(String topic) {
        if (!exists(topic)) {
            throw new UsageException("topic '" + topic + "' does not exist on this cluster"
                    + " (check --topic-prefix and --bootstrap-servers)");
        }
    }

    /** Every partition of {@code topic}, ascending; empty when it does not exist. */
    public List<Integer> partitions(String topic) {
        return IntStream.range(0, topics.getOrDefault(topic, List.of()).size()).boxed().toList();
    }

    /** The partition Kafka's default partitioner (which fan-out's writes use) gives {@code key} on {@code topic}. */
    public int partitionOf(String topic, String key) {
        require(topic);
        return KafkaClients.partitionOf(key.getBytes(StandardCharsets.UTF_8), topics.get(topic).size());
    }

    /** The partitions a {@link #routing} look-up of {@code stream} reads: the key's on each node topic and notify.undelivered. */
    public List<TopicPartition> routingPartitions(String stream) {
        return RoutingJoin.partitions(topics, catalog(), stream);
    }

    /** Takes the end offsets of these partitions now (one request): reads of them stop there. */
    public void captureEnds(Collection<TopicPartition> partitions) {
        List<TopicPartition> existing = partitions.stream().filter(tp -> exists(tp.topic())).distinct().toList();
        if (!existing.isEmpty()) {
            ends.putAll(consumer.endOffsets(existing, connection.timeout()));
        }
    }

    /**
     * Hands {@code sink}, in replay order, the records of {@code partitions} of {@code topic} stamped in
     * {@code [from, to)} whose key is {@code key} (null: any key), with the value fields at {@code paths}
     * scanned. The sink returns false to stop the read.
     */
    public void scan(String topic, Collection<Integer> partitions, Instant from, Instant to, String key, Set<String> paths,
                     Predicate<Row> sink) throws IOException {
        if (partitions.isEmpty() || stop.requested()) {
            return;
        }
        Window window = new Window(from, to, null, null);
        List<TopicPartition> tps = partitions.stream().map(p -> new TopicPartition(topic, p)).toList();
        byte[] keyBytes = key == null ? null : key.getBytes(StandardCharsets.UTF_8);
        var ranges = window.resolve(consumer, tps, connection.timeout(), ends);
        BoundedRead.Result r = new BoundedRead(consumer, ranges,
                rec -> window.admits(rec.timestamp()) && (keyBytes == null || Arrays.equals(rec.key(), keyBytes)),
                row -> true, new ValueScan.Paths(paths), Progress.off(), stop, connection.timeout()).run(sink::test);
        interrupted |= r.interrupted();
    }

    /** Where the router sent the event {@code epoch}/{@code seq} of {@code stream}; {@code timestamp}: its stream-log record's. */
    public RoutingFound routing(String stream, String epoch, long seq, long timestamp) throws IOException {
        List<TopicPartition> partitions = routingPartitions(stream);
        Window span = RoutingJoin.span(timestamp, timestamp);
        List<Routing> routes = stop.requested() ? List.of() : RoutingJoin.routings(consumer, catalog(), stream, partitions,
                span, connection.timeout(), stop, ends).getOrDefault(RoutingJoin.position(epoch, Long.toString(seq)), List.of());
        interrupted |= stop.requested();
        return new RoutingFound(routes, span.from(), span.to(), partitions.stream().map(TopicPartition::topic).toList());
    }

    /** True once Ctrl-C (or a thread interrupt) stopped a read: what was found is incomplete. */
    public boolean interrupted() {
        return interrupted || stop.requested();
    }

    @Override
    public void close() {
        stop.close();
        consumer.close();
    }
}
