package io.notify.e2e.stack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.notify.devstack.Await;
import io.notify.devstack.Infra;
import io.notify.devstack.NotifyInfraExtension;
import io.notify.gateway.GatewayServer;
import io.notify.gateway.support.SseClient;
import io.notify.gateway.support.WsClient;
import io.notify.platform.Platform;
import io.notify.platform.Publishing;
import io.notify.protocol.frame.EventFrame;
import io.notify.protocol.frame.PresenceResultFrame;
import io.notify.protocol.frame.ServerFrame;
import io.notify.protocol.frame.SubscribeRefusedFrame;
import io.notify.protocol.frame.SubscribedFrame;
import io.notify.protocol.frame.UnsubscribedFrame;
import io.notify.protocol.frame.WelcomeFrame;
import io.notify.protocol.stream.Position;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Rooms and broadcast end to end (docs/protocol.md, "Rooms and broadcast"): ingest → fanout-streams
 * (one room stream, sequenced and inboxed) → the node-level subscription registry in Redis → one
 * delivery message per subscribed node → every local subscriber; resume of a room by position;
 * refusals by name, permission and bound; the registry entry made by a node's first subscriber and
 * removed with its last.
 */
@ExtendWith(NotifyInfraExtension.class)
@Timeout(240)
class RoomsIT {

    static final Duration WAIT = Duration.ofSeconds(30);
    static Platform stack;
    static GatewayServer a;
    static GatewayServer b;
    static RedisClient redis;
    static StatefulRedisConnection<String, String> redisConnection;

    @BeforeAll
    static void start(Infra infra, @TempDir Path dir) throws Exception {
        stack = Platform.forTest(infra, dir)
                .gateway("notify.gateway.rooms.public", "lobby,news:*")
                .gateway("notify.gateway.rooms.max-subscriptions", "3")
                .gateway("notify.gateway.rooms.presence", "team-*")
                .fanout("notify.fanout.hot-room.events-per-second", "20")
                .fanout("notify.fanout.hot-room.hold", "2s")
                .start();
        a = stack.startGateway("gw-a");
        b = stack.startGateway("gw-b");
        redis = RedisClient.create(infra.redisUri());
        redisConnection = redis.connect();
    }

    @AfterAll
    static void stop() throws Exception {
        if (redisConnection != null) {
            redisConnection.close();
            redis.shutdown();
        }
        if (stack != null) {
            stack.close();
        }
    }

    private static WsClient connect(GatewayServer node, String user, List<String> rooms) {
        WsClient c = WsClient.connect(Platform.ws(node.port()), rooms == null ? stack.token(user) : stack.token(user, rooms));
        c.expect(WelcomeFrame.class, WAIT);
        c.resumeLive();
        return c;
    }

    private static void publishToRoom(String room, String id) {
        stack.publishing().publishJson(Publishing.event("{\"rooms\":[\"" + room + "\"]}", id, "durable"));
    }

    /** Members of the room's node-level subscription set: {@code node|incarnation} each. */
    private static Set<String> nodesOf(String room) {
        return Set.copyOf(redisConnection.sync().zrange(stack.config().prefix() + "nf:subs:{r:" + room + "}", 0, -1));
    }

    private static Set<String> nodeIds(Set<String> members) {
        return members.stream().map(m -> m.substring(0, m.indexOf('|'))).collect(Collectors.toSet());
    }

    private static List<Long> seqs(List<EventFrame> events) {
        return events.stream().map(EventFrame::seq).toList();
    }

