package io.notify.fanout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.notify.fanout.inbox.InboxKey;
import io.notify.protocol.frame.RecalledFrame;
import io.notify.protocol.frame.StateFrame;
import io.notify.protocol.inbox.EventState;
import io.notify.protocol.inbox.InboxState;
import io.notify.protocol.inbox.ReceiptKind;
import io.notify.protocol.stream.DeliveryMessage;
import io.notify.protocol.stream.LiveEvent;
import io.notify.protocol.stream.SequencedEvent;
import io.notify.protocol.stream.StreamId;
import io.notify.schemas.topic.DlqHeaders;
import io.notify.schemas.topic.ProducerScope;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A producer's recall through the whole topology (docs/protocol.md, "Recall"). */
class RecallTest {

    static final StreamId U = StreamId.forUser("42");
    static final StreamId OTHER = StreamId.forUser("43");
    @TempDir
    Path dir;
    FanoutFixture f;


    @BeforeEach
    void open() {
        f = new FanoutFixture(dir);
        f.connect("42", "gw-1", "i1", "c1");
    }

    @AfterEach
    void close() {
        f.close();
    }

    /** A durable event to users 42 and 43 from {@code producer}, with a push fallback after 30 s and the given extra fields. */
    private void send(String producer, String id, String extra) {
        publish(producer, id, "{\"id\":\"" + id + "\",\"type\":\"order.shipped\",\"to\":{\"users\":[\"42\",\"43\"]},\"data\":{\"secret\":1},"
                + "\"fallback\":{\"after\":\"30s\",\"channel\":\"push\"}" + extra + "}");
    }

    private void recall(String producer, String target, String users) {
        publish(producer, "rc", "{\"recall\":" + target + ",\"to\":{\"users\":" + users + "}}");
    }

    private void publish(String producer, String key, String json) {
        RecordHeaders headers = new RecordHeaders();
        if (producer != null) {
            headers.add(ProducerScope.HEADER, producer.getBytes(StandardCharsets.UTF_8));
        }
        f.send(key.getBytes(StandardCharsets.UTF_8), json.getBytes(StandardCharsets.UTF_8), headers);
    }

    private SequencedEvent held(StreamId stream, long seq) {
        return f.inbox().get(new InboxKey(stream, seq));
    }

    @Test
    void aRecallTakesTheEventOutOfTheUsersInboxTellsTheirDevicesAndCancelsTheFallback() {
        send("shop", "e-1", "");
        send("shop", "e-2", "");
        recall("shop", "{\"id\":\"e-1\"}", "[\"42\"]");

        SequencedEvent recalled = held(U, 1);
        assertTrue(recalled.recalled(), "the entry keeps its seq, marked");
        assertTrue(recalled.data().isEmpty(), "and none of its content");
        assertEquals("e-1", recalled.id());
        assertFalse(held(U, 2).recalled(), "the other event stands");
        assertFalse(held(OTHER, 1).recalled(), "43 was not named by the recall");

        List<SequencedEvent> logU = f.logOf(U);
        assertEquals(3, logU.size(), "the stream log records the recall after the two events: " + logU);
        assertEquals(recalled, logU.get(2));

        List<DeliveryMessage> live = f.deliveredOf("gw-1", U);
        assertEquals(4, live.size(), "two events, the recalled frame's carrier, the state frame (the recalled entry is not routed): "
                + live);
        LiveEvent carrier = (LiveEvent) live.get(2).event();
        assertEquals(new RecalledFrame(U, recalled.epoch(), 1, "e-1"), RecalledFrame.fromLiveEvent(carrier));

        InboxState state = f.inboxStates().stream().filter(kv -> kv.key.equals(U)).map(kv -> kv.value).reduce((a, b) -> b).orElseThrow();
        assertEquals(EventState.ARCHIVED, state.stateOf(1), "archived by the recall's system mark");
        assertEquals(1, state.unread(1, 2), "so the unread count drops to the event that stands");
        StateFrame frame = StateFrame.fromLiveEvent((LiveEvent) live.get(3).event());
        assertEquals(ReceiptKind.ARCHIVE, frame.kind());
        assertEquals(List.of(1L), frame.seqs());
        assertEquals(1, frame.unread(), "the devices get the state frame with the lowered count");
        assertEquals(FanoutTopology.RECALL_DEVICE, frame.device());

        f.advance(Duration.ofSeconds(31));
        assertEquals(List.of("e-2"), f.fallbacksOf(U).stream().map(r -> r.event().id()).toList(), "no fallback for the recalled event");
        assertEquals(2, f.fallbacksOf(OTHER).size());
        assertEquals(1, f.counted("notify.fanout.recalls", "outcome", "applied"));
        // the recall's system mark archived the entry too: the cancellation is counted as the recall's, not as a read
        assertEquals(1, f.counted("notify.fanout.fallback", "outcome", "cancelled_recalled"));
        assertEquals(0, f.counted("notify.fanout.fallback", "outcome", "cancelled_read"));
    }

