package io.notify.client.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.notify.client.ClientEvent;
import io.notify.client.NotifyClientException;
import io.notify.client.NotifyListener;
import io.notify.protocol.event.EventClass;
import io.notify.protocol.frame.AckFrame;
import io.notify.protocol.frame.CollapsedFrame;
import io.notify.protocol.frame.EventFrame;
import io.notify.protocol.frame.Frame;
import io.notify.protocol.frame.SubscribedFrame;
import io.notify.protocol.frame.WelcomeFrame;
import io.notify.protocol.stream.Position;
import io.notify.protocol.stream.StreamId;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * {@code collapsed} frames (seqs superseded during a catch-up by later events with the same collapse
 * key) through the real codec: they stand in for their seqs in the dedup gate, the position, the
 * acks and the stats.
 */
class FrameHandlerCollapsedTest extends HandlerFixture {

    private static final StreamId CHAT = StreamId.forRoom("chat-1");

    private final NotifyListener listener = new NotifyListener() {
        @Override
        public void onEvent(ClientEvent event) {
            seen.add(event.stream() + " " + event.id());
        }

        @Override
        public void onCollapsed(StreamId stream, long from, long to) {
            seen.add(stream + " collapsed " + from + ".." + to + " stored=" + stored(stream));
        }

        @Override
        public void onMuted(StreamId stream, long from, long to) {
            seen.add(stream + " muted " + from + ".." + to + " stored=" + stored(stream));
        }

        @Override
        public void onExpired(StreamId stream, long from, long to) {
            seen.add(stream + " expired " + from + ".." + to + " stored=" + stored(stream));
        }
    };

    private final FrameHandler handler = handlerOf(listener);

    private FrameHandler.Outcome receive(Frame frame) {
        return receive(handler, frame);
    }

    private static EventFrame event(StreamId stream, long seq) {
        return new EventFrame(stream, "ep", seq, "ev-" + seq, "demo.hello", EventClass.DURABLE, null, null);
    }

    private void welcome() {
        receive(WelcomeFrame.v1("gw-1", "c-1", List.of(U42), 5_000, 1));
    }

    @Test
    void eventsOneAndTwoThenCollapsedThreeToFiveThenSixIsNoGapAndEndsAtSix() {
        welcome();
        List<FrameHandler.Outcome> outcomes = new ArrayList<>();
        for (Frame f : List.of(event(U42, 1), event(U42, 2), new CollapsedFrame(U42, "ep", 3, 5), event(U42, 6))) {
            outcomes.add(receive(f));
        }
        assertTrue(outcomes.stream().noneMatch(FrameHandler.Outcome::resync), "no gap: " + outcomes);
        assertEquals(List.of("u:42 ev-1", "u:42 ev-2", "u:42 collapsed 3..5 stored=ep:2", "u:42 ev-6"), seen,
                "the listener is told before the position moves");
        assertEquals(Optional.of(Position.of("ep", 6)), store.load(U42));
        assertEquals(3, counters.snapshot().collapsedSkipped());
        assertEquals(3, counters.snapshot().delivered());
        assertEquals(0, counters.snapshot().resets());
        assertEquals(0, counters.snapshot().duplicatesDropped());
        assertEquals(List.of(new AckFrame(U42, 6)), handler.takeAcks());
        assertEquals(List.of(), errors);
    }

    @Test
    void anEventTheUserMutedIsToldAsMutedAndIsAPositionLikeACollapsedOne() {
        welcome();
        for (Frame f : List.of(event(U42, 1), new CollapsedFrame(U42, "ep", 2, 2, CollapsedFrame.Reason.MUTED), event(U42, 3))) {
            assertTrue(!receive(f).resync(), "no gap at " + f);
        }
        assertEquals(List.of("u:42 ev-1", "u:42 muted 2..2 stored=ep:1", "u:42 ev-3"), seen);
        assertEquals(Optional.of(Position.of("ep", 3)), store.load(U42));
        assertEquals(List.of(new AckFrame(U42, 3)), handler.takeAcks());
    }