    @Test
    void aRoomReachesEverySubscriberOnEveryNodeOnceInOrder() {
        try (WsClient alice = connect(a, "alice", List.of("chat-*"));
             WsClient alice2 = connect(a, "alice2", List.of("chat-*"));
             WsClient bob = connect(b, "bob", List.of("chat-*"))) {
            for (WsClient c : List.of(alice, alice2, bob)) {
                c.subscribe("r:chat-1");
                SubscribedFrame ok = c.expect(SubscribedFrame.class, WAIT);
                assertEquals("r:chat-1", ok.stream().value());
                assertNull(ok.head(), "a room nobody wrote to has no head yet");
            }
            // the node-level registry: one member per node, not per subscriber
            Await.until("both nodes registered for r:chat-1", WAIT, () -> nodeIds(nodesOf("chat-1")).equals(Set.of("gw-a", "gw-b")));
            assertEquals(2, nodesOf("chat-1").size());

            for (int i = 1; i <= 5; i++) {
                publishToRoom("chat-1", "c1-" + i);
            }
            for (WsClient c : List.of(alice, alice2, bob)) {
                List<EventFrame> got = c.events(5, WAIT);
                assertEquals(List.of(1L, 2L, 3L, 4L, 5L), seqs(got));
                assertEquals(IntStream.rangeClosed(1, 5).mapToObj(i -> "c1-" + i).toList(), got.stream().map(EventFrame::id).toList());
                assertTrue(got.stream().allMatch(e -> e.stream().value().equals("r:chat-1")), got.toString());
                assertTrue(c.quiet(Duration.ofMillis(300)), "nothing twice");
            }

            // the last subscriber of a node leaving removes that node's member; the other node stays
            bob.unsubscribe("r:chat-1");
            assertEquals("r:chat-1", bob.expect(UnsubscribedFrame.class, WAIT).stream().value());
            Await.until("gw-b's member removed", WAIT, () -> nodeIds(nodesOf("chat-1")).equals(Set.of("gw-a")));
            publishToRoom("chat-1", "c1-6");
            assertEquals(6L, alice.events(1, WAIT).get(0).seq());
            assertEquals(6L, alice2.events(1, WAIT).get(0).seq());
            assertTrue(bob.quiet(Duration.ofSeconds(1)), "no event after unsubscribed");
        }
        Await.until("no member left once every subscriber closed", WAIT, () -> nodesOf("chat-1").isEmpty());
    }

    @Test
    void aReconnectingDeviceResumesARoomFromItsPositionOnAnotherNode() {
        Position last;
        try (WsClient carol = connect(a, "carol", List.of("chat-*"))) {
            carol.subscribe("r:chat-resume");
            carol.expect(SubscribedFrame.class, WAIT);
            for (int i = 1; i <= 3; i++) {
                publishToRoom("chat-resume", "cr-" + i);
            }
            List<EventFrame> first = carol.events(3, WAIT);
            assertEquals(List.of(1L, 2L, 3L), seqs(first));
            last = first.get(2).position().orElseThrow();
        }
        for (int i = 4; i <= 7; i++) {
            publishToRoom("chat-resume", "cr-" + i); // carol is away
        }
        // back on the other node: the room's position rides in resume, as the user's would
        try (WsClient carol = WsClient.connect(Platform.ws(b.port()), stack.token("carol", List.of("chat-*")))) {
            carol.expect(WelcomeFrame.class, WAIT);
            carol.resume("r:chat-resume", last.epoch(), last.seq());
            SubscribedFrame ok = carol.expect(SubscribedFrame.class, WAIT);
            assertNotNull(ok.head());
            assertEquals(last.epoch(), ok.head().epoch());
            assertTrue(ok.head().seq() >= 3 && ok.head().seq() <= 7, "the head when subscribed (events 4-7 may still be in flight): "
                    + ok.head());
            List<EventFrame> missed = carol.events(4, WAIT);
            assertEquals(List.of(4L, 5L, 6L, 7L), seqs(missed));
            publishToRoom("chat-resume", "cr-8");
            assertEquals(8L, carol.events(1, WAIT).get(0).seq());
            assertTrue(carol.quiet(Duration.ofMillis(300)));
        }
        // and with an explicit subscribe from a position
        try (WsClient carol = connect(a, "carol", List.of("chat-*"))) {
            carol.subscribe("r:chat-resume", last.epoch(), 6);
            carol.expect(SubscribedFrame.class, WAIT);
            assertEquals(List.of(7L, 8L), seqs(carol.events(2, WAIT)));
        }
    }

