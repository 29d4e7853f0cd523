package io.notify.cli.replay;

import io.notify.schemas.topic.TopicCatalog;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;

/**
 * {@code --with-routing}: for the stream-log rows of one user, finds where the router sent each
 * event. The router writes a {@code DeliveryMessage} to {@code notify.node.<node>} per node it
 * routes to, or an {@code UndeliveredEvent} to {@code notify.undelivered}, both keyed by stream.
 * This reads every node topic and notify.undelivered (of each, the one partition the stream's key
 * is in) over the selected rows' time span widened by {@link #SLACK} on each side (routing happens
 * just after sequencing, and a record may carry the timestamp of its input), keeps the records of
 * the user's stream, and joins them to the rows by (stream, epoch, seq). "Where recorded": node
 * topics keep one hour and notify.undelivered three days, so older events show no routing;
 * ephemeral deliveries have no seq and are not joined. {@code notifyctl why} reads one event's
 * routing the same way, through {@link RecordLookup#routing}.
 */
final class RoutingJoin {

    static final Duration SLACK = Duration.ofMinutes(5);
    static final Set<String> PATHS = Set.of("event.epoch", "event.seq", "connections", "routedAt", "reason", "at");

    private RoutingJoin() {
    }

    /** The topics a routing join reads among {@code all} (a listTopics answer): every node topic and notify.undelivered. */
    static List<String> topics(Map<String, List<PartitionInfo>> all, TopicCatalog catalog) {
        List<String> out = new ArrayList<>(all.keySet().stream().filter(t -> catalog.nodeIdOf(t).isPresent()).sorted().toList());
        if (all.containsKey(catalog.undelivered().name())) {
            out.add(catalog.undelivered().name());
        }
        return out;
    }

    /** The partition the stream's key is in, on each of the {@link #topics} among {@code all}. */
    static List<TopicPartition> partitions(Map<String, List<PartitionInfo>> all, TopicCatalog catalog, String stream) {
        byte[] key = stream.getBytes(StandardCharsets.UTF_8);
        return topics(all, catalog).stream()
                .map(topic -> new TopicPartition(topic, KafkaClients.partitionOf(key, all.get(topic).size()))).toList();
    }

    /** What a join reads for records stamped {@code min..max} (epoch ms): that span widened by {@link #SLACK}. */
    static Window span(long min, long max) {
        return new Window(Instant.ofEpochMilli(min), Instant.ofEpochMilli(max + 1), null, null).widenedInTime(SLACK);
    }

    /** The key of one event's routing in {@link #routings}: its position in the stream. */
    static String position(String epoch, String seq) {
        return epoch + ":" + seq;
    }

    /** Sets the routing of every row (all of {@code stream}); rows must be non-empty. */
    static long join(Consumer<byte[], byte[]> consumer, TopicCatalog catalog, String stream, List<Row> rows,
                     Duration timeout, StopSignal stop) throws IOException {
        long min = rows.stream().mapToLong(r -> r.timestamp).min().orElseThrow();
        long max = rows.stream().mapToLong(r -> r.timestamp).max().orElseThrow();
        List<TopicPartition> partitions = partitions(consumer.listTopics(timeout), catalog, stream);
        Map<String, List<Routing>> byPosition = routings(consumer, catalog, stream, partitions, span(min, max), timeout, stop,
                Map.of());
        long joined = 0;
        for (Row row : rows) {
            List<Routing> found = byPosition.getOrDefault(position(row.value.text("epoch"), row.value.text("seq")), List.of());
            row.routing(found);
            joined += found.isEmpty() ? 0 : 1;
        }
        return joined;
    }

    /**
     * The routing of {@code stream} recorded within {@code span}, by {@link #position}, each list by
     * time. Reads the {@link #partitions} of the stream's key (the router writes keyed by stream with
     * the default partitioner), stopping at the {@code capturedEnds} where given, else at the end
     * offsets of now.
     */
    static Map<String, List<Routing>> routings(Consumer<byte[], byte[]> consumer, TopicCatalog catalog, String stream,
                                               List<TopicPartition> partitions, Window span, Duration timeout,
                                               StopSignal stop, Map<TopicPartition, Long> capturedEnds) throws IOException {
        Map<String, List<Routing>> byPosition = new HashMap<>();
        if (!partitions.isEmpty()) {
            byte[] key = stream.getBytes(StandardCharsets.UTF_8);
            var ranges = span.resolve(consumer, partitions, timeout, capturedEnds);
            var read = new BoundedRead(consumer, ranges, r -> span.admits(r.timestamp()) && Arrays.equals(r.key(), key),
                    r -> true, new ValueScan.Paths(PATHS), Progress.off(), stop, timeout);
            read.run(r -> {
                String seq = r.value.text("event.seq");
                if (seq != null) {
                    byPosition.computeIfAbsent(position(r.value.text("event.epoch"), seq), k -> new ArrayList<>())
                            .add(routing(catalog, r));
                }
                return true;
            });
        }
        byPosition.replaceAll((k, v) -> v.stream().sorted(Comparator.comparingLong(Routing::at)).toList());
        return byPosition;
    }

    private static Routing routing(TopicCatalog catalog, Row r) {
        var node = catalog.nodeIdOf(r.topic);
        if (node.isPresent()) {
            return new Routing(node.get(), null, millis(r.value.text("routedAt"), r.timestamp), r.value.list("connections"));
        }
        return new Routing(null, r.value.text("reason"), millis(r.value.text("at"), r.timestamp), List.of());
    }

    private static long millis(String text, long fallback) {
        try {
            return text == null ? fallback : Long.parseLong(text);
        } catch (NumberFormatException e) {
            return fallback;
        }
    }
}
