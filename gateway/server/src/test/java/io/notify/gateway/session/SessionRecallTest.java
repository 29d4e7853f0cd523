package io.notify.gateway.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.notify.gateway.resume.FetchResult;
import io.notify.gateway.support.Events;
import io.notify.gateway.support.FakeTransport;
import io.notify.gateway.transport.OutboundFrame;
import io.notify.protocol.frame.CollapsedFrame;
import io.notify.protocol.frame.EventFrame;
import io.notify.protocol.frame.RecalledFrame;
import io.notify.protocol.frame.ServerFrame;
import io.notify.protocol.stream.Position;
import io.notify.protocol.stream.SequencedEvent;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Recall on a session (docs/protocol.md, "Recall"): an event its producer recalled reaches a catching-up
 * client as a {@code collapsed} frame of its one seq with reason {@code recalled} on every path, so seqs stay
 * gapless and no recalled content is sent, also when the recall came while the event was held or its page was
 * being read; the {@code recalled} frame goes to a client that was sent the event and moves nothing.
 */
class SessionRecallTest extends SessionFixture {

    private static final Map<String, String> COLLAPSE_ON = Map.of("notify.gateway.collapse.types", "order.status");

    /**
     * What the client sees of the stream: "e&lt;seq&gt;" per event, "c&lt;from&gt;..&lt;to&gt;[reason]" per collapsed frame
     * (no reason when superseded), "r&lt;seq&gt;" per recalled frame.
     */
    private static List<String> shown(FakeTransport t) {
        List<String> out = new ArrayList<>();
        for (ServerFrame f : t.frames()) {
            if (f instanceof EventFrame e) {
                out.add("e" + e.seq());
            } else if (f instanceof CollapsedFrame c) {
                out.add("c" + c.from() + ".." + c.to() + (c.reason() == null ? "" : c.reason().wireName()));
            } else if (f instanceof RecalledFrame r) {
                out.add("r" + r.seq());
            }
        }
        return out;
    }

    /** No recalled event's content reached the client. */
    private static void assertNoContentOf(FakeTransport t, long... seqs) {
        for (long seq : seqs) {
            assertTrue(t.frames().stream().noneMatch(f -> f instanceof EventFrame e && e.seq() == seq), "event " + seq + " was sent");
        }
    }

    private static OutboundFrame recalledFrame(long seq) {
        return OutboundFrame.recalled(new RecalledFrame(U, E, seq, "ev-" + seq));
    }

    @Test
    void aResumeOverARecalledEventGetsItsPositionWithReasonRecalled_collapsingOffOrOn() {
        for (Map<String, String> config : List.of(Map.<String, String>of(), COLLAPSE_ON)) {
            FakeTransport t = new FakeTransport("ws", 100, 1 << 20);
            resumedAt100(t, config);
            source.answers.get(0).complete(new FetchResult.Page(U, List.of(Events.durable(U, E, 101),
                    Events.durable(U, E, 102).asRecalled(), Events.durable(U, E, 103)), false));
            assertEquals(List.of("e101", "c102..102recalled", "e103"), shown(t), "with " + config);
            assertEquals(new CollapsedFrame(U, E, 102, 102, CollapsedFrame.Reason.RECALLED), t.frames().get(2));
            assertNull(t.closedWith());
            source.requests.clear();
            source.answers.clear();
        }
    }

    @Test
    void aRecalledEventNeverSupersedesAnEarlierOneOfItsKey() {
        FakeTransport t = new FakeTransport("ws", 100, 1 << 20);
        resumedAt100(t, COLLAPSE_ON);
        source.answers.get(0).complete(new FetchResult.Page(U, List.of(Events.keyed(U, E, 101, "order.status", "order-17"),
                Events.keyed(U, E, 102, "order.status", "order-17"),
                Events.keyed(U, E, 103, "order.status", "order-17").asRecalled()), false));
        assertEquals(List.of("c101..101", "e102", "c103..103recalled"), shown(t),
                "102 is the latest status the producer still stands by");
    }

    @Test
    void overSseTheRecalledSeqCarriesItsPositionAsId() {
        FakeTransport t = new FakeTransport("sse", 100, 1 << 20);
        open(t, Map.of(), Instant.now().plusSeconds(3600), new Position(E, 100));
        source.answers.get(0).complete(new FetchResult.Page(U, List.of(Events.durable(U, E, 101).asRecalled(),
                Events.durable(U, E, 102)), false));
        List<String> ids = t.written().stream().filter(f -> f.kind() == OutboundFrame.Kind.DURABLE).map(OutboundFrame::sseId).toList();
        assertEquals(List.of("ep1:101", "ep1:102"), ids);
        assertEquals(List.of("c101..101recalled", "e102"), shown(t));
    }

