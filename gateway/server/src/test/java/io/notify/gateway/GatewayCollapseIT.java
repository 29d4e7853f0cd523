package io.notify.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.notify.devstack.Infra;
import io.notify.devstack.NotifyInfraExtension;
import io.notify.gateway.support.Events;
import io.notify.gateway.support.GatewayHarness;
import io.notify.gateway.support.SseClient;
import io.notify.gateway.support.WsClient;
import io.notify.protocol.frame.CollapsedFrame;
import io.notify.protocol.frame.EventFrame;
import io.notify.protocol.frame.ServerFrame;
import io.notify.protocol.frame.SseCursor;
import io.notify.protocol.frame.SubscribedFrame;
import io.notify.protocol.frame.WelcomeFrame;
import io.notify.protocol.stream.Position;
import io.notify.protocol.stream.SequencedEvent;
import io.notify.protocol.stream.StreamId;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Collapsed catch-up through a real gateway node (real Kafka for its node topic, real Redis for the
 * registry, the inbox served by {@code QueryApiStub}): a WebSocket and an SSE client resume over a
 * backlog with superseded events and get the latest of each key, {@code collapsed} frames in the other
 * seqs' place, SSE ids that resume after a collapsed frame, and a room's composite cursor.
 */
@ExtendWith(NotifyInfraExtension.class)
@Timeout(90)
class GatewayCollapseIT {

    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final String E = "ep1";
    /** What the clients see of the backlog after seq 1 ({@link #backlog}). */
    private static final List<String> AFTER_ONE = List.of("c2..2", "e3", "c4..5", "e6", "e7", "c8..8", "e9");
    private static GatewayHarness gateway;

    @BeforeAll
    static void start(Infra infra) {
        gateway = new GatewayHarness(infra, "gw-collapse", Map.of("notify.gateway.collapse.types", "order.status,*.progress",
                "notify.gateway.rooms.public", "lobby-*"));
    }

    @AfterAll
    static void stop() {
        if (gateway != null) {
            gateway.close();
        }
    }

    /**
     * 1..9: order 17's status at 2, 4, 5, 6 and order 18's at 3; a chat message with a key at 7 (its type
     * does not collapse); an upload's progress at 8 and 9.
     */
    private static List<SequencedEvent> backlog(StreamId s, String epoch) {
        return List.of(Events.keyed(s, epoch, 1, "order.created", null),
                Events.keyed(s, epoch, 2, "order.status", "order-17"),
                Events.keyed(s, epoch, 3, "order.status", "order-18"),
                Events.keyed(s, epoch, 4, "order.status", "order-17"),
                Events.keyed(s, epoch, 5, "order.status", "order-17"),
                Events.keyed(s, epoch, 6, "order.status", "order-17"),
                Events.keyed(s, epoch, 7, "chat.message", "room-1"),
                Events.keyed(s, epoch, 8, "upload.progress", "file-1"),
                Events.keyed(s, epoch, 9, "upload.progress", "file-1"));
    }

    private static String shown(ServerFrame f) {
        if (f instanceof EventFrame e) {
            return "e" + e.seq();
        }
        return f instanceof CollapsedFrame c ? "c" + c.from() + ".." + c.to() : f.frameType().wireName();
    }


    /** The next {@code n} SSE messages carrying an event or a collapsed frame. */
    private static List<SseClient.Message> positioned(SseClient sse, int n) {
        List<SseClient.Message> out = new ArrayList<>();
        while (out.size() < n) {
            SseClient.Message m = sse.next(WAIT);
            if (m.data() != null && (m.frame() instanceof EventFrame || m.frame() instanceof CollapsedFrame)) {
                out.add(m);
            }
        }
        return out;
    }

    @Test
    void aWebSocketResumeGetsTheLatestOfEachKeyAndCollapsedFramesInTheOtherSeqsPlaceThenLive() {
        StreamId u = StreamId.forUser("olga");
        gateway.stub().append(backlog(u, E));
        double before = gateway.count("notify.gateway.collapsed.events");
        try (WsClient ws = WsClient.connect(gateway.ws(), gateway.tokens().valid("olga"))) {
            assertInstanceOf(WelcomeFrame.class, ws.next(WAIT));
            ws.resume(u.value(), E, 1);
            List<ServerFrame> got = ws.frames(AFTER_ONE.size(), WAIT);
            assertEquals(AFTER_ONE, got.stream().map(GatewayCollapseIT::shown).toList());
            assertEquals(new CollapsedFrame(u, E, 4, 5), got.get(2));
            gateway.publish(Events.keyed(u, E, 10, "order.status", "order-17")); // live, in order: never collapsed
            assertEquals(List.of(10L), ws.events(1, WAIT).stream().map(EventFrame::seq).toList());
            assertTrue(ws.quiet(Duration.ofMillis(300)), "nothing twice");
        }
        assertEquals(4.0, gateway.count("notify.gateway.collapsed.events") - before, "2, 4, 5 and 8");
    }

