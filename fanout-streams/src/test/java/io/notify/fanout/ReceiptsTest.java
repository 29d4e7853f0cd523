package io.notify.fanout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.notify.protocol.frame.StateFrame;
import io.notify.protocol.inbox.InboxState;
import io.notify.protocol.inbox.Receipt;
import io.notify.protocol.inbox.ReceiptKind;
import io.notify.protocol.stream.DeliveryMessage;
import io.notify.protocol.stream.LiveEvent;
import io.notify.protocol.stream.StreamId;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.apache.kafka.streams.KeyValue;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** notify.receipts through the whole topology: marks, acks and what is dropped, with the state frames they route. */
class ReceiptsTest {

    static final StreamId U = StreamId.forUser("42");
    FanoutFixture f;
    String epoch;

    @BeforeEach
    void fiveEventsToAConnectedUser(@TempDir Path dir) {
        f = new FanoutFixture(dir);
        f.connect("42", "gw-1", "inc-1", "c-1");
        for (int i = 1; i <= 5; i++) {
            f.sendDurable("ev-" + i, "42");
        }
        assertEquals(5, f.node("gw-1").size());
        epoch = f.heads().get(U).epoch();
    }

    @AfterEach
    void close() {
        f.close();
    }

    private double count(String kind, String outcome) {
        var c = f.metrics.registry().find("notify.fanout.receipts").tags("kind", kind, "outcome", outcome).counter();
        return c == null ? 0 : c.count();
    }

    private StateFrame onlyStateFrame() {
        List<KeyValue<StreamId, DeliveryMessage>> out = f.node("gw-1");
        assertEquals(1, out.size(), "one delivery to the user's node: " + out);
        LiveEvent e = (LiveEvent) out.get(0).value.event();
        assertTrue(StateFrame.carriedBy(e), e.type());
        return StateFrame.fromLiveEvent(e);
    }

    @Test
    void aMarkUpToIsStoredPublishedAndSentToTheUsersDevices() {
        f.receipt(Receipt.markUpTo(U, ReceiptKind.READ, epoch, 3, "phone-1", 1000));
        List<KeyValue<StreamId, InboxState>> states = f.inboxStates();
        assertEquals(1, states.size());
        InboxState s = states.get(0).value;
        assertEquals(U, states.get(0).key);
        assertEquals(3, s.read().upTo());
        assertEquals(1, s.version());
        StateFrame frame = onlyStateFrame();
        assertEquals(new StateFrame(U, epoch, 5, 2, 2, 1, ReceiptKind.READ, 3L, null, "phone-1"), frame);
    }

    @Test
    void aMarkByIdsCoversTheHeldEventsWithThoseIdsAndAnUpToPastTheHeadStopsAtIt() {
        f.receipt(Receipt.markIds(U, ReceiptKind.ARCHIVE, null, List.of("ev-5", "ev-2", "not-held"), null, 1000));
        StateFrame archived = onlyStateFrame();
        assertEquals(List.of(5L, 2L), archived.seqs());
        assertEquals(3, archived.unread());
        f.receipt(Receipt.markUpTo(U, ReceiptKind.SEEN, null, 99, null, 1001));
        StateFrame seen = onlyStateFrame();
        assertEquals(5L, seen.upTo(), "marks cover at most the events sequenced so far");
        assertEquals(0, seen.unseen());
        assertEquals(3, seen.unread(), "seeing is not reading");
        assertEquals(2, seen.version());
    }

    @Test
    void acksArePublishedOncePerIntervalPerStream() {
        for (long seq = 1; seq <= 4; seq++) {
            f.receipt(Receipt.ack(U, epoch, seq, "phone-1", 1000 + seq));
        }
        assertEquals(List.of(), f.inboxStates(), "acks wait for the publish interval");
        assertEquals(List.of(), f.node("gw-1"), "acks send no state frame");
        f.advance(Duration.ofSeconds(1));
        List<KeyValue<StreamId, InboxState>> states = f.inboxStates();
        assertEquals(1, states.size());
        assertEquals(4, states.get(0).value.devices().get("phone-1").acked());
        f.advance(Duration.ofSeconds(1));
        assertEquals(List.of(), f.inboxStates(), "nothing new to publish");
        assertEquals(4, count("ack", "applied"));
    }

    @Test
    void receiptsThatCannotApplyAreDroppedAndCounted() {
        f.receipt(Receipt.markUpTo(U, ReceiptKind.READ, "another-epoch", 3, null, 1000));
        f.receipt(Receipt.markUpTo(StreamId.forUser("nobody"), ReceiptKind.READ, null, 3, null, 1000));
        f.receipt(Receipt.markIds(U, ReceiptKind.READ, null, List.of("never-sent"), null, 1000));
        f.receipt("u:43".getBytes(StandardCharsets.UTF_8), ("{\"stream\":\"u:42\",\"kind\":\"read\",\"upTo\":1,\"at\":1}")
                .getBytes(StandardCharsets.UTF_8));
        f.receipt("u:42".getBytes(StandardCharsets.UTF_8), "{not json".getBytes(StandardCharsets.UTF_8));
        f.receipt("u:42".getBytes(StandardCharsets.UTF_8), "{\"stream\":\"u:42\",\"kind\":\"read\",\"at\":1}".getBytes(StandardCharsets.UTF_8));
        assertEquals(List.of(), f.inboxStates());
        assertEquals(List.of(), f.node("gw-1"));
        assertEquals(1, count("read", "stale_epoch"));
        assertEquals(1, count("read", "no_stream"));
        assertEquals(1, count("read", "unknown_ids"));
        assertEquals(1, count("read", "misplaced"));
        assertEquals(2, count("unknown", "unreadable"));
        f.receipt(Receipt.markUpTo(U, ReceiptKind.READ, epoch, 1, null, 1001));
        assertEquals(1, f.inboxStates().size(), "the stream's next receipt still applies");
    }
}
