package io.notify.fanout.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.notify.protocol.inbox.EventState;
import io.notify.protocol.inbox.InboxState;
import io.notify.protocol.inbox.ReceiptKind;
import io.notify.protocol.stream.StreamId;
import java.util.List;
import org.junit.jupiter.api.Test;

class InboxPagesTest {

    static final StreamId S = InboxReaderTest.S;

    private static List<Long> seqs(InboxPages.Page p) {
        return p.events().stream().map(i -> i.event().seq()).toList();
    }

    @Test
    void pagesGoNewestFirstAndNextContinuesWithoutOverlap() {
        InboxReaderTest.Inbox inbox = new InboxReaderTest.Inbox(3, 12);
        InboxPages.Page first = InboxPages.page(inbox, S, null, 4, InboxPages.Archived.EXCLUDE);
        assertEquals(List.of(12L, 11L, 10L, 9L), seqs(first));
        assertEquals(9L, first.next());
        InboxPages.Page second = InboxPages.page(inbox, S, first.next(), 4, InboxPages.Archived.EXCLUDE);
        assertEquals(List.of(8L, 7L, 6L, 5L), seqs(second));
        InboxPages.Page last = InboxPages.page(inbox, S, second.next(), 4, InboxPages.Archived.EXCLUDE);
        assertEquals(List.of(4L, 3L), seqs(last));
        assertNull(last.next(), "nothing below seq 3 is held");
        assertEquals(10, first.unread());
    }

    @Test
    void eachEventCarriesItsStateAndArchivedOnesAreFiltered() {
        InboxReaderTest.Inbox inbox = new InboxReaderTest.Inbox(1, 10);
        inbox.state = InboxState.empty(S, InboxReaderTest.EPOCH).markUpTo(ReceiptKind.READ, 4, 1)
                .markSeqs(ReceiptKind.ARCHIVE, List.of(9L, 10L, 2L), 2).markSeqs(ReceiptKind.SEEN, List.of(8L), 3);
        InboxPages.Page page = InboxPages.page(inbox, S, null, 3, InboxPages.Archived.EXCLUDE);
        assertEquals(List.of(8L, 7L, 6L), seqs(page), "9 and 10 are archived");
        assertEquals(List.of(EventState.SEEN, EventState.UNSEEN, EventState.UNSEEN), page.events().stream().map(InboxPages.Item::state).toList());
        assertEquals(6L, page.next());
        assertEquals(List.of(10L, 9L, 2L), seqs(InboxPages.page(inbox, S, null, 20, InboxPages.Archived.ONLY)));
        assertEquals(10, InboxPages.page(inbox, S, null, 20, InboxPages.Archived.INCLUDE).events().size());
        assertEquals(4, page.unread(), "5, 6, 7, 8: 1..4 read, 9 and 10 archived");
        assertEquals(3, page.unseen());
        assertEquals(3, page.version());
    }

    @Test
    void countsOfAStreamWithoutEventsAreZeroAndOfAnotherEpochIgnoreOldMarks() {
        InboxReaderTest.Inbox none = new InboxReaderTest.Inbox(1, 1);
        none.head = null;
        InboxPages.Counts c = InboxPages.counts(none, S);
        assertNull(c.head());
        assertEquals(0, c.unread());
        InboxReaderTest.Inbox inbox = new InboxReaderTest.Inbox(1, 5);
        inbox.state = InboxState.empty(S, "oldEpoch").markUpTo(ReceiptKind.READ, 5, 1);
        assertEquals(5, InboxPages.counts(inbox, S).unread(), "marks of an earlier history do not apply");
    }

    @Test
    void statusSaysWhichDevicesAcknowledgedAndWhetherItWasRead() {
        InboxReaderTest.Inbox inbox = new InboxReaderTest.Inbox(1, 10);
        inbox.state = InboxState.empty(S, InboxReaderTest.EPOCH).acked("phone", 7, 100, 5).acked("laptop", 3, 101, 5)
                .markSeqs(ReceiptKind.READ, List.of(5L), 102);
        InboxPages.Status s = InboxPages.status(inbox, S, 5);
        assertTrue(s.held());
        assertEquals("e5", s.id());
        assertEquals(EventState.READ, s.state());
        assertEquals(List.of(new InboxPages.Delivery("phone", 7, 100)), s.deliveredTo());
        assertFalse(InboxPages.status(inbox, S, 11).held());
    }

    @Test
    void malformedRequestsAndRoomStreamsAreRefused() {
        InboxReaderTest.Inbox inbox = new InboxReaderTest.Inbox(1, 10);
        assertThrows(IllegalArgumentException.class, () -> InboxPages.page(inbox, S, null, InboxPages.MAX_LIMIT + 1, InboxPages.Archived.EXCLUDE));
        assertThrows(IllegalArgumentException.class, () -> InboxPages.page(inbox, S, 0L, 5, InboxPages.Archived.EXCLUDE));
        assertThrows(IllegalArgumentException.class, () -> InboxPages.Archived.parse("sometimes"));
        assertThrows(IllegalArgumentException.class, () -> InboxPages.counts(inbox, StreamId.forRoom("chat")));
    }
}
