package io.notify.gateway.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.notify.gateway.delivery.Dispatcher;
import io.notify.gateway.metrics.HopStamps;
import io.notify.gateway.support.Events;
import io.notify.gateway.support.FakeTransport;
import io.notify.gateway.transport.OutboundFrame;
import io.notify.protocol.frame.StateFrame;
import io.notify.protocol.inbox.ReceiptKind;
import io.notify.protocol.stream.DeliveryMessage;
import io.notify.protocol.stream.LiveEvent;
import io.notify.protocol.stream.SequencedEvent;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The node's dispatch of delivery messages to a live session: frames in order, the per-message
 * counting of the fan-out (events delivered live, delivery messages, the upstream hops), which is
 * done once per message rather than per frame, and state events sent as {@code state} frames.
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