    @Test
    void anEventThatExpiredBeforeItWasSentIsToldAsExpiredAndByDefaultAsCollapsed() {
        welcome();
        for (Frame f : List.of(event(U42, 1), new CollapsedFrame(U42, "ep", 2, 2, CollapsedFrame.Reason.EXPIRED), event(U42, 3))) {
            assertTrue(!receive(f).resync(), "no gap at " + f);
        }
        assertEquals(List.of("u:42 ev-1", "u:42 expired 2..2 stored=ep:1", "u:42 ev-3"), seen);
        assertEquals(Optional.of(Position.of("ep", 3)), store.load(U42));
        List<String> told = new ArrayList<>();
        NotifyListener onlyCollapsed = new NotifyListener() {
            @Override
            public void onEvent(ClientEvent event) {
            }

            @Override
            public void onCollapsed(StreamId stream, long from, long to) {
                told.add(from + ".." + to);
            }
        };
        onlyCollapsed.onExpired(U42, 2, 2);
        assertEquals(List.of("2..2"), told, "an application written before onExpired hears of it as before");
    }

    @Test
    void aCollapsedRangeMayBeAckedAndTheNextEventIsItsEndPlusOne() {
        welcome();
        receive(event(U42, 1));
        receive(new CollapsedFrame(U42, "ep", 2, 4));
        assertEquals(List.of(new AckFrame(U42, 4)), handler.takeAcks(), "an ack may cover the collapsed seqs");
        assertTrue(receive(event(U42, 6)).resync(), "5 is missing: a gap");
        assertFalse(receive(event(U42, 5)).resync());
        assertEquals(Optional.of(Position.of("ep", 5)), store.load(U42));
    }

    @Test
    void aRangeOverlappingWhatWasDeliveredIsTakenFromTheFirstSeqTheClientLacks() {
        store.save(U42, Position.of("ep", 4));
        welcome();
        receive(new CollapsedFrame(U42, "ep", 3, 6)); // e.g. a replay after a failover: 3 and 4 came live already
        receive(new CollapsedFrame(U42, "ep", 2, 5)); // all at or below the position: a duplicate
        receive(event(U42, 7));
        assertEquals(List.of("u:42 collapsed 5..6 stored=ep:4", "u:42 ev-7"), seen);
        assertEquals(2, counters.snapshot().collapsedSkipped());
        assertEquals(1, counters.snapshot().duplicatesDropped());
    }

    @Test
    void aCollapsedRangeAfterMissingSeqsOrOfAnotherEpochAsksForAResync() {
        store.save(U42, Position.of("ep", 2));
        welcome();
        assertTrue(receive(new CollapsedFrame(U42, "ep", 4, 6)).resync(), "3 is missing");
        assertTrue(receive(new CollapsedFrame(U42, "other", 3, 6)).resync(), "another epoch");
        assertEquals(List.of(), seen);
        assertEquals(Optional.of(Position.of("ep", 2)), store.load(U42));
        assertEquals(0, counters.snapshot().collapsedSkipped());
    }

    @Test
    void withoutAPositionACollapsedRangeIsTheStart() {
        welcome();
        receive(new CollapsedFrame(U42, "ep", 1, 3));
        receive(event(U42, 4));
        assertEquals(List.of("u:42 collapsed 1..3 stored=none", "u:42 ev-4"), seen);
        assertEquals(Optional.of(Position.of("ep", 4)), store.load(U42));
    }

    @Test
    void aRoomsCollapsedRangeGoesToItsListenerAndOneOfARoomNotHeldIsDropped() {
        List<String> chat = new ArrayList<>();
        rooms.add(CHAT, collapsedRecorder(chat));
        welcome();
        receive(new SubscribedFrame(CHAT, Position.of("ep", 10)));
        receive(new CollapsedFrame(CHAT, "ep", 11, 14));
        receive(event(CHAT, 15));
        receive(new CollapsedFrame(StreamId.forRoom("left"), "ep", 1, 2));
        assertEquals(List.of("collapsed 11..14", "ev-15"), chat);
        assertEquals(Optional.of(Position.of("ep", 15)), store.load(CHAT));
        assertEquals(1, counters.snapshot().unsubscribedDropped());
        assertEquals(List.of(), seen, "the user's listener hears nothing of a room");
    }

    @Test
    void aThrowingOnCollapsedIsReportedAndTheRangeStillCounts() {
        FrameHandler throwing = handlerOf(new NotifyListener() {
            @Override
            public void onEvent(ClientEvent event) {
            }

            @Override
            public void onCollapsed(StreamId stream, long from, long to) {
                throw new IllegalStateException("boom");
            }
        });
        throwing.handle(WelcomeFrame.v1("gw-1", "c-1", List.of(U42), 5_000, 1), ws);
        throwing.handle(new CollapsedFrame(U42, "ep", 1, 2), ws);
        assertEquals(NotifyClientException.Kind.LISTENER, errors.get(0).kind());
        assertEquals(Optional.of(Position.of("ep", 2)), store.load(U42));
    }
}
