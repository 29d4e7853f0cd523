package io.notify.gateway.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.notify.devstack.Await;
import io.notify.gateway.delivery.Dispatcher;
import io.notify.gateway.metrics.HopStamps;
import io.notify.gateway.resume.FetchResult;
import io.notify.gateway.support.Events;
import io.notify.gateway.support.FakeTransport;
import io.notify.gateway.transport.OutboundFrame;
import io.notify.protocol.frame.CollapsedFrame;
import io.notify.protocol.frame.EventFrame;
import io.notify.protocol.frame.RecalledFrame;
import io.notify.protocol.frame.StateFrame;
import io.notify.protocol.frame.SubscribedFrame;
import io.notify.protocol.inbox.ReceiptKind;
import io.notify.protocol.stream.DeliveryMessage;
import io.notify.protocol.stream.LiveEvent;
import io.notify.protocol.stream.Position;
import io.notify.protocol.stream.SequencedEvent;
import io.notify.protocol.stream.StreamId;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The node's dispatch of delivery messages to a live session: frames in order, the per-message
 * counting of the fan-out (events delivered live, delivery messages, the upstream hops), which is
 * done once per message rather than per frame, state events sent as {@code state} frames and recall events as
 * {@code recalled} frames.
 */
class DispatcherTest extends SessionFixture {

    private static DeliveryMessage toAll(SequencedEvent e) {
        return new DeliveryMessage(e.stream(), List.of(), e, System.currentTimeMillis());
    }

    private double count(String name, String... tags) {
        return metrics.count(name, tags);
    }

    @Test
    void inOrderEventsAreCountedLiveOncePerMessageAndOthersWhereTheyAreDecided() {
        FakeTransport t = new FakeTransport("ws", 100, 1 << 20);
        freshAtSeven(t, Map.of("notify.gateway.recheck-after", "0s"));
        Dispatcher dispatcher = new Dispatcher(table, metrics);
        long now = System.currentTimeMillis() * 1000;
        HopStamps hops = new HopStamps(now - 5_000, now - 4_000, now - 3_000, now - 2_000, now - 1_000, now);

        dispatcher.dispatch(toAll(Events.durable(U, E, 8)), hops);
        dispatcher.dispatch(toAll(Events.durable(U, E, 9)), hops);
        assertEquals(List.of(8L, 9L), seqs(t));
        assertEquals(2.0, count("notify.gateway.events.delivered", "class", "durable", "path", "live"));
        assertEquals(2.0, count("notify.gateway.delivery.messages", "outcome", "delivered"));
        assertEquals(2L, metrics.registry().get("notify.gateway.hop.latency").tag("hop", "route").timer().count(),
                "the upstream hops: once per message");

        dispatcher.dispatch(toAll(Events.durable(U, E, 9)), null); // a duplicate: dropped and counted by the session
        assertEquals(1.0, count("notify.gateway.duplicates.dropped"));
        assertEquals(2.0, count("notify.gateway.events.delivered", "class", "durable", "path", "live"));

        dispatcher.dispatch(toAll(Events.durable(U, E, 11)), null); // a gap: held, 10 fetched
        assertEquals(List.of(8L, 9L), seqs(t));
        assertEquals(1.0, count("notify.gateway.gap.fills"));

        dispatcher.dispatch(new DeliveryMessage(U, List.of("c-other"), Events.durable(U, E, 12), System.currentTimeMillis()), null);
        assertEquals(1.0, count("notify.gateway.delivery.messages", "outcome", "no_connection"), "names no local connection");
    }

    @Test
    void aStateEventGoesOutAsAStateFrameWithoutSseIdAndIsNotCountedAsAnEvent() {
        FakeTransport ws = new FakeTransport("ws", 100, 1 << 20);
        freshAtSeven(ws, Map.of());
        Dispatcher dispatcher = new Dispatcher(table, metrics);
        StateFrame state = new StateFrame(U, E, 7, 2, 1, 3, ReceiptKind.SEEN, null, List.of(6L, 7L), null);
        LiveEvent carrier = state.toLiveEvent("st-3", "notify-fanout", System.currentTimeMillis());

        dispatcher.dispatch(new DeliveryMessage(U, List.of(), carrier, System.currentTimeMillis()), null);
        assertEquals(state, ws.frames().get(ws.frames().size() - 1));
        OutboundFrame written = ws.written().get(ws.written().size() - 1);
        assertNull(written.sseId(), "no position: no SSE id");
        assertEquals(OutboundFrame.Kind.EPHEMERAL, written.kind());
        assertEquals(1.0, count("notify.gateway.state.frames"));
        assertEquals(0.0, count("notify.gateway.events.delivered", "class", "ephemeral", "path", "live"));
        assertEquals(1.0, count("notify.gateway.delivery.messages", "outcome", "delivered"));

        ObjectNode bad = JsonNodeFactory.instance.objectNode().put("t", "state").put("stream", "u:42");
        LiveEvent unreadable = new LiveEvent(U, "st-x", StateFrame.EVENT_TYPE, bad, null, null, "notify-fanout",
                System.currentTimeMillis());
        int frames = ws.frames().size();
        dispatcher.dispatch(new DeliveryMessage(U, List.of(), unreadable, System.currentTimeMillis()), null);
        assertEquals(frames, ws.frames().size(), "nothing sent for it");
        assertEquals(1.0, count("notify.gateway.delivery.messages", "outcome", "poison"));
    }

    private static DeliveryMessage recall(StreamId stream, String epoch, long seq) {
        LiveEvent carrier = new RecalledFrame(stream, epoch, seq, "ev-" + seq).toLiveEvent("rc-" + seq, "notify-fanout",
                System.currentTimeMillis());
        return new DeliveryMessage(stream, List.of(), carrier, System.currentTimeMillis());
    }

