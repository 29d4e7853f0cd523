package io.notify.fanout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.notify.fanout.routing.NodeTopics;
import io.notify.protocol.stream.DeliveryMessage;
import io.notify.protocol.stream.SequencedEvent;
import io.notify.protocol.stream.StreamEvent;
import io.notify.protocol.stream.StreamId;
import io.notify.registry.ConnectionRef;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.streams.KeyValue;
import org.junit.jupiter.api.Test;

/**
 * Rooms and broadcast through the topology: each addressed stream is sequenced on its own, a
 * room's event goes once to each node with a subscriber (the node finds its subscribers), nobody
 * listening writes no UndeliveredEvent, and each kind of stream keeps its own inbox bounds.
 */
class RoomRoutingTest extends TopologyTest {

    static final StreamId CHAT = StreamId.forRoom("chat-1");
    static final StreamId LOBBY = StreamId.forRoom("lobby");

    private static String to(String id, String cls, String toJson) {
        return "{\"id\":\"" + id + "\",\"type\":\"t\",\"class\":\"" + cls + "\",\"to\":" + toJson + "}";
    }

    private void subscribeNode(StreamId stream, String node, String incarnation) {
        f.registry.setAlive(node, incarnation);
        f.registry.register(stream, ConnectionRef.wholeNode(node, incarnation), Duration.ofMinutes(30));
    }

    @Test
    void everyAddressedStreamGetsItsOwnSequenceAndOneMessagePerSubscribedNode() {
        start();
        subscribeNode(CHAT, "gw-1", "i1");
        subscribeNode(CHAT, "gw-2", "i2");
        subscribeNode(StreamId.BROADCAST, "gw-2", "i2");
        f.connect("42", "gw-1", "i1", "c1");
        f.send("m1", to("m1", "durable", "{\"users\":[\"42\"],\"rooms\":[\"chat-1\",\"lobby\"],\"broadcast\":true}"));
        f.send("m2", to("m2", "durable", "{\"rooms\":[\"chat-1\"]}"));

        List<KeyValue<StreamId, SequencedEvent>> log = f.streamLog();
        assertEquals(5, log.size(), "u:42, r:chat-1 twice, r:lobby, b:all: " + log);
        assertEquals(List.of(1L, 2L), log.stream().filter(kv -> kv.key.equals(CHAT)).map(kv -> kv.value.seq()).toList());
        assertEquals(List.of(1L), log.stream().filter(kv -> kv.key.equals(LOBBY)).map(kv -> kv.value.seq()).toList());
        assertEquals(List.of(1L), log.stream().filter(kv -> kv.key.isBroadcast()).map(kv -> kv.value.seq()).toList());

        List<KeyValue<StreamId, DeliveryMessage>> gw1 = f.node("gw-1");
        List<KeyValue<StreamId, DeliveryMessage>> gw2 = f.node("gw-2");
        // gw-1: the user's connection by id, and chat-1 twice for every local subscriber
        assertEquals(List.of("u:42", "r:chat-1", "r:chat-1"), gw1.stream().map(kv -> kv.key.value()).toList());
        assertEquals(List.of("c1"), gw1.get(0).value.connections());
        assertTrue(gw1.get(1).value.targetsAllConnections());
        assertEquals(List.of("r:chat-1", "r:chat-1"), gw2.stream().map(kv -> kv.key.value()).toList());
        assertTrue(gw2.stream().allMatch(kv -> kv.value.targetsAllConnections()));
        // b:all: one message on notify.all-nodes, which every node reads; no registry member needed
        List<KeyValue<StreamId, DeliveryMessage>> all = f.allNodes();
        assertEquals(List.of("b:all"), all.stream().map(kv -> kv.key.value()).toList());
        assertTrue(all.get(0).value.targetsAllConnections());
        assertEquals(1.0, f.metrics.count("notify.fanout.all.nodes", "why", "broadcast"));
        // nobody in the lobby: it stays in the inbox, and no push/e-mail hook hears of it
        assertEquals(0, f.undelivered().size());
        assertEquals(1.0, f.metrics.count("notify.fanout.unsubscribed", "reason", "no_live_connection"));
        assertEquals(1, f.inbox().get(new io.notify.fanout.inbox.InboxKey(LOBBY, 1)).seq());
    }