    @Test
    void subscriptionsAreRefusedByNamePermissionAndBoundAndTheConnectionGoesOn() {
        try (WsClient dave = connect(a, "dave", List.of("chat-*", "org-7.*"))) {
            dave.subscribe("r:secret");
            SubscribeRefusedFrame forbidden = dave.expect(SubscribeRefusedFrame.class, WAIT);
            assertEquals(SubscribeRefusedFrame.Reason.FORBIDDEN, forbidden.reason());
            assertEquals("r:secret", forbidden.stream());
            dave.subscribe("r:org-70.ops"); // "org-7.*" does not reach org-70
            assertEquals(SubscribeRefusedFrame.Reason.FORBIDDEN, dave.expect(SubscribeRefusedFrame.class, WAIT).reason());
            for (String bad : List.of("r:a@b", "u:someone-else", "chat-1", "r:")) {
                dave.subscribe(bad);
                SubscribeRefusedFrame refused = dave.expect(SubscribeRefusedFrame.class, WAIT);
                assertEquals(SubscribeRefusedFrame.Reason.BAD_NAME, refused.reason(), bad);
                assertEquals(bad, refused.stream());
            }
            for (String ok : List.of("r:org-7.ops", "r:lobby", "b:all")) {
                dave.subscribe(ok);
                assertEquals(ok, dave.expect(SubscribedFrame.class, WAIT).stream().value());
            }
            dave.subscribe("r:chat-4"); // a fourth: over notify.gateway.rooms.max-subscriptions = 3
            assertEquals(SubscribeRefusedFrame.Reason.LIMIT, dave.expect(SubscribeRefusedFrame.class, WAIT).reason());
            // still served: its subscriptions and its own stream
            publishToRoom("org-7.ops", "ops-1");
            EventFrame e = dave.events(1, WAIT).get(0);
            assertEquals("r:org-7.ops", e.stream().value());
            stack.publish("dave", "dave-own-1");
            assertEquals("u:dave", dave.events(1, WAIT).get(0).stream().value());
        }
        // no claim: public rooms only
        try (WsClient erin = connect(b, "erin", null)) {
            erin.subscribe("r:news:today");
            erin.expect(SubscribedFrame.class, WAIT);
            erin.subscribe("r:chat-1");
            assertEquals(SubscribeRefusedFrame.Reason.FORBIDDEN, erin.expect(SubscribeRefusedFrame.class, WAIT).reason());
        }
    }

    @Test
    void aRoomThatTurnsHotMidStreamSwitchesToAllNodesWithNoGapNorDuplicate() throws Exception {
        try (WsClient ivan = connect(a, "ivan", List.of("chat-*"));
             WsClient judy = connect(b, "judy", List.of("chat-*"))) {
            for (WsClient c : List.of(ivan, judy)) {
                c.subscribe("r:chat-hot");
                c.expect(SubscribedFrame.class, WAIT);
            }
            Await.until("both nodes registered for r:chat-hot", WAIT, () -> nodesOf("chat-hot").size() == 2);
            // one NDJSON batch of 60: over 20 events/s, so the room turns hot part way and the rest goes through notify.all-nodes
            String batch = String.join("\n", IntStream.rangeClosed(1, 60)
                    .mapToObj(i -> Publishing.event("{\"rooms\":[\"chat-hot\"]}", "hot-" + i, "durable")).toList());
            assertEquals(202, stack.publishing().post("application/x-ndjson", batch).statusCode());
            for (WsClient c : List.of(ivan, judy)) {
                List<EventFrame> got = c.events(60, WAIT);
                assertEquals(LongStream.rangeClosed(1, 60).boxed().toList(), seqs(got), "every event once, in order");
                assertTrue(c.quiet(Duration.ofMillis(300)));
            }
            assertTrue(stack.fanout().meters().counter("notify.fanout.all.nodes", "why", "hot_room").count() > 0,
                    "some went through notify.all-nodes");
        }
    }