    @Test
    void aRecalledEventGoesOutAsARecalledFrameWithoutSseId_notAnEvent_andTheStreamGoesOnWhereItWas() {
        FakeTransport ws = new FakeTransport("ws", 100, 1 << 20);
        freshAtSeven(ws, Map.of());
        Dispatcher dispatcher = new Dispatcher(table, metrics);
        dispatcher.dispatch(toAll(Events.durable(U, E, 8)), null);

        dispatcher.dispatch(recall(U, E, 8), null);
        assertEquals(new RecalledFrame(U, E, 8, "ev-8"), ws.frames().get(ws.frames().size() - 1));
        OutboundFrame written = ws.written().get(ws.written().size() - 1);
        assertNull(written.sseId(), "no position: no SSE id");
        assertEquals(OutboundFrame.Kind.EPHEMERAL, written.kind());
        assertEquals(1.0, count("notify.gateway.recalled.frames"));
        assertEquals(1.0, count("notify.gateway.events.delivered", "class", "durable", "path", "live"), "event 8 only");
        assertEquals(0.0, count("notify.gateway.events.delivered", "class", "ephemeral", "path", "live"));

        dispatcher.dispatch(toAll(Events.durable(U, E, 9)), null);
        assertEquals(List.of(8L, 9L), seqs(ws), "the position is where event 8 left it: 9 follows, no gap");
        assertTrue(source.requests.isEmpty(), "nothing fetched");

        ObjectNode bad = JsonNodeFactory.instance.objectNode().put("stream", "u:42").put("seq", 9);
        int frames = ws.frames().size();
        dispatcher.dispatch(new DeliveryMessage(U, List.of(), new LiveEvent(U, "rc-x", RecalledFrame.EVENT_TYPE, bad, null, null,
                "notify-fanout", System.currentTimeMillis()), System.currentTimeMillis()), null);
        assertEquals(frames, ws.frames().size(), "nothing sent for it");
        assertEquals(1.0, count("notify.gateway.delivery.messages", "outcome", "poison"));
    }

    @Test
    void aRecallOfASeqNotSentYetSendsNoFrame_theEventComesAsItsPositionOnly() {
        FakeTransport ws = new FakeTransport("ws", 100, 1 << 20);
        freshAtSeven(ws, Map.of());
        Dispatcher dispatcher = new Dispatcher(table, metrics);
        dispatcher.dispatch(recall(U, E, 8), null); // ahead of the event (a room switching to notify.all-nodes may reorder)
        assertTrue(ws.frames().stream().noneMatch(RecalledFrame.class::isInstance), "the client never had event 8");
        assertEquals(0.0, count("notify.gateway.recalled.frames"));

        dispatcher.dispatch(toAll(Events.durable(U, E, 8)), null);
        dispatcher.dispatch(toAll(Events.durable(U, E, 9)), null);
        assertEquals(new CollapsedFrame(U, E, 8, 8, CollapsedFrame.Reason.RECALLED), ws.frames().get(ws.frames().size() - 2),
                "its position, not its content");
        assertEquals(List.of(9L), seqs(ws));
    }

    @Test
    void aRoomSubscriberGetsTheRecalledFrameOfTheRoom_aConnectionWithoutTheRoomDoesNot() {
        FakeTransport ws = new FakeTransport("ws", 100, 1 << 20);
        Session s = freshAtSeven(ws, Map.of("notify.gateway.rooms.public", "lobby"));
        StreamId room = StreamId.parse("r:lobby");
        s.text("{\"t\":\"subscribe\",\"stream\":\"r:lobby\"}");
        Await.until("the room's head read", Duration.ofSeconds(5), () -> source.answers.size() == 1);
        source.answers.get(0).complete(new FetchResult.Page(room, List.of(), false, new Position("ep-r", 3)));
        Await.until("subscribed", Duration.ofSeconds(5), () -> ws.frames().stream().anyMatch(SubscribedFrame.class::isInstance));
        Dispatcher dispatcher = new Dispatcher(table, metrics);
        dispatcher.dispatch(toAll(Events.durable(room, "ep-r", 4)), null);
        assertEquals(1, ws.frames().stream().filter(f -> f instanceof EventFrame e && e.stream().equals(room)).count());

        dispatcher.dispatch(recall(room, "ep-r", 4), null);
        assertEquals(new RecalledFrame(room, "ep-r", 4, "ev-4"), ws.frames().get(ws.frames().size() - 1));
        dispatcher.dispatch(recall(StreamId.parse("r:other"), "ep-o", 1), null);
        assertEquals(new RecalledFrame(room, "ep-r", 4, "ev-4"), ws.frames().get(ws.frames().size() - 1), "not subscribed there");
        assertEquals(1.0, count("notify.gateway.recalled.frames"));
    }

    @Test
    void anEphemeralEventPastItsExpiryIsNotSent() {
        FakeTransport ws = new FakeTransport("ws", 100, 1 << 20);
        freshAtSeven(ws, Map.of());
        Dispatcher dispatcher = new Dispatcher(table, metrics);
        long now = System.currentTimeMillis();
        int frames = ws.frames().size();
        dispatcher.dispatch(new DeliveryMessage(U, List.of(), new LiveEvent(U, "typing-1", "chat.typing", null, null, null, null,
                now - 2_000, now - 1), now), null);
        assertEquals(frames, ws.frames().size(), "expired: nothing sent");
        assertEquals(1.0, count("notify.gateway.delivery.messages", "outcome", "expired"));
        dispatcher.dispatch(new DeliveryMessage(U, List.of(), new LiveEvent(U, "typing-2", "chat.typing", null, null, null, null,
                now, now + 60_000), now), null);
        assertEquals(frames + 1, ws.frames().size(), "within its expiry: sent");
    }
}
