package io.notify.client.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.notify.client.InboxChange;
import io.notify.client.InboxCounts;
import io.notify.client.InboxListener;
import io.notify.client.NotifyClientException;
import io.notify.protocol.event.EventClass;
import io.notify.protocol.frame.CollapsedFrame;
import io.notify.protocol.frame.EventFrame;
import io.notify.protocol.frame.Frame;
import io.notify.protocol.frame.ResetFrame;
import io.notify.protocol.frame.StateFrame;
import io.notify.protocol.frame.WelcomeFrame;
import io.notify.protocol.inbox.ReceiptKind;
import io.notify.protocol.stream.Position;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** The unread estimate and the state listener, fed through {@link FrameHandler} and the real codec. */
class InboxTrackerTest extends HandlerFixture {

    private final List<InboxChange> changes = new ArrayList<>();
    private final List<Long> unread = new ArrayList<>();

    private final InboxTracker tracker = new InboxTracker(new InboxListener() {
        @Override
        public void onState(InboxChange change) {
            changes.add(change);
        }

        @Override
        public void onUnread(InboxCounts estimate) {
            unread.add(estimate.unread());
        }
    }, "phone-1", errors::add);

    private final FrameHandler handler = new FrameHandler(e -> { }, new StreamPositions(store), errors::add,
            counters, rooms, tracker);

    private FrameHandler.Outcome receive(Frame frame) {
        return receive(handler, frame);
    }

    private static EventFrame event(String epoch, long seq) {
        return new EventFrame(U42, epoch, seq, "ev-" + seq, "demo.hello", EventClass.DURABLE, null, null);
    }

    private static StateFrame read(long head, long unread, long version, long upTo, String device) {
        return new StateFrame(U42, "ep", head, unread, unread, version, ReceiptKind.READ, upTo, null, device);
    }

    private long estimate() {
        return tracker.current().orElseThrow().unread();
    }

    @Test
    void theEstimateIsTheLastStatesCountPlusTheEventsProcessedBeyondItsHead() {
        store.save(U42, Position.of("ep", 2));
        receive(WelcomeFrame.v1("gw-1", "c-1", List.of(U42), 5_000, 1));
        assertEquals(Optional.empty(), tracker.current(), "nothing known before the first counts");
        receive(read(4, 1, 7, 3, "laptop-1")); // sent before events 3 and 4 reach this device
        assertEquals(1, estimate());
        receive(event("ep", 3));
        receive(event("ep", 4));
        assertEquals(1, estimate(), "events up to the head are counted already");
        receive(event("ep", 5));
        receive(new CollapsedFrame(U42, "ep", 6, 7));
        receive(event("ep", 8));
        assertEquals(5, estimate(), "5, the collapsed 6 and 7, and 8 are beyond the head: unread");
        assertEquals(Optional.of(Position.of("ep", 8)), tracker.current().orElseThrow().head());
        assertEquals(List.of(1L, 2L, 4L, 5L), unread, "onUnread on every change of the estimate, once each");

        InboxChange change = changes.get(0);
        assertEquals(new InboxChange(U42, "ep", 4, 1, 1, 7, ReceiptKind.READ, OptionalLong.of(3), List.of(),
                Optional.of("laptop-1"), false), change);
        assertEquals(List.of(), errors);
    }

    @Test
    void aStateOlderThanTheOneAppliedIsIgnoredAndOwnChangesAreMarked() {
        receive(WelcomeFrame.v1("gw-1", "c-1", List.of(U42), 5_000, 1));
        receive(read(10, 4, 12, 6, "phone-1"));
        receive(read(10, 6, 11, 4, "laptop-1")); // overtaken on the way
        assertEquals(4, estimate());
        assertEquals(1, changes.size(), "a stale change is not passed on");
        assertTrue(changes.get(0).fromThisDevice());
        receive(read(10, 0, 13, 10, null));
        assertEquals(0, estimate());
        assertFalse(changes.get(1).fromThisDevice());
        assertEquals(Optional.empty(), changes.get(1).device());
    }

    @Test
    void countsReadAfterAConnectReplaceAnOlderStateAndNotANewerOne() {
        receive(WelcomeFrame.v1("gw-1", "c-1", List.of(U42), 5_000, 1));
        tracker.counts(new InboxCounts(3, 2, 5, Optional.of(Position.of("ep", 9))));
        assertEquals(3, estimate());
        assertEquals(2, tracker.current().orElseThrow().unseen());
        receive(read(9, 1, 6, 7, "laptop-1"));
        tracker.counts(new InboxCounts(3, 2, 5, Optional.of(Position.of("ep", 9)))); // an answer that was already old
        assertEquals(1, estimate());
        tracker.counts(new InboxCounts(0, 0, 0, Optional.empty())); // a stream without events yet: every event counts
        assertEquals(1, estimate(), "version 0 is older");
    }

    @Test
    void aStreamWithoutEventsCountsEveryEventAndAResetToAnotherEpochCountsNothingBeyondTheOldHead() {
        receive(WelcomeFrame.v1("gw-1", "c-1", List.of(U42), 5_000, 1));
        tracker.counts(new InboxCounts(0, 0, 0, Optional.empty()));
        receive(event("ep", 1));
        receive(event("ep", 2));
        assertEquals(2, estimate());
        receive(read(2, 0, 1, 2, "laptop-1"));
        assertEquals(0, estimate());
        receive(ResetFrame.epochMismatch(U42, Position.of("new", 5), 1));
        receive(event("new", 6));
        assertEquals(0, estimate(), "seqs of another history are not compared with the state's head");
    }

    @Test
    void withoutAListenerNothingIsKept() {
        InboxTracker off = InboxTracker.off();
        FrameHandler plain = new FrameHandler(e -> { }, new StreamPositions(store), errors::add, new ClientCounters(), new Rooms(), off);
        plain.handle(WelcomeFrame.v1("gw-1", "c-1", List.of(U42), 5_000, 1), ws);
        plain.handle(read(4, 1, 7, 3, "laptop-1"), ws);
        plain.handle(event("ep", 5), ws);
        assertFalse(off.on());
        assertEquals(Optional.empty(), off.current());
    }

    @Test
    void aThrowingInboxListenerIsReportedAndTheEstimateStillMoves() {
        InboxTracker throwing = new InboxTracker(new InboxListener() {
            @Override
            public void onState(InboxChange change) {
                throw new IllegalStateException("boom");
            }
        }, "phone-1", errors::add);
        throwing.state(read(4, 1, 7, 3, "laptop-1"));
        assertEquals(1, throwing.current().orElseThrow().unread());
        assertEquals(NotifyClientException.Kind.LISTENER, errors.get(0).kind());
    }
}
