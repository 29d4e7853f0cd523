package io.notify.gateway.transport;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.notify.gateway.support.Events;
import io.notify.gateway.transport.OutboundQueue.Offer;
import io.notify.protocol.stream.StreamId;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class OutboundQueueTest {

    private static final StreamId U = StreamId.forUser("42");

    private static OutboundFrame frame(OutboundFrame.Kind kind, int bytes, String collapseKey) {
        return new OutboundFrame(kind, new byte[bytes], null, collapseKey, -1);
    }

    @Test
    void boundsFramesAndBytesCountingTheFrameInFlight() {
        OutboundQueue q = new OutboundQueue(3, 1000);
        assertEquals(Offer.QUEUED, q.offer(frame(OutboundFrame.Kind.DURABLE, 400, null)));
        assertEquals(Offer.QUEUED, q.offer(frame(OutboundFrame.Kind.DURABLE, 400, null)));
        assertEquals(Offer.OVERFLOW, q.offer(frame(OutboundFrame.Kind.DURABLE, 201, null)), "bytes bound");
        assertEquals(Offer.QUEUED, q.offer(frame(OutboundFrame.Kind.CONTROL, 200, null)));
        assertEquals(Offer.OVERFLOW, q.offer(frame(OutboundFrame.Kind.CONTROL, 1, null)), "frames bound");
        OutboundFrame first = q.poll();
        assertEquals(Offer.OVERFLOW, q.offer(frame(OutboundFrame.Kind.DURABLE, 1, null)), "in flight still counts");
        q.written(first);
        assertEquals(Offer.QUEUED, q.offer(frame(OutboundFrame.Kind.DURABLE, 1, null)));
        assertEquals(3, q.frames());
        assertEquals(601, q.bytes());
    }

    @Test
    void aGatheredWriteTakesFramesUpToItsCountAndBytesAndTheyCountInFlightUntilWritten() {
        OutboundQueue q = new OutboundQueue(10, 10_000);
        OutboundFrame[] f = new OutboundFrame[6];
        for (int i = 0; i < f.length; i++) {
            f[i] = frame(OutboundFrame.Kind.DURABLE, 100 * (i + 1), null);
            q.offer(f[i]);
        }
        assertEquals(java.util.List.of(f[0], f[1]), q.pollUpTo(2, 10_000), "count bound");
        assertEquals(java.util.List.of(f[2], f[3]), q.pollUpTo(8, 700), "bytes bound: 300 + 400, not + 500");
        assertEquals(java.util.List.of(f[4]), q.pollUpTo(8, 100), "the first frame always goes, whatever its size");
        assertEquals(6, q.frames(), "polled frames are in flight");
        assertEquals(2100, q.bytes());
        q.written(java.util.List.of(f[0], f[1]));
        assertEquals(4, q.frames());
        assertEquals(1800, q.bytes());
        assertEquals(java.util.List.of(f[5]), q.pollUpTo(8, 10_000));
        assertEquals(java.util.List.of(), q.pollUpTo(8, 10_000), "empty");
        assertEquals(true, q.isEmpty());
    }

    @Test
    void fullQueueCoalescesEphemeralEventsByCollapseKeyLatestWinsInPlace() {
        OutboundQueue q = new OutboundQueue(3, 10_000);
        OutboundFrame typingA1 = OutboundFrame.event(Events.ephemeral(U, "a1", "typing:a"), true);
        OutboundFrame durable = OutboundFrame.event(Events.durable(U, "e", 1), true);
        OutboundFrame typingB = OutboundFrame.event(Events.ephemeral(U, "b1", "typing:b"), true);
        q.offer(typingA1);
        q.offer(durable);
        q.offer(typingB);
        OutboundFrame typingA2 = OutboundFrame.event(Events.ephemeral(U, "a2", "typing:a"), true);
        assertEquals(Offer.COALESCED, q.offer(typingA2));
        assertSame(typingA2, q.poll(), "the newer one took the older one's place");
        assertSame(durable, q.poll());
        assertSame(typingB, q.poll());
        assertNull(q.poll());
    }

    @Test
    void coalescingNeverCrossesStreamsNorDisplacesAStateFrame() {
        StreamId room = StreamId.parse("r:chat");
        OutboundQueue q = new OutboundQueue(2, 10_000);
        OutboundFrame state = OutboundFrame.ephemeral(new io.notify.protocol.frame.PongFrame(), OutboundFrame.stateCoalescingKey(U));
        OutboundFrame roomTyping = OutboundFrame.event(Events.ephemeral(room, "r1", "typing"), true);
        q.offer(state);
        q.offer(roomTyping);
        assertEquals(Offer.DROPPED, q.offer(OutboundFrame.event(Events.ephemeral(U, "u1", "typing"), true)),
                "the same collapse key on another stream replaces nothing");
        assertEquals(Offer.DROPPED, q.offer(OutboundFrame.event(Events.ephemeral(U, "u2", io.notify.protocol.frame.StateFrame.EVENT_TYPE), true)),
                "an event whose collapse key is the state frame's type does not displace the state frame");
        OutboundFrame roomTyping2 = OutboundFrame.event(Events.ephemeral(room, "r2", "typing"), true);
        assertEquals(Offer.COALESCED, q.offer(roomTyping2));
        OutboundFrame state2 = OutboundFrame.ephemeral(new io.notify.protocol.frame.PongFrame(), OutboundFrame.stateCoalescingKey(U));
        assertEquals(Offer.COALESCED, q.offer(state2), "the stream's newer state frame replaces its older one");
        assertSame(state2, q.poll());
        assertSame(roomTyping2, q.poll());
    }

    @Test
    void fullQueueDropsEphemeralEventsWithoutAKeyButNeverDurableOnes() {
        OutboundQueue q = new OutboundQueue(1, 10_000);
        q.offer(OutboundFrame.event(Events.durable(U, "e", 1), true));
        assertEquals(Offer.DROPPED, q.offer(OutboundFrame.event(Events.ephemeral(U, "x", null), true)));
        assertEquals(Offer.DROPPED, q.offer(OutboundFrame.event(Events.ephemeral(U, "y", "k"), true)), "nothing to coalesce with");
        assertEquals(Offer.OVERFLOW, q.offer(OutboundFrame.event(Events.durable(U, "e", 2), true)));
    }

    @Test
    void closedQueueRefusesAndForgets() {
        OutboundQueue q = new OutboundQueue(10, 10_000);
        q.offer(frame(OutboundFrame.Kind.DURABLE, 10, null));
        q.close();
        assertEquals(Offer.CLOSED, q.offer(frame(OutboundFrame.Kind.DURABLE, 10, null)));
        assertNull(q.poll());
    }

    @Test
    void eventFramesAreEncodedOnceWithTheirSseId() {
        OutboundFrame f = OutboundFrame.event(Events.durable(U, "k3x9", 17), true);
        assertEquals("k3x9:17", f.sseId());
        assertEquals(OutboundFrame.Kind.DURABLE, f.kind());
        assertArrayEquals(f.payload(), new String(f.payload(), StandardCharsets.UTF_8).getBytes(StandardCharsets.UTF_8));
    }
}
