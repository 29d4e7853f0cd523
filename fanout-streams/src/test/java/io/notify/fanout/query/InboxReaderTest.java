package io.notify.fanout.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.notify.fanout.inbox.StreamHead;
import io.notify.protocol.event.EventEnvelope;
import io.notify.protocol.inbox.InboxState;
import io.notify.protocol.prefs.UserPreferences;
import io.notify.protocol.push.PushRegistrations;
import io.notify.protocol.stream.Position;
import io.notify.protocol.stream.SequencedEvent;
import io.notify.protocol.stream.StreamId;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class InboxReaderTest {

    static final StreamId S = StreamId.forUser("42");
    static final String EPOCH = "epochA";

    /** An inbox holding seqs first..last of epoch A. */
    static class Inbox implements InboxReader.StreamState {
        StreamHead head;
        final TreeMap<Long, SequencedEvent> events = new TreeMap<>();

        Inbox(long first, long last) {
            head = new StreamHead(EPOCH, first, last);
            for (long s = first; s <= last; s++) {
                events.put(s, SequencedEvent.of(S, Position.of(EPOCH, s),
                        EventEnvelope.durable("t", null, "42").withId("e" + s), 0, 0));
            }
        }

        @Override
        public Optional<StreamHead> head(StreamId stream) {
            return Optional.ofNullable(head);
        }

        InboxState state;

        @Override
        public List<SequencedEvent> range(StreamId stream, long afterSeq, int limit) {
            return events.tailMap(afterSeq, false).values().stream().limit(limit).toList();
        }

        @Override
        public List<SequencedEvent> newestFirst(StreamId stream, long beforeSeq, int limit) {
            return events.headMap(beforeSeq, false).descendingMap().values().stream().limit(limit).toList();
        }

        @Override
        public Optional<InboxState> inboxState(StreamId stream) {
            return Optional.ofNullable(state);
        }

        @Override
        public Optional<PushRegistrations> pushRegistrations(StreamId stream) {
            return Optional.empty();
        }

        @Override
        public Optional<UserPreferences> preferences(StreamId stream) {
            return Optional.empty();
        }
    }

    private static List<Long> seqs(StreamAnswer a) {
        return a.events().stream().map(SequencedEvent::seq).toList();
    }

    @Test
    void eventsAfterAPositionInOrderWithPaging() {
        Inbox inbox = new Inbox(1, 10);
        StreamAnswer a = InboxReader.eventsAfter(inbox, S, EPOCH, 3, 4);
        assertEquals(List.of(4L, 5L, 6L, 7L), seqs(a));
        assertTrue(a.more());
        assertEquals(Position.of(EPOCH, 10), a.head());
        StreamAnswer rest = InboxReader.eventsAfter(inbox, S, EPOCH, 7, 100);
        assertEquals(List.of(8L, 9L, 10L), seqs(rest));
        assertFalse(rest.more());
        assertEquals(List.of(), seqs(InboxReader.eventsAfter(inbox, S, EPOCH, 10, 100)));
    }

    @Test
    void wrongEpochOrAheadOfHeadIsEpochMismatch() {
        Inbox inbox = new Inbox(1, 10);
        StreamAnswer other = InboxReader.eventsAfter(inbox, S, "epochB", 3, 10);
        assertEquals("epoch_mismatch", other.reset().reason());
        assertEquals(Position.of(EPOCH, 10), other.reset().head());
        assertEquals(1L, other.reset().firstSeq());
        assertEquals("epoch_mismatch", InboxReader.eventsAfter(inbox, S, EPOCH, 11, 10).reset().reason());
    }

    @Test
    void positionOlderThanTheInboxIsTooOldWithTheFirstAvailableSeq() {
        Inbox inbox = new Inbox(201, 1200);
        StreamAnswer a = InboxReader.eventsAfter(inbox, S, EPOCH, 150, 10);
        assertEquals("position_too_old", a.reset().reason());
        assertEquals(201L, a.reset().firstSeq());
        assertEquals(List.of(201L), seqs(InboxReader.eventsAfter(inbox, S, EPOCH, 200, 1)));
    }

    @Test
    void noEpochMeansFromTheOldestHeld() {
        Inbox inbox = new Inbox(5, 7);
        assertEquals(List.of(5L, 6L, 7L), seqs(InboxReader.eventsAfter(inbox, S, null, 0, 100)));
        assertThrows(IllegalArgumentException.class, () -> InboxReader.eventsAfter(inbox, S, null, 3, 100));
    }

    @Test
    void unknownStream() {
        Inbox inbox = new Inbox(1, 1);
        inbox.head = null;
        assertEquals("unknown_stream", InboxReader.eventsAfter(inbox, S, EPOCH, 3, 10).reset().reason());
        StreamAnswer fresh = InboxReader.eventsAfter(inbox, S, null, 0, 10);
        assertEquals(List.of(), fresh.events());
        assertNull(fresh.reset());
        assertNull(InboxReader.head(inbox, S).head());
    }

    @Test
    void aTrimRacingTheReadIsAResetNeverAGap() {
        Inbox inbox = new Inbox(1, 10) {
            @Override
            public List<SequencedEvent> range(StreamId stream, long afterSeq, int limit) {
                // between the head read and this one, a trim deleted 1..4 and moved the head
                events.headMap(5L).clear();
                head = new StreamHead(EPOCH, 5, 10);
                return super.range(stream, afterSeq, limit);
            }
        };
        StreamAnswer a = InboxReader.eventsAfter(inbox, S, EPOCH, 2, 10);
        assertEquals("position_too_old", a.reset().reason());
        assertEquals(5L, a.reset().firstSeq());
    }

    @Test
    void anInboxBehindItsHeadGivesWhatItHoldsAndAsksToComeBackNeverAReset() {
        Inbox inbox = new Inbox(1, 8);
        inbox.head = new StreamHead(EPOCH, 1, 10); // the heads store already shows 9 and 10, the inbox not yet
        StreamAnswer nothingYet = InboxReader.eventsAfter(inbox, S, EPOCH, 8, 10);
        assertNull(nothingYet.reset(), "a reset here would skip 9 and 10");
        assertEquals(List.of(), seqs(nothingYet));
        assertTrue(nothingYet.more(), "ask again");
        StreamAnswer part = InboxReader.eventsAfter(inbox, S, EPOCH, 6, 10);
        assertEquals(List.of(7L, 8L), seqs(part));
        assertTrue(part.more());
        inbox.events.remove(4L); // a hole: never a gap, only the part before it
        StreamAnswer beforeHole = InboxReader.eventsAfter(inbox, S, EPOCH, 2, 10);
        assertEquals(List.of(3L), seqs(beforeHole));
        assertTrue(beforeHole.more());
    }

    @Test
    void boundsAreChecked() {
        Inbox inbox = new Inbox(1, 3);
        assertThrows(IllegalArgumentException.class, () -> InboxReader.eventsAfter(inbox, S, EPOCH, -1, 10));
        assertThrows(IllegalArgumentException.class, () -> InboxReader.eventsAfter(inbox, S, EPOCH, 0, 0));
        assertThrows(IllegalArgumentException.class, () -> InboxReader.eventsAfter(inbox, S, EPOCH, 0, 1001));
    }
}