    @Test
    void anSseResumeGetsCollapsedFramesWithIdsThatResumeAfterThem() throws Exception {
        StreamId u = StreamId.forUser("sid");
        gateway.stub().append(backlog(u, E));
        String token = gateway.tokens().valid("sid");
        String idAfterFive;
        try (SseClient sse = SseClient.connect(gateway.http("/v1/sse"),
                Map.of("Authorization", "Bearer " + token, "Last-Event-ID", E + ":1"))) {
            List<SseClient.Message> got = positioned(sse, AFTER_ONE.size());
            assertEquals(AFTER_ONE, got.stream().map(m -> shown(m.frame())).toList());
            assertEquals(List.of(E + ":2", E + ":3", E + ":5", E + ":6", E + ":7", E + ":8", E + ":9"),
                    got.stream().map(SseClient.Message::id).toList(), "a collapsed frame's id is the position of its last seq");
            idAfterFive = got.get(2).id();
        }
        // a browser that stopped right after the collapsed frame 4..5 resumes from it
        try (SseClient sse = SseClient.connect(gateway.http("/v1/sse"),
                Map.of("Authorization", "Bearer " + token, "Last-Event-ID", idAfterFive))) {
            assertEquals(List.of("e6", "e7", "c8..8", "e9"), positioned(sse, 4).stream().map(m -> shown(m.frame())).toList());
        }
        var metrics = WsClient.HTTP.send(java.net.http.HttpRequest.newBuilder(gateway.management("/metrics")).GET().build(),
                java.net.http.HttpResponse.BodyHandlers.ofString());
        assertTrue(metrics.body().contains("notify_gateway_collapsed_events_total"), "the counter is exported");
    }

    @Test
    void aRoomsBacklogCollapsesOnSubscribeFromAPositionAndOverSseCarriesTheCompositeCursor() {
        StreamId u = StreamId.forUser("rita");
        StreamId room = StreamId.parse("r:lobby-7");
        String roomEpoch = "ep-room";
        gateway.stub().append(Events.range(u, E, 1, 3));
        gateway.stub().append(backlog(room, roomEpoch));

        try (WsClient ws = WsClient.connect(gateway.ws(), gateway.tokens().valid("rita"))) {
            ws.next(WAIT);
            ws.resume(u.value(), E, 3);
            ws.subscribe(room.value(), roomEpoch, 1);
            assertEquals(new Position(roomEpoch, 9), ws.expect(SubscribedFrame.class, WAIT).head());
            List<ServerFrame> got = ws.frames(AFTER_ONE.size(), WAIT);
            assertEquals(AFTER_ONE, got.stream().map(GatewayCollapseIT::shown).toList());
            assertEquals(room, ((CollapsedFrame) got.get(0)).stream());
        }

        StringBuilder cursor = new StringBuilder();
        SseCursor.append(cursor, u, new Position(E, 3));
        SseCursor.append(cursor, room, new Position(roomEpoch, 1));
        try (SseClient sse = SseClient.connect(gateway.http("/v1/sse?rooms=lobby-7&lastEventId="
                + URLEncoder.encode(cursor.toString(), StandardCharsets.UTF_8)), Map.of("Authorization", "Bearer " + gateway.tokens().valid("rita")))) {
            List<SseClient.Message> got = positioned(sse, AFTER_ONE.size());
            assertEquals(AFTER_ONE, got.stream().map(m -> shown(m.frame())).toList());
            SseClient.Message collapsed = got.get(2);
            assertEquals(Map.of(SseCursor.key(u), new Position(E, 3), SseCursor.key(room), new Position(roomEpoch, 5)),
                    SseCursor.parse(collapsed.id()), "the composite cursor with the room at the collapsed frame's end");
        }
    }
}
