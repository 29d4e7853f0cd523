package io.notify.fanout.routing;

import io.notify.protocol.stream.StreamId;
import io.notify.registry.RouteLookup;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerInterceptor;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * Tells the route lookup which streams are about to be routed, as soon as their records are
 * polled: Kafka Streams processes a polled batch one record at a time, through the whole
 * sub-topology, so a lookup that misses the cache waits a Redis round trip on the stream thread,
 * and a burst of events to users the router has not seen lately (the first event after they
 * connected, or after their registry entry changed) waits one round trip per event. Hinted at poll
 * time, those reads are sent together and answered while the records before them are processed
 * ({@link RouteLookup#prefetch}).
 *
 * <p>Installed on the main consumer by {@code FanoutStreamsConfig}. The key of a record on
 * {@code notify.events} is its first recipient's stream and the key of a by-stream repartition
 * record its stream, both {@code u:<userId>} or {@code r:<room>} in UTF-8 ({@code b:all} has no registry
 * entry to read): other recipients of a multi-recipient event
 * are hinted when their copies are polled from the repartition topic. A key that is not a stream
 * (a producer's own key) is skipped. Never throws, never blocks, changes no record.
 */
public final class RoutePrefetch implements ConsumerInterceptor<byte[], byte[]> {

    /** Main-consumer config key of the {@link RouteLookup} to hint (an object, not a string). */
    public static final String LOOKUP = "notify.route-prefetch.lookup";
    /** Main-consumer config key of the topic names whose record keys are hinted (a {@code Set<String>}). */
    public static final String TOPICS = "notify.route-prefetch.topics";

    private RouteLookup lookup;
    private Set<String> topics = Set.of();

    @Override
    @SuppressWarnings("unchecked")
    public void configure(Map<String, ?> configs) {
        if (configs.get(LOOKUP) instanceof RouteLookup l) {
            lookup = l;
        }
        if (configs.get(TOPICS) instanceof Set<?> t) {
            topics = (Set<String>) t;
        }
    }

    @Override
    public ConsumerRecords<byte[], byte[]> onConsume(ConsumerRecords<byte[], byte[]> records) {
        RouteLookup l = lookup;
        if (l == null) {
            return records;
        }
        for (ConsumerRecord<byte[], byte[]> record : records) {
            StreamId stream = topics.contains(record.topic()) ? stream(record.key()) : null;
            if (stream != null) {
                l.prefetch(stream);
            }
        }
        return records;
    }

    /** The stream a key names, or null. */
    static StreamId stream(byte[] key) {
        if (key == null || key.length < 3 || key.length > StreamId.MAX_LENGTH * 4 || (key[0] != 'u' && key[0] != 'r') || key[1] != ':') {
            return null;
        }
        try {
            return StreamId.parse(new String(key, StandardCharsets.UTF_8));
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    @Override
    public void onCommit(Map<TopicPartition, OffsetAndMetadata> offsets) {
    }

    @Override
    public void close() {
    }
}