    @Test
    void aRecallThatComesWhileThePageIsReadAndTheLiveCopyHeld_sendsNeitherCopysContent() {
        FakeTransport t = new FakeTransport("ws", 100, 1 << 20);
        Session s = resumedAt100(t, Map.of());
        live(s, Events.durable(U, E, 103)); // held while the replay is in flight
        assertFalse(s.deliverRecalled(U, new Position(E, 102), recalledFrame(102)), "not sent yet: no recalled frame");
        assertFalse(s.deliverRecalled(U, new Position(E, 103), recalledFrame(103)));
        // the page was read before the recall reached the inbox: 102 still has its content there
        source.answers.get(0).complete(new FetchResult.Page(U, Events.range(U, E, 101, 102), false));
        live(s, Events.durable(U, E, 104));
        assertEquals(List.of("e101", "c102..102recalled", "c103..103recalled", "e104"), shown(t));
        assertNoContentOf(t, 102, 103);
        assertGapless(t, 100);

        assertTrue(s.deliverRecalled(U, new Position(E, 104), recalledFrame(104)), "104 was sent: the client is told");
        live(s, Events.durable(U, E, 105));
        assertEquals(List.of("e101", "c102..102recalled", "c103..103recalled", "e104", "r104", "e105"), shown(t),
                "the recalled frame moves nothing: 105 follows 104");
        assertEquals(1, source.requests.size(), "no gap fetched");
    }

    @Test
    void aRecalledFrameOfAnotherEpochOrOfAStreamNotFollowedIsNotSent() {
        FakeTransport t = new FakeTransport("ws", 100, 1 << 20);
        Session s = freshAtSeven(t, Map.of());
        live(s, Events.durable(U, E, 8));
        assertFalse(s.deliverRecalled(U, new Position("ep0", 8), recalledFrame(8)), "another history's seq 8");
        assertFalse(s.deliverRecalled(io.notify.protocol.stream.StreamId.parse("r:lobby"), new Position(E, 8), recalledFrame(8)));
        assertTrue(s.deliverRecalled(U, new Position(E, 8), recalledFrame(8)));
        assertEquals(List.of("e8", "r8"), shown(t));
    }

    @Test
    void onceTheNotedRecallIsPassedLiveEventsGoTheShortWayAgain() {
        FakeTransport t = new FakeTransport("ws", 100, 1 << 20);
        Session s = freshAtSeven(t, Map.of());
        assertFalse(s.deliverRecalled(U, new Position(E, 9), recalledFrame(9)));
        SequencedEvent e8 = Events.durable(U, E, 8);
        assertFalse(s.deliver(e8, OutboundFrame.event(e8, true)), "checked against the noted recall, sent by the session itself");
        SequencedEvent e9 = Events.durable(U, E, 9);
        assertFalse(s.deliver(e9, OutboundFrame.event(e9, true)));
        SequencedEvent e10 = Events.durable(U, E, 10);
        assertTrue(s.deliver(e10, OutboundFrame.event(e10, true)), "the recall is passed: queued at once, counted by the caller");
        assertEquals(List.of("e8", "c9..9recalled", "e10"), shown(t));
    }

    @Test
    void recallsOfSeqsNeverSentAreBounded_andLiveDeliveryGoesOnOnceTheNotedOneIsPast() {
        FakeTransport t = new FakeTransport("ws", 1000, 1 << 22);
        Session s = freshAtSeven(t, Map.of());
        for (long seq = 1000; seq < 1000 + StreamSync.MAX_RECALLED_AHEAD * 2L; seq++) {
            s.deliverRecalled(U, new Position(E, seq), recalledFrame(seq)); // never sent here: noted up to the bound
        }
        assertEquals(StreamSync.MAX_RECALLED_AHEAD, metrics.registry().get("notify.gateway.recalls.not.noted").counter().count(),
                "past the bound a recall is counted, not noted");
        List<SequencedEvent> live = Events.range(U, E, 8, 10);
        live.forEach(e -> live(s, e));
        assertEquals(List.of("e8", "e9", "e10"), shown(t));
        assertNull(t.closedWith());
    }

    @Test
    void aRecallOfAnotherEpochIsForgottenOnceLiveMoves_soLiveGoesTheShortWayAgain() {
        FakeTransport t = new FakeTransport("ws", 100, 1 << 20);
        Session s = freshAtSeven(t, Map.of());
        assertFalse(s.deliverRecalled(U, new Position("ep0", 9), recalledFrame(9)), "another history's seq: noted, not sent");
        SequencedEvent e8 = Events.durable(U, E, 8);
        assertFalse(s.deliver(e8, OutboundFrame.event(e8, true)), "checked against the noted recall");
        SequencedEvent e9 = Events.durable(U, E, 9);
        assertTrue(s.deliver(e9, OutboundFrame.event(e9, true)), "the other epoch's recall is forgotten: the short way again");
        assertEquals(List.of("e8", "e9"), shown(t), "ep1's seq 9 is not the one recalled");
    }

    @Test
    void aPageReadBeforeARecallIsPlannedAsTheInboxNowHasIt_theRecalledEventSupersedesNothing() {
        FakeTransport t = new FakeTransport("ws", 100, 1 << 20);
        Session s = resumedAt100(t, COLLAPSE_ON);
        assertFalse(s.deliverRecalled(U, new Position(E, 103), recalledFrame(103)), "not sent yet: noted");
        // the page was read before the recall reached the inbox: 103 still has its content there
        source.answers.get(0).complete(new FetchResult.Page(U, List.of(Events.keyed(U, E, 101, "order.status", "order-17"),
                Events.keyed(U, E, 102, "order.status", "order-17"),
                Events.keyed(U, E, 103, "order.status", "order-17")), false));
        assertEquals(List.of("c101..101", "e102", "c103..103recalled"), shown(t),
                "102 is the latest status the producer still stands by, as when the page holds the recalled entry");
        assertNoContentOf(t, 103);
        assertGapless(t, 100);
    }
}