    @Test
    void aRecallByCancellationKeyTakesBackEveryEventThatCarriesIt() {
        send("shop", "e-1", ",\"cancellationKey\":\"order-7\"");
        send("shop", "e-2", ",\"cancellationKey\":\"order-8\"");
        send("shop", "e-3", ",\"cancellationKey\":\"order-7\"");
        recall("shop", "{\"cancellationKey\":\"order-7\"}", "[\"42\",\"43\"]");
        for (StreamId s : List.of(U, OTHER)) {
            assertTrue(held(s, 1).recalled(), s + " seq 1");
            assertFalse(held(s, 2).recalled(), s + " seq 2 carries another key");
            assertTrue(held(s, 3).recalled(), s + " seq 3");
        }
        assertEquals(List.of(1L, 3L), f.deliveredOf("gw-1", U).stream().filter(m -> m.event() instanceof LiveEvent l && RecalledFrame.carriedBy(l))
                .map(m -> RecalledFrame.fromLiveEvent((LiveEvent) m.event()).seq()).toList());
    }

    @Test
    void aProducerTakesBackOnlyItsOwnEventsAndARepeatFindsNothing() {
        send("shop", "e-1", "");
        send(null, "e-1", ""); // a direct producer's event with the same id, in its own scope
        recall("billing", "{\"id\":\"e-1\"}", "[\"42\"]");
        assertFalse(held(U, 1).recalled(), "another producer's event of that id");
        assertFalse(held(U, 2).recalled());
        assertEquals(1, f.counted("notify.fanout.recalls", "outcome", "not_found"));

        recall(null, "{\"id\":\"e-1\"}", "[\"42\"]");
        assertFalse(held(U, 1).recalled(), "the shop's event");
        assertTrue(held(U, 2).recalled(), "the direct producer's own");
        recall(null, "{\"id\":\"e-1\"}", "[\"42\"]");
        assertEquals(2, f.counted("notify.fanout.recalls", "outcome", "not_found"), "a repeated recall finds nothing left");
        assertEquals(1, f.deliveredOf("gw-1", U).stream().filter(m -> m.event() instanceof LiveEvent l && RecalledFrame.carriedBy(l)).count());
    }

    @Test
    void theRecallsArchiveMarkLandsOnTheRecalledEntry_notOnANewerEventOfTheSameIdFromAnotherProducer() {
        send("shop", "e-1", "");
        send(null, "e-1", ""); // newer, the same id, a direct producer's
        recall("shop", "{\"id\":\"e-1\"}", "[\"42\"]");
        assertTrue(held(U, 1).recalled());
        assertFalse(held(U, 2).recalled());
        InboxState state = f.inboxStates().stream().filter(kv -> kv.key.equals(U)).map(kv -> kv.value).reduce((a, b) -> b).orElseThrow();
        assertEquals(EventState.ARCHIVED, state.stateOf(1), "the shop's recalled event is archived");
        assertEquals(1, state.unread(1, 2), "the direct producer's event stays unread");
    }

    @Test
    void aBadRecallGoesToTheDlqWithItsReason() {
        recall("shop", "{\"id\":\"e-1\",\"cancellationKey\":\"k\"}", "[\"42\"]");
        publish("shop", "rc", "{\"recall\":{\"id\":\"e-1\"}}");
        List<TestRecord<byte[], byte[]>> dlq = f.dlq().readRecordsToList();
        assertEquals(2, dlq.size());
        for (TestRecord<byte[], byte[]> r : dlq) {
            assertEquals(DlqHeaders.KIND_SCHEMA, new String(r.headers().lastHeader(DlqHeaders.ERROR_KIND).value(), StandardCharsets.UTF_8));
        }
        String second = new String(dlq.get(1).headers().lastHeader(DlqHeaders.ERROR).value(), StandardCharsets.UTF_8);
        assertTrue(second.contains("/to"), second);
    }
}