    /** The SSE messages up to {@code n} event frames; subscribed/refused frames are collected into {@code others}. */
    private static List<SseClient.Message> sseEvents(SseClient c, int n, List<ServerFrame> others) {
        List<SseClient.Message> out = new java.util.ArrayList<>();
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (out.size() < n) {
            SseClient.Message m = c.next(Duration.ofNanos(Math.max(1, deadline - System.nanoTime())));
            if (m.data() == null || m.frame() instanceof io.notify.protocol.frame.PingFrame) {
                continue;
            }
            if (m.frame() instanceof EventFrame) {
                out.add(m);
            } else {
                others.add(m.frame());
            }
        }
        return out;
    }

    @Test
    void anSseClientSubscribesAtConnectAndOneLastEventIdResumesEveryStream() {
        Map<String, String> headers = new HashMap<>(Map.of("Authorization", "Bearer " + stack.token("kim", List.of("chat-*"))));
        URI uri = URI.create(Platform.sse(a.port()) + "?rooms=chat-sse,lobby,secret");
        String lastId;
        try (SseClient tooMany = SseClient.connect(URI.create(uri + "&broadcast=true"), headers)) {
            assertEquals(400, tooMany.status(), "4 subscriptions where the node allows 3: refused at connect");
        }
        try (SseClient kim = SseClient.connect(uri, headers)) {
            assertEquals(200, kim.status());
            List<ServerFrame> others = new java.util.ArrayList<>();
            Await.until("kim's subscriptions answered", WAIT, () -> {
                SseClient.Message m = kim.next(WAIT);
                if (m.data() != null && !(m.frame() instanceof io.notify.protocol.frame.PingFrame)) {
                    others.add(m.frame());
                }
                return others.stream().filter(f -> f instanceof SubscribedFrame || f instanceof SubscribeRefusedFrame).count() == 3;
            });
            assertEquals(Set.of("r:chat-sse", "r:lobby"), others.stream().filter(f -> f instanceof SubscribedFrame)
                    .map(f -> ((SubscribedFrame) f).stream().value()).collect(Collectors.toSet()));
            SubscribeRefusedFrame refused = (SubscribeRefusedFrame) others.stream().filter(f -> f instanceof SubscribeRefusedFrame)
                    .findFirst().orElseThrow();
            assertEquals("r:secret", refused.stream());
            publishToRoom("chat-sse", "sse-1");
            stack.publish("kim", "kim-1");
            publishToRoom("lobby", "lob-1");
            List<SseClient.Message> got = sseEvents(kim, 3, new java.util.ArrayList<>());
            lastId = got.get(2).id();
            assertTrue(io.notify.protocol.frame.SseCursor.isCursor(lastId), "a composite cursor: " + lastId);
            assertEquals(3, io.notify.protocol.frame.SseCursor.parse(lastId).size(), "user, chat-sse and lobby: " + lastId);
        }
        publishToRoom("chat-sse", "sse-2");
        publishToRoom("lobby", "lob-2");
        stack.publish("kim", "kim-2");
        // back on the other node with the same URL, as EventSource reconnects, and its Last-Event-ID
        headers.put("Last-Event-ID", lastId);
        try (SseClient kim = SseClient.connect(URI.create(Platform.sse(b.port()) + "?rooms=chat-sse,lobby,secret"),
                headers)) {
            List<SseClient.Message> missed = sseEvents(kim, 3, new java.util.ArrayList<>());
            assertEquals(Set.of("sse-2", "lob-2", "kim-2"), missed.stream().map(m -> ((EventFrame) m.frame()).id())
                    .collect(Collectors.toSet()));
            for (SseClient.Message m : missed) {
                EventFrame e = (EventFrame) m.frame();
                assertEquals(2L, e.seq(), e.stream() + " continues right after its position");
            }
            assertTrue(kim.hasEnded() || kim.received().stream().noneMatch(m -> m.frame() instanceof EventFrame), "nothing twice");
        }
    }

