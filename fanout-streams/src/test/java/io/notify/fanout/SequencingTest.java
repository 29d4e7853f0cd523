package io.notify.fanout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.notify.fanout.inbox.InboxKey;
import io.notify.fanout.inbox.StreamHead;
import io.notify.fanout.recipients.RecipientPlacement;
import io.notify.fanout.routing.NodeTopics;
import io.notify.protocol.event.EventClass;
import io.notify.protocol.stream.DeliveryMessage;
import io.notify.protocol.stream.LiveEvent;
import io.notify.protocol.stream.SequencedEvent;
import io.notify.protocol.stream.StreamId;
import io.notify.protocol.stream.UndeliveredReason;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.apache.kafka.streams.KeyValue;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Steps 3–6: explode, per-stream positions, inbox append, stream log; ephemeral bypass. */
class SequencingTest extends TopologyTest {

    static final StreamId U42 = StreamId.forUser("42");

    @BeforeEach
    void startFixture() {
        start();
    }

    @Test
    void thousandEventsForOneUserGetSeqsOneToThousandInOneEpoch() {
        for (int i = 1; i <= 1000; i++) {
            f.sendDurable("ev-" + i, "42");
        }
        List<KeyValue<StreamId, SequencedEvent>> log = f.streamLog();
        assertEquals(LongStream.rangeClosed(1, 1000).boxed().toList(), log.stream().map(kv -> kv.value.seq()).toList());
        assertEquals(1, log.stream().map(kv -> kv.value.epoch()).distinct().count());
        assertTrue(log.stream().allMatch(kv -> kv.key.equals(U42) && kv.value.stream().equals(U42)));
        for (int i = 0; i < 1000; i++) {
            assertEquals("ev-" + (i + 1), log.get(i).value.id());
        }

        String epoch = log.get(0).value.epoch();
        FanoutFixture.assertSameRange(new StreamHead(epoch, 1, 1000), f.heads().get(U42));
        assertEquals(log.get(999).value, f.inbox().get(new InboxKey(U42, 1000)));
        assertEquals(log.get(0).value, f.inbox().get(new InboxKey(U42, 1)));
        assertEquals(1000.0, f.metrics.count("notify.fanout.sequenced"));
    }

    @Test
    void copiesForTheReadPartitionSkipTheRepartitionAndEveryCopyIsSequencedGapless() {
        String local = userOnPartition(0);
        String remote = userOnPartition(1);
        for (int i = 1; i <= 5; i++) {
            f.sendDurable("l-" + i, local, remote);
            f.sendDurable("r-" + i, remote, local);
        }
        Map<StreamId, List<SequencedEvent>> log = f.streamLog().stream()
                .collect(Collectors.groupingBy(kv -> kv.key, Collectors.mapping(kv -> kv.value, Collectors.toList())));
        for (String user : List.of(local, remote)) {
            List<SequencedEvent> events = log.get(StreamId.forUser(user));
            assertEquals(LongStream.rangeClosed(1, 10).boxed().toList(), events.stream().map(SequencedEvent::seq).toList(), user);
            assertEquals(10, events.stream().map(SequencedEvent::id).distinct().count(), user);
        }
        assertEquals(10.0, f.metrics.count("notify.fanout.recipients", "path", "local"), "both copies of partition 0's streams");
        assertEquals(10.0, f.metrics.count("notify.fanout.recipients", "path", "repartition"));
    }

    @Test
    void withoutALocalPlacementEveryCopyGoesThroughTheRepartitionTopic(@TempDir Path otherDir) {
        try (FanoutFixture none = new FanoutFixture(otherDir, Map.of(), NodeTopics.assumeAll(), RecipientPlacement.none())) {
            none.sendDurable("e-1", userOnPartition(0), userOnPartition(1));
            assertEquals(2, none.streamLog().size());
            assertEquals(0.0, none.metrics.count("notify.fanout.recipients", "path", "local"));
            assertEquals(2.0, none.metrics.count("notify.fanout.recipients", "path", "repartition"));
        }
    }

    /** A user whose stream the fixture's two-partition placement puts on {@code partition} (the driver reads 0). */
    private static String userOnPartition(int partition) {
        for (int i = 0; ; i++) {
            if (FanoutFixture.TWO_PARTITIONS.local(StreamId.forUser("p" + i), partition)) {
                return "p" + i;
            }
        }
    }

    @Test
    void eachRecipientOfOneEventGetsItsOwnPosition() {
        f.sendDurable("a-1", "a");
        f.sendDurable("multi-1", "a", "b", "c");
        f.sendDurable("multi-2", "b", "c");

        Map<String, List<String>> byStream = f.streamLog().stream().collect(Collectors.groupingBy(
                kv -> kv.key.value(), Collectors.mapping(kv -> kv.value.id() + "@" + kv.value.seq(), Collectors.toList())));
        assertEquals(Map.of(
                "u:a", List.of("a-1@1", "multi-1@2"),
                "u:b", List.of("multi-1@1", "multi-2@2"),
                "u:c", List.of("multi-1@1", "multi-2@2")), byStream);
        assertEquals(2, f.heads().get(StreamId.forUser("a")).lastSeq());
        assertEquals(2, f.heads().get(StreamId.forUser("c")).lastSeq());
        SequencedEvent inB = f.inbox().get(new InboxKey(StreamId.forUser("b"), 1));
        assertEquals("multi-1", inB.id());
        assertEquals(FanoutFixture.START.toEpochMilli(), inB.ingestedAt());
        assertEquals(FanoutFixture.START.toEpochMilli(), inB.sequencedAt());
    }

    @Test
    void ephemeralEventsAreRoutedLiveWithoutPositionInboxOrStreamLog() {
        f.connect("42", "gw-1", "i1", "c1");
        f.send("typing-1", FanoutFixture.event("typing-1", "ephemeral", "42"));

        List<KeyValue<StreamId, DeliveryMessage>> delivered = f.node("gw-1");
        assertEquals(1, delivered.size());
        LiveEvent live = assertInstanceOf(LiveEvent.class, delivered.get(0).value.event());
        assertEquals(EventClass.EPHEMERAL, live.eventClass());
        assertEquals("typing-1", live.id());
        assertEquals(List.of("c1"), delivered.get(0).value.connections());
        assertEquals(0, f.streamLog().size());
        assertNull(f.heads().get(U42));
        assertNull(f.inbox().get(new InboxKey(U42, 1)));

        f.sendDurable("after-1", "42"); // the ephemeral event consumed no seq
        assertEquals(1, f.streamLog().get(0).value.seq());
    }

    @Test
    void ephemeralEventsReachingNoNodeAreDroppedAndCountedNotRecordedUndelivered() {
        f.send("typing-2", FanoutFixture.event("typing-2", "ephemeral", "42"));
        f.registry.unavailable(true);
        f.send("typing-3", FanoutFixture.event("typing-3", "ephemeral", "42"));

        assertEquals(0, f.undelivered().size());
        assertEquals(0, f.streamLog().size());
        assertEquals(1.0, f.metrics.count("notify.fanout.ephemeral.dropped", "reason",
                UndeliveredReason.NO_LIVE_CONNECTION.wireName()));
        assertEquals(1.0, f.metrics.count("notify.fanout.ephemeral.dropped", "reason",
                UndeliveredReason.REGISTRY_UNAVAILABLE.wireName()));
        assertNotNull(f.metrics.registry());
    }
}
