package io.notify.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.notify.devstack.Await;
import io.notify.devstack.Infra;
import io.notify.devstack.NotifyInfraExtension;
import io.notify.gateway.support.Events;
import io.notify.gateway.support.GatewayHarness;
import io.notify.gateway.support.ReceiptsReader;
import io.notify.gateway.support.SseClient;
import io.notify.gateway.support.WsClient;
import io.notify.protocol.frame.CollapsedFrame;
import io.notify.protocol.frame.EventFrame;
import io.notify.protocol.frame.RecalledFrame;
import io.notify.protocol.frame.ServerFrame;
import io.notify.protocol.frame.SubscribedFrame;
import io.notify.protocol.frame.WelcomeFrame;
import io.notify.protocol.inbox.Receipt;
import io.notify.protocol.stream.StreamId;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Recall through a real gateway node (real Kafka for its node topic, real Redis for the registry, the inbox
 * served by {@code QueryApiStub}; docs/protocol.md, "Recall"): the {@code notify.recalled} event that
 * fanout-streams routes reaches a WebSocket and an SSE client of the user, and a room's subscriber, as a
 * {@code recalled} frame that moves no position (no SSE id, the next event follows, acks name it as before),
 * and a resume over a recalled event gets a {@code collapsed} frame with reason {@code recalled} in its place.
 */
@ExtendWith(NotifyInfraExtension.class)
@Timeout(90)
class GatewayRecallIT {

    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final String E = "ep1";
    private static GatewayHarness gateway;
    private static ReceiptsReader receipts;

    @BeforeAll
    static void start(Infra infra) {
        receipts = new ReceiptsReader(infra, 3);
        gateway = new GatewayHarness(infra, "gw-recall", Map.of("notify.gateway.rooms.public", "lobby-*"));
    }

    @AfterAll
    static void stop() {
        if (receipts != null) {
            receipts.close();
        }
        if (gateway != null) {
            gateway.close();
        }
    }

    /** What fanout-streams routes after a recall of {@code seq}: the ephemeral event carrying the frame. */
    private static void recall(StreamId stream, String epoch, long seq) {
        gateway.deliver(new RecalledFrame(stream, epoch, seq, "ev-" + seq).toLiveEvent("rc-" + seq, "notify-fanout",
                System.currentTimeMillis()));
    }


    private static String shown(ServerFrame f) {
        if (f instanceof EventFrame e) {
            return "e" + e.seq();
        }
        return f instanceof CollapsedFrame c ? "c" + c.from() + ".." + c.to() + " " + c.reason() : f.frameType().wireName();
    }

    @Test
    void aRecallReachesWebSocketAndSseAsARecalledFrame_positionsAndAcksGoOnAsBefore() {
        StreamId u = StreamId.forUser("rosa");
        try (WsClient ws = WsClient.connect(URI.create(gateway.ws() + "?device=phone-1"), gateway.tokens().valid("rosa"));
             SseClient sse = SseClient.connect(gateway.http("/v1/sse"), Map.of("Authorization", "Bearer " + gateway.tokens().valid("rosa")))) {
            assertInstanceOf(WelcomeFrame.class, ws.next(WAIT));
            ws.resumeLive();
            assertEquals(200, sse.status());
            Await.until("both registered", WAIT, () -> gateway.server().sessions().ofUser("rosa").size() == 2);
            gateway.publish(Events.durable(u, E, 1));
            assertEquals(1L, ws.events(1, WAIT).get(0).seq());
            assertEquals(E + ":1", sse.events(1, WAIT).get(0).id());
            double before = gateway.count("notify.gateway.recalled.frames");
            double eventsBefore = gateway.count("notify.gateway.events.delivered", "class", "ephemeral", "path", "live");

            recall(u, E, 1);
            assertEquals(new RecalledFrame(u, E, 1, "ev-1"), ws.expect(RecalledFrame.class, WAIT));
            SseClient.Message m = sse.nextFrame(WAIT);
            assertEquals(new RecalledFrame(u, E, 1, "ev-1"), m.frame());
            assertNull(m.id(), "a recalled frame is no position: Last-Event-ID stays at 1");
            Await.until("counted", WAIT, () -> gateway.count("notify.gateway.recalled.frames") == before + 2);
            assertEquals(eventsBefore, gateway.count("notify.gateway.events.delivered", "class", "ephemeral", "path", "live"),
                    "not an event delivered");

            gateway.publish(Events.durable(u, E, 2)); // the position is where event 1 left it: 2 follows, nothing fetched
            assertEquals(2L, ws.events(1, WAIT).get(0).seq());
            assertEquals(E + ":2", sse.nextFrame(WAIT).id());
            ws.send("{\"t\":\"ack\",\"stream\":\"u:rosa\",\"seq\":2}");
            Receipt ack = receipts.valuesOf(u, 1, WAIT).get(0);
            assertEquals(2L, ack.upTo());
            assertEquals(E, ack.epoch());
            assertEquals("phone-1", ack.device());
            assertTrue(ws.quiet(Duration.ofMillis(300)), "nothing else: no reset, no duplicate");
        }
    }

