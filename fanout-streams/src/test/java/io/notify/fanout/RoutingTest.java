package io.notify.fanout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import io.notify.fanout.inbox.InboxKey;
import io.notify.fanout.routing.NodeTopics;
import io.notify.protocol.stream.DeliveryMessage;
import io.notify.protocol.stream.SequencedEvent;
import io.notify.protocol.stream.StreamId;
import io.notify.protocol.stream.UndeliveredEvent;
import io.notify.protocol.stream.UndeliveredReason;
import io.notify.registry.ConnectionRef;
import io.notify.schemas.topic.TopicCatalog;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.streams.KeyValue;
import org.junit.jupiter.api.Test;

/** Step 7: one message per live node, stale members removed, undelivered records, missing node topics. */
class RoutingTest extends TopologyTest {

    static final StreamId U42 = StreamId.forUser("42");
    static final long NOW = FanoutFixture.START.toEpochMilli();

    @Test
    void aUserWithDevicesOnTwoNodesGetsExactlyOneMessagePerNodeNamingItsConnections() {
        start();
        f.connect("42", "gw-1", "i1", "c1");
        f.connect("42", "gw-2", "i2", "c2");
        f.connect("42", "gw-1", "i1", "c3");
        f.connect("43", "gw-1", "i1", "c9"); // another user on the same node is not addressed
        f.sendDurable("ord-1", "42");

        List<KeyValue<StreamId, DeliveryMessage>> gw1 = f.node("gw-1");
        List<KeyValue<StreamId, DeliveryMessage>> gw2 = f.node("gw-2");
        assertEquals(1, gw1.size());
        assertEquals(1, gw2.size());
        assertEquals(U42, gw1.get(0).key);
        assertEquals(List.of("c1", "c3"), gw1.get(0).value.connections());
        assertEquals(List.of("c2"), gw2.get(0).value.connections());
        SequencedEvent event = assertInstanceOf(SequencedEvent.class, gw1.get(0).value.event());
        assertEquals(f.streamLog().get(0).value, event);
        assertEquals(event, gw2.get(0).value.event());
        assertEquals(NOW, gw1.get(0).value.routedAt());
        assertEquals(0, f.undelivered().size());
        assertEquals(2.0, f.metrics.count("notify.fanout.deliveries"));
    }

    @Test
    void staleMembersOfADeadNodeOrAnOldIncarnationAreRemovedAndNotRouted() {
        start();
        f.connect("42", "gw-1", "i1", "c1");
        ConnectionRef oldIncarnation = new ConnectionRef("gw-1", "i0", "c-old");
        f.registry.register(U42, oldIncarnation, Duration.ofSeconds(45));
        f.connect("42", "gw-9", "i9", "c-dead");
        f.registry.setDead("gw-9");
        f.sendDurable("ord-2", "42");

        List<KeyValue<StreamId, DeliveryMessage>> gw1 = f.node("gw-1");
        assertEquals(1, gw1.size());
        assertEquals(List.of("c1"), gw1.get(0).value.connections());
        assertEquals(0, f.node("gw-9").size());
        assertEquals(List.of(oldIncarnation, new ConnectionRef("gw-9", "i9", "c-dead")), f.registry.removed());
        assertEquals(List.of(new ConnectionRef("gw-1", "i1", "c1")), f.registry.members(U42));
        assertEquals(2.0, f.metrics.count("notify.fanout.stale.removals"));
    }

    @Test
    void withNoLiveNodeTheEventIsRecordedUndeliveredAndStaysInTheInbox() {
        start();
        f.connect("42", "gw-9", "i9", "c-dead");
        f.registry.setDead("gw-9");
        f.sendDurable("ord-3", "42");

        List<KeyValue<StreamId, UndeliveredEvent>> undelivered = f.undelivered();
        assertEquals(1, undelivered.size());
        UndeliveredEvent u = undelivered.get(0).value;
        assertEquals(U42, undelivered.get(0).key);
        assertEquals(UndeliveredReason.NO_LIVE_CONNECTION, u.reason());
        assertEquals("42", u.userId());
        assertEquals(NOW, u.at());
        SequencedEvent logged = f.streamLog().get(0).value;
        assertEquals(logged, u.event());
        assertEquals(logged, f.inbox().get(new InboxKey(U42, 1)));
        assertEquals(0, f.node("gw-9").size());
    }

    @Test
    void whenTheRegistryIsUnavailableTheEventIsUndeliveredWithThatReasonButSequencedAndKept() {
        start();
        f.connect("42", "gw-1", "i1", "c1");
        f.registry.unavailable(true);
        f.sendDurable("ord-4", "42");

        UndeliveredEvent u = f.undelivered().get(0).value;
        assertEquals(UndeliveredReason.REGISTRY_UNAVAILABLE, u.reason());
        SequencedEvent logged = f.streamLog().get(0).value;
        assertEquals(1, logged.seq());
        assertEquals(logged, u.event());
        assertEquals(logged, f.inbox().get(new InboxKey(U42, 1)));
        assertEquals(0, f.node("gw-1").size());
        assertEquals(1.0, f.metrics.count("notify.fanout.undelivered", "reason", "registry_unavailable"));

        f.registry.unavailable(false); // routing resumes with the next event
        f.sendDurable("ord-5", "42");
        assertEquals(2, ((SequencedEvent) f.node("gw-1").get(0).value.event()).seq());
    }

    @Test
    void aNodeWhoseTopicDoesNotExistIsSkippedAndCounted() {
        TopicCatalog topics = TopicCatalog.of(FanoutFixture.PREFIX);
        start(Map.of(), NodeTopics.of(Set.of(topics.node("gw-1").name())));
        f.connect("42", "gw-1", "i1", "c1");
        f.connect("42", "gw-2", "i2", "c2");
        f.connect("43", "gw-2", "i2", "c5");
        f.sendDurable("ord-6", "42");
        f.sendDurable("ord-7", "43");

        assertEquals(List.of("ord-6"), f.node("gw-1").stream().map(kv -> kv.value.event().id()).toList());
        assertEquals(0, f.node("gw-2").size());
        List<KeyValue<StreamId, UndeliveredEvent>> undelivered = f.undelivered();
        assertEquals(1, undelivered.size()); // user 43 has no reachable node
        assertEquals(StreamId.forUser("43"), undelivered.get(0).key);
        assertEquals(UndeliveredReason.NO_LIVE_CONNECTION, undelivered.get(0).value.reason());
        assertEquals(2.0, f.metrics.count("notify.fanout.node.topic.missing", "stage", "route"));
    }
}
