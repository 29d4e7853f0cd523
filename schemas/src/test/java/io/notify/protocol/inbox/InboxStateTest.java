package io.notify.protocol.inbox;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.notify.protocol.frame.StateFrame;
import io.notify.protocol.stream.StreamId;
import io.notify.schemas.serde.NotifySerdes;
import java.util.List;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

class InboxStateTest {

    static final StreamId U = StreamId.forUser("42");
    static final String EPOCH = "k3x9m2p8q7rdw5ta";

    /** The count the arithmetic must equal: every seq checked one by one. */
    private static long bruteUnread(InboxState s, long first, long last) {
        return LongStream.rangeClosed(first, last)
                .filter(q -> s.stateOf(q) == EventState.UNSEEN || s.stateOf(q) == EventState.SEEN).count();
    }

    @Test
    void unreadIsArithmeticOnTheMarksAndAgreesWithCountingEachEvent() {
        InboxState s = InboxState.empty(U, EPOCH);
        assertEquals(20, s.unread(1, 20));
        s = s.markUpTo(ReceiptKind.READ, 5, 1).markSeqs(ReceiptKind.READ, List.of(9L, 12L, 30L), 2)
                .markSeqs(ReceiptKind.ARCHIVE, List.of(12L, 13L), 3).markUpTo(ReceiptKind.SEEN, 15, 4);
        for (long first = 1; first <= 21; first++) {
            for (long last = first - 1; last <= 25; last++) {
                assertEquals(bruteUnread(s, first, last), s.unread(first, last), first + ".." + last);
            }
        }
        assertEquals(20 - 5 - 3, s.unread(1, 20), "1..5 read, 9 and 12 read, 13 archived");
        assertEquals(5, s.unseen(1, 20), "16..20: up to 15 seen");
        assertEquals(EventState.ARCHIVED, s.stateOf(12));
        assertEquals(EventState.READ, s.stateOf(9));
        assertEquals(EventState.SEEN, s.stateOf(14));
        assertEquals(EventState.UNSEEN, s.stateOf(16));
        assertEquals(4, s.version());
    }

    @Test
    void contiguousSingleMarksFoldIntoUpToAndOldOnesArePruned() {
        Marks m = Marks.NONE.with(List.of(2L, 3L, 7L));
        assertEquals(new Marks(0, List.of(2L, 3L, 7L)), m);
        m = m.with(List.of(1L));
        assertEquals(new Marks(3, List.of(7L)), m, "1, 2, 3 are now a prefix");
        assertEquals(new Marks(7, List.of()), m.upTo(6), "7 joins the prefix 1..6");
        assertEquals(new Marks(3, List.of()), m.pruneBelow(8));
        assertEquals(m, m.upTo(2), "a lower upTo changes nothing");
    }

    @Test
    void singleMarksAreBounded() {
        List<Long> many = LongStream.rangeClosed(1, Marks.MAX_SEQS + 10L).map(q -> q * 2).boxed().toList();
        Marks m = Marks.NONE.with(many);
        assertEquals(Marks.MAX_SEQS, m.seqs().size());
        assertEquals(22L, m.seqs().get(0), "the oldest single marks go first");
    }

    @Test
    void aNewEpochStartsUnmarkedAndDevicesKeepTheirHighestAck() {
        InboxState s = InboxState.empty(U, EPOCH).markUpTo(ReceiptKind.READ, 10, 1).acked("phone", 8, 5, 2).acked("phone", 6, 6, 2);
        assertEquals(8, s.devices().get("phone").acked(), "an older ack never lowers what the device acknowledged");
        s = s.acked("laptop", 3, 7, 2).acked("tablet", 4, 8, 2);
        assertEquals(List.of("laptop", "tablet"), List.copyOf(s.devices().keySet()), "the least recently heard device is dropped");
        InboxState next = s.forEpoch("zzzz");
        assertEquals(10, next.unread(1, 10));
        assertEquals(s.version(), next.version());
        assertEquals(s, s.forEpoch(EPOCH));
    }

    @Test
    void receiptsCarryExactlyOneOfUpToAndIds() {
        assertThrows(IllegalArgumentException.class, () -> new Receipt(U, ReceiptKind.READ, null, 3L, List.of("a"), null, 1));
        assertThrows(IllegalArgumentException.class, () -> new Receipt(U, ReceiptKind.READ, null, null, List.of(), null, 1));
        assertThrows(IllegalArgumentException.class, () -> Receipt.ack(U, EPOCH, 3, null, 1), "an ack names its device");
        assertThrows(IllegalArgumentException.class, () -> Receipt.markUpTo(StreamId.forRoom("chat"), ReceiptKind.READ, null, 3, null, 1));
        assertThrows(IllegalArgumentException.class, () -> Receipt.markIds(U, ReceiptKind.READ, null,
                LongStream.rangeClosed(1, Receipt.MAX_IDS + 1).mapToObj(i -> "e" + i).toList(), null, 1));
        assertEquals(List.of("a", "b"), Receipt.markIds(U, ReceiptKind.SEEN, null, List.of("a", "b", "a"), "d-1", 1).ids());
    }

    @Test
    void receiptAndStateSurviveTheirSerdes() {
        Receipt r = Receipt.markIds(U, ReceiptKind.ARCHIVE, EPOCH, List.of("ord-1:shipped"), "phone-1", 1764410130100L);
        byte[] bytes = NotifySerdes.receipt().serializer().serialize("t", r);
        assertEquals(r, NotifySerdes.receipt().deserializer().deserialize("t", bytes));
        assertTrue(new String(bytes).contains("\"kind\":\"archive\""), new String(bytes));
        InboxState s = InboxState.empty(U, EPOCH).markSeqs(ReceiptKind.READ, List.of(4L), 9).acked("phone-1", 3, 10, 5);
        assertEquals(s, NotifySerdes.inboxState().deserializer().deserialize("t", NotifySerdes.inboxState().serializer().serialize("t", s)));
    }

    @Test
    void aStateFrameTravelsAsTheReservedEphemeralEvent() {
        StateFrame f = new StateFrame(U, EPOCH, 20, 3, 1, 7, ReceiptKind.READ, 17L, null, "phone-1");
        var event = f.toLiveEvent("state-1", "notify.fanout", 5);
        assertTrue(StateFrame.carriedBy(event));
        assertEquals(f, StateFrame.fromLiveEvent(event));
        assertThrows(IllegalArgumentException.class, () -> io.notify.protocol.event.EventEnvelope.durable(StateFrame.EVENT_TYPE,
                null, "42"), "producers may not use the reserved type");
    }
}