    @Test
    void aResumeOverARecalledEventGetsACollapsedFrameWithReasonRecalled_overWebSocketAndSse() {
        StreamId u = StreamId.forUser("remy");
        gateway.stub().append(List.of(Events.durable(u, E, 1), Events.durable(u, E, 2).asRecalled(), Events.durable(u, E, 3)));
        try (WsClient ws = WsClient.connect(gateway.ws(), gateway.tokens().valid("remy"))) {
            assertInstanceOf(WelcomeFrame.class, ws.next(WAIT));
            ws.resume(u.value(), E, 1);
            assertEquals(List.of("c2..2 RECALLED", "e3"), ws.frames(2, WAIT).stream().map(GatewayRecallIT::shown).toList());
            assertTrue(ws.receivedEvents().stream().noneMatch(e -> e.seq() == 2), "no recalled content");
        }
        try (SseClient sse = SseClient.connect(gateway.http("/v1/sse"),
                Map.of("Authorization", "Bearer " + gateway.tokens().valid("remy"), "Last-Event-ID", E + ":1"))) {
            SseClient.Message collapsed = sse.nextFrame(WAIT);
            while (collapsed.frame() instanceof WelcomeFrame) {
                collapsed = sse.nextFrame(WAIT);
            }
            assertEquals(new CollapsedFrame(u, E, 2, 2, CollapsedFrame.Reason.RECALLED), collapsed.frame());
            assertEquals(E + ":2", collapsed.id(), "a browser reconnecting now resumes after the recalled seq");
            assertEquals(3L, ((EventFrame) sse.nextFrame(WAIT).frame()).seq());
        }
    }

    @Test
    void aRoomsSubscriberGetsTheRoomsRecalledFrame() {
        StreamId u = StreamId.forUser("rhea");
        StreamId room = StreamId.parse("r:lobby-3");
        try (WsClient ws = WsClient.connect(gateway.ws(), gateway.tokens().valid("rhea"))) {
            assertInstanceOf(WelcomeFrame.class, ws.next(WAIT));
            ws.resumeLive();
            ws.subscribe(room.value());
            ws.expect(SubscribedFrame.class, WAIT);
            Await.until("the node holds a subscriber", WAIT, () -> !gateway.server().sessions().subscribers(room).isEmpty());
            gateway.publish(Events.durable(room, "ep-r", 1));
            assertEquals(room, ws.events(1, WAIT).get(0).stream());

            recall(room, "ep-r", 1);
            assertEquals(new RecalledFrame(room, "ep-r", 1, "ev-1"), ws.expect(RecalledFrame.class, WAIT));
            gateway.publish(Events.durable(room, "ep-r", 2));
            assertEquals(2L, ws.events(1, WAIT).get(0).seq());
        }
    }
}
