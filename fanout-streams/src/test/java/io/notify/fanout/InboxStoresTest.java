package io.notify.fanout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.notify.fanout.inbox.InboxKey;
import io.notify.fanout.inbox.InboxStores;
import io.notify.fanout.inbox.StreamHead;
import io.notify.protocol.stream.SequencedEvent;
import io.notify.protocol.stream.StreamId;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.common.utils.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The read side the query API uses, against stores filled by the real topology. */
class InboxStoresTest {

    static final StreamId U4 = StreamId.forUser("4");
    static final StreamId U42 = StreamId.forUser("42");

    @TempDir
    Path stateDir;

    private static List<Long> seqs(List<SequencedEvent> events) {
        return events.stream().map(SequencedEvent::seq).toList();
    }

    @Test
    void rangeReturnsTheSliceAfterASeqInOrderAndNeverANeighboursEntries() {
        try (FanoutFixture f = new FanoutFixture(stateDir)) {
            for (int i = 1; i <= 10; i++) {
                f.sendDurable("four-" + i, "4");
                f.sendDurable("fortytwo-" + i, "42"); // "u:42" sorts right after "u:4": a prefix trap
            }
            assertEquals(List.of(4L, 5L, 6L, 7L), seqs(InboxStores.range(f.inbox(), U4, 3, 4)));
            assertEquals(List.of("four-4", "four-5"),
                    InboxStores.range(f.inbox(), U4, 3, 2).stream().map(SequencedEvent::id).toList());
            assertEquals(List.of(9L, 10L), seqs(InboxStores.range(f.inbox(), U4, 8, 100)));
            assertEquals(List.of(), InboxStores.range(f.inbox(), U4, 10, 100));
            assertEquals(List.of(1L, 2L), seqs(InboxStores.range(f.inbox(), U42, 0, 2)));
            assertEquals(List.of(), InboxStores.range(f.inbox(), StreamId.forUser("none"), 0, 10));

            StreamHead head = InboxStores.head(f.heads(), U4).orElseThrow();
            assertEquals(1, head.firstSeq());
            assertEquals(10, head.lastSeq());
            assertEquals(Optional.empty(), InboxStores.head(f.heads(), StreamId.forUser("none")));
            assertThrows(IllegalArgumentException.class, () -> InboxStores.range(f.inbox(), U4, -1, 1));
            assertThrows(IllegalArgumentException.class, () -> InboxStores.range(f.inbox(), U4, 0, 0));
        }
    }

    @Test
    void inboxKeysRoundTripAndSortByStreamThenSeq() {
        InboxKey a = new InboxKey(U4, 255);
        InboxKey b = new InboxKey(U4, 256);
        InboxKey c = new InboxKey(U42, 1);
        assertEquals(a, InboxKey.fromBytes(a.toBytes()));
        assertEquals(c, InboxKey.serde().deserializer().deserialize("t", InboxKey.serde().serializer().serialize("t", c)));
        assertTrue(Bytes.wrap(a.toBytes()).compareTo(Bytes.wrap(b.toBytes())) < 0);
        assertTrue(Bytes.wrap(b.toBytes()).compareTo(Bytes.wrap(new InboxKey(U4, Long.MAX_VALUE).toBytes())) < 0);
        assertTrue(Bytes.wrap(new InboxKey(U4, Long.MAX_VALUE).toBytes()).compareTo(Bytes.wrap(c.toBytes())) < 0);
        byte[] expected = new byte[]{'u', ':', '4', 0, 0, 0, 0, 0, 0, 0, 1, 0};
        assertEquals(Arrays.toString(expected), Arrays.toString(b.toBytes()));
    }
}