    @Test
    void presenceCountsAndPagesTheRoomsMembersOverBothNodesAndAnnouncesJoinAndLeave() {
        try (WsClient alice = connect(a, "p-alice", List.of("team-*"));
             WsClient bob = connect(b, "p-bob", List.of("team-*"))) {
            alice.subscribe("r:team-1");
            alice.expect(SubscribedFrame.class, WAIT);
            assertEquals("p-alice", alice.nextEvent("presence.join", WAIT).data().get("user").asText(), "her own join");
            bob.subscribe("r:team-1");
            bob.expect(SubscribedFrame.class, WAIT);
            EventFrame join = alice.nextEvent("presence.join", WAIT);
            assertEquals("p-bob", join.data().get("user").asText());
            assertEquals("r:team-1", join.stream().value());
            assertTrue(join.position().isEmpty(), "presence events are ephemeral");

            PresenceResultFrame all = alice.presence("r:team-1", null, null, WAIT);
            assertEquals(2, all.online());
            assertEquals(List.of("p-alice", "p-bob"), all.members());
            assertNull(all.next());
            PresenceResultFrame first = bob.presence("r:team-1", null, 1, WAIT);
            assertEquals(List.of("p-alice"), first.members());
            assertEquals("p-alice", first.next());
            PresenceResultFrame second = bob.presence("r:team-1", first.next(), 1, WAIT);
            assertEquals(List.of("p-bob"), second.members());
            assertNull(second.next());

            assertEquals(PresenceResultFrame.Error.NOT_SUBSCRIBED, alice.presence("r:team-2", null, null, WAIT).error());
            alice.subscribe("r:lobby");
            alice.expect(SubscribedFrame.class, WAIT);
            assertEquals(PresenceResultFrame.Error.OFF, alice.presence("r:lobby", null, null, WAIT).error());

            bob.unsubscribe("r:team-1");
            assertEquals("p-bob", alice.nextEvent("presence.leave", WAIT).data().get("user").asText());
            PresenceResultFrame after = alice.presence("r:team-1", null, null, WAIT);
            assertEquals(1, after.online());
            assertEquals(List.of("p-alice"), after.members());
        }
    }

    @Test
    void broadcastAndEphemeralRoomEventsReachSubscribersOnly() {
        try (WsClient frank = connect(a, "frank", null);
             WsClient grace = connect(b, "grace", null);
             WsClient heidi = connect(b, "heidi", null)) {
            frank.subscribe("b:all");
            frank.expect(SubscribedFrame.class, WAIT);
            grace.subscribe("b:all");
            grace.expect(SubscribedFrame.class, WAIT);
            heidi.subscribe("r:lobby");
            heidi.expect(SubscribedFrame.class, WAIT);

            stack.publishing().publishJson(Publishing.event("{\"broadcast\":true}", "banner-1", "durable"));
            for (WsClient c : List.of(frank, grace)) {
                EventFrame e = c.events(1, WAIT).get(0);
                assertEquals("b:all", e.stream().value());
                assertEquals("banner-1", e.id());
            }
            // b:all needs no registry entry: every node reads notify.all-nodes
            assertEquals(Set.of(), Set.copyOf(redisConnection.sync().zrange(stack.config().prefix() + "nf:subs:{b:all}", 0, -1)));
            stack.publishing().publishJson(Publishing.event("{\"rooms\":[\"lobby\"]}", "typing-1", "ephemeral"));
            EventFrame typing = heidi.events(1, WAIT).get(0);
            assertEquals("typing-1", typing.id());
            assertTrue(typing.position().isEmpty(), "ephemeral: no position");
            assertTrue(frank.quiet(Duration.ofMillis(500)), "not subscribed to the lobby");
        }
    }
}