    @Test
    void aDeadNodesSubscriptionIsStaleAndAnEphemeralRoomEventGoesLiveOnly() {
        start();
        subscribeNode(CHAT, "gw-1", "i1");
        subscribeNode(CHAT, "gw-9", "i9");
        f.registry.setDead("gw-9");
        f.send("typing", to("typing", "ephemeral", "{\"rooms\":[\"chat-1\"]}"));

        List<KeyValue<StreamId, DeliveryMessage>> gw1 = f.node("gw-1");
        assertEquals(1, gw1.size());
        StreamEvent e = gw1.get(0).value.event();
        assertTrue(!e.isDurable(), "ephemeral");
        assertEquals(0, f.node("gw-9").size());
        assertEquals(List.of(ConnectionRef.wholeNode("gw-9", "i9")), f.registry.removed());
        assertEquals(0, f.streamLog().size(), "ephemeral events are not logged");
    }

    @Test
    void aRoomOnMoreNodesThanTheThresholdGoesOnceToAllNodesAndStaysThereWithoutLookups() {
        start(Map.of("notify.fanout.hot-room.nodes", "2"), NodeTopics.assumeAll());
        subscribeNode(CHAT, "gw-1", "i1");
        subscribeNode(CHAT, "gw-2", "i2");
        f.send("h1", to("h1", "durable", "{\"rooms\":[\"chat-1\"]}"));
        assertEquals(2, f.node("gw-1").size() + f.node("gw-2").size(), "two nodes: not hot yet");
        subscribeNode(CHAT, "gw-3", "i3");
        f.send("h2", to("h2", "durable", "{\"rooms\":[\"chat-1\"]}"));
        f.registry.unavailable(true); // a hot room is not looked up: Redis being away changes nothing
        f.send("h3", to("h3", "durable", "{\"rooms\":[\"chat-1\"]}"));
        assertEquals(List.of(2L, 3L), f.allNodes().stream().map(kv -> ((SequencedEvent) kv.value.event()).seq()).toList());
        assertEquals(0, f.node("gw-1").size() + f.node("gw-2").size() + f.node("gw-3").size());
        assertEquals(2.0, f.metrics.count("notify.fanout.all.nodes", "why", "hot_room"));
        assertEquals(0, f.undelivered().size());
    }

    @Test
    void aRoomOverTheEventRateGoesToAllNodesUntilTheHoldRunsOut() {
        start(Map.of("notify.fanout.hot-room.events-per-second", "3", "notify.fanout.hot-room.hold", "10s"), NodeTopics.assumeAll());
        subscribeNode(CHAT, "gw-1", "i1");
        for (int i = 1; i <= 5; i++) {
            f.send("r" + i, to("r" + i, "durable", "{\"rooms\":[\"chat-1\"]}"));
        }
        assertEquals(List.of(1L, 2L, 3L), f.node("gw-1").stream().map(kv -> ((SequencedEvent) kv.value.event()).seq()).toList());
        assertEquals(List.of(4L, 5L), f.allNodes().stream().map(kv -> ((SequencedEvent) kv.value.event()).seq()).toList());
        f.advance(Duration.ofSeconds(5));
        f.send("r6", to("r6", "durable", "{\"rooms\":[\"chat-1\"]}"));
        assertEquals(1, f.allNodes().size(), "still held hot");
        f.advance(Duration.ofSeconds(6));
        f.send("r7", to("r7", "durable", "{\"rooms\":[\"chat-1\"]}"));
        assertEquals(List.of(7L), f.node("gw-1").stream().map(kv -> ((SequencedEvent) kv.value.event()).seq()).toList(),
                "the hold ran out: back to the subscribed node");
    }

    @Test
    void withoutTheAllNodesTopicABroadcastStaysInTheInboxAndIsCounted() {
        start(Map.of(), NodeTopics.of(java.util.Set.of()));
        f.send("b1", to("b1", "durable", "{\"broadcast\":true}"));
        assertEquals(0, f.allNodes().size());
        assertEquals(1.0, f.metrics.count("notify.fanout.node.topic.missing", "stage", "route"));
        assertEquals(1, f.heads().get(StreamId.BROADCAST).lastSeq());
    }

    @Test
    void roomsAndBroadcastKeepTheirOwnInboxBounds() {
        start(Map.of("notify.fanout.inbox.max-events", "5", "notify.fanout.inbox.room-max-events", "3",
                "notify.fanout.inbox.broadcast-max-events", "2"), NodeTopics.assumeAll());
        for (int i = 0; i < 6; i++) {
            f.send("e" + i, to("e" + i, "durable", "{\"users\":[\"42\"],\"rooms\":[\"chat-1\"],\"broadcast\":true}"));
        }
        assertEquals(5, f.heads().get(StreamId.forUser("42")).size());
        assertEquals(3, f.heads().get(CHAT).size());
        assertEquals(2, f.heads().get(StreamId.BROADCAST).size());
        assertEquals(6, f.heads().get(CHAT).lastSeq());
    }
}
