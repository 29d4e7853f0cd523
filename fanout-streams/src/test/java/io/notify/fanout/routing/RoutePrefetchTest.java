package io.notify.fanout.routing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.notify.protocol.stream.StreamId;
import io.notify.registry.ConnectionRef;
import io.notify.registry.RouteLookup;
import io.notify.registry.Routes;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/** Polled records hint the route lookup with their streams: only on the configured topics, only keys that are streams. */
class RoutePrefetchTest {

    private final List<StreamId> hinted = new ArrayList<>();
    private final RouteLookup lookup = new RouteLookup() {
        @Override
        public Routes lookup(StreamId stream, Duration timeout) {
            throw new AssertionError("the interceptor only hints");
        }

        @Override
        public void prefetch(StreamId stream) {
            hinted.add(stream);
        }

        @Override
        public void removeStale(StreamId stream, List<ConnectionRef> stale) {
        }
    };

    @Test
    void everyPolledStreamIsHintedOnceInOrderAndTheRecordsPassUnchanged() {
        RoutePrefetch prefetch = new RoutePrefetch();
        prefetch.configure(Map.of(RoutePrefetch.LOOKUP, lookup, RoutePrefetch.TOPICS, Set.of("p.notify.events", "p.app-by-stream-repartition")));
        ConsumerRecords<byte[], byte[]> polled = records(
                record("p.notify.events", "u:alice"),
                record("p.app-by-stream-repartition", "u:bob"),
                record("p.notify.events", "order-17"),          // a producer's own key: not a stream
                record("p.notify.events", null),
                record("p.notify.events", "u:bad key"),         // not a valid user id
                record("p.other-topic", "u:carol"));            // not a topic the router reads events from
        assertSame(polled, prefetch.onConsume(polled));
        assertEquals(List.of(StreamId.forUser("alice"), StreamId.forUser("bob")), hinted);
    }

    @Test
    void withoutALookupNothingHappens() {
        RoutePrefetch prefetch = new RoutePrefetch();
        prefetch.configure(Map.of());
        ConsumerRecords<byte[], byte[]> polled = records(record("p.notify.events", "u:alice"));
        assertSame(polled, prefetch.onConsume(polled));
        assertNull(RoutePrefetch.stream("u:".getBytes(StandardCharsets.UTF_8)));
        assertEquals(StreamId.forUser("a"), RoutePrefetch.stream("u:a".getBytes(StandardCharsets.UTF_8)));
    }

    @SafeVarargs
    private static ConsumerRecords<byte[], byte[]> records(ConsumerRecord<byte[], byte[]>... records) {
        Map<TopicPartition, List<ConsumerRecord<byte[], byte[]>>> byPartition = new java.util.LinkedHashMap<>();
        for (ConsumerRecord<byte[], byte[]> r : records) {
            byPartition.computeIfAbsent(new TopicPartition(r.topic(), 0), tp -> new ArrayList<>()).add(r);
        }
        return new ConsumerRecords<>(byPartition, Map.of());
    }

    private static long offset;

    private static ConsumerRecord<byte[], byte[]> record(String topic, String key) {
        return new ConsumerRecord<>(topic, 0, offset++, key == null ? null : key.getBytes(StandardCharsets.UTF_8), new byte[0]);
    }
}
