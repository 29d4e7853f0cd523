package io.notify.protocol.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.notify.protocol.NotifyJson;
import io.notify.protocol.event.EventClass;
import io.notify.protocol.event.EventEnvelope;
import io.notify.protocol.event.Recipients;
import java.time.OffsetDateTime;
import java.util.List;
import org.junit.jupiter.api.Test;

class StreamRecordsTest {

    static final StreamId U42 = StreamId.forUser("42");
    static final String EPOCH = "k3x9m2p8q7rdw5ta";

    static SequencedEvent sequenced() {
        return new SequencedEvent(U42, EPOCH, 17, "ord-1:shipped", "order.shipped",
                JsonNodeFactory.instance.objectNode().put("orderId", "ord-1"),
                OffsetDateTime.parse("2026-11-29T10:15:30.123+01:00"), "orders", 1764410130100L, 1764410130123L);
    }

    static LiveEvent live() {
        return new LiveEvent(U42, "typing-1", "chat.typing", JsonNodeFactory.instance.objectNode().put("room", "r1"),
                null, "typing:r1", "chat", 1764410130100L);
    }

    @Test
    void sequencedEventJson() throws Exception {
        assertEquals("{\"stream\":\"u:42\",\"epoch\":\"k3x9m2p8q7rdw5ta\",\"seq\":17,\"id\":\"ord-1:shipped\","
                        + "\"type\":\"order.shipped\",\"class\":\"durable\",\"data\":{\"orderId\":\"ord-1\"},"
                        + "\"occurredAt\":\"2026-11-29T10:15:30.123+01:00\",\"source\":\"orders\","
                        + "\"ingestedAt\":1764410130100,\"sequencedAt\":1764410130123}",
                NotifyJson.mapper().writeValueAsString(sequenced()));
    }

    @Test
    void deliveryMessageJsonForBothEventClasses() throws Exception {
        DeliveryMessage durable = DeliveryMessage.toConnections(sequenced(), List.of("c-7f3a"), 1764410130125L);
        String json = NotifyJson.mapper().writeValueAsString(durable);
        assertEquals("{\"stream\":\"u:42\",\"connections\":[\"c-7f3a\"],\"event\":{\"stream\":\"u:42\","
                + "\"epoch\":\"k3x9m2p8q7rdw5ta\",\"seq\":17,\"id\":\"ord-1:shipped\",\"type\":\"order.shipped\","
                + "\"class\":\"durable\",\"data\":{\"orderId\":\"ord-1\"},\"occurredAt\":\"2026-11-29T10:15:30.123+01:00\","
                + "\"source\":\"orders\",\"ingestedAt\":1764410130100,\"sequencedAt\":1764410130123},"
                + "\"routedAt\":1764410130125}", json);
        assertEquals(durable, NotifyJson.mapper().readValue(json, DeliveryMessage.class));

        DeliveryMessage ephemeral = DeliveryMessage.toAll(live(), 1764410130125L);
        String liveJson = NotifyJson.mapper().writeValueAsString(ephemeral);
        assertEquals("{\"stream\":\"u:42\",\"connections\":[],\"event\":{\"stream\":\"u:42\",\"id\":\"typing-1\","
                + "\"type\":\"chat.typing\",\"class\":\"ephemeral\",\"data\":{\"room\":\"r1\"},\"collapseKey\":\"typing:r1\","
                + "\"source\":\"chat\",\"ingestedAt\":1764410130100},\"routedAt\":1764410130125}", liveJson);
        DeliveryMessage back = NotifyJson.mapper().readValue(liveJson, DeliveryMessage.class);
        assertEquals(ephemeral, back);
        assertInstanceOf(LiveEvent.class, back.event());
        assertTrue(back.targetsAllConnections());
    }

    @Test
    void classDecidesTheShapeOnRead() {
        // A durable event without a position, or an ephemeral one with a position, cannot be read.
        String durableNoPosition = "{\"stream\":\"u:42\",\"id\":\"x\",\"type\":\"a\",\"class\":\"durable\",\"data\":{},\"ingestedAt\":1}";
        assertThrows(Exception.class, () -> NotifyJson.mapper().readValue(durableNoPosition, StreamEvent.class));
        String ephemeralWithSeq = "{\"stream\":\"u:42\",\"epoch\":\"e\",\"seq\":1,\"id\":\"x\",\"type\":\"a\",\"class\":\"ephemeral\",\"data\":{},\"ingestedAt\":1}";
        assertThrows(Exception.class, () -> NotifyJson.mapper().readValue(ephemeralWithSeq, StreamEvent.class));
        String noClass = "{\"stream\":\"u:42\",\"epoch\":\"e\",\"seq\":1,\"id\":\"x\",\"type\":\"a\",\"data\":{},\"ingestedAt\":1,\"sequencedAt\":1}";
        assertThrows(Exception.class, () -> NotifyJson.mapper().readValue(noClass, SequencedEvent.class));
    }

    @Test
    void factoriesCheckTheEnvelopesClass() {
        EventEnvelope durable = EventEnvelope.durable("order.shipped", null, "42");
        EventEnvelope ephemeral = new EventEnvelope("t-1", "chat.typing", Recipients.users("42"), EventClass.EPHEMERAL,
                null, null, "k", null);
        SequencedEvent s = SequencedEvent.of(U42, Position.of(EPOCH, 3), durable, 10, 11);
        assertEquals(Position.of(EPOCH, 3), s.position());
        assertEquals(durable.id(), s.id());
        assertTrue(s.isDurable());
        LiveEvent l = LiveEvent.of(U42, ephemeral, 10);
        assertEquals("k", l.collapseKey());
        assertFalse(l.isDurable());
        assertThrows(IllegalArgumentException.class, () -> SequencedEvent.of(U42, Position.of(EPOCH, 3), ephemeral, 1, 1));
        assertThrows(IllegalArgumentException.class, () -> LiveEvent.of(U42, durable, 1));
    }

    @Test
    void deliveryMessageInvariants() {
        StreamId other = StreamId.forUser("43");
        assertThrows(IllegalArgumentException.class, () -> new DeliveryMessage(other, List.of(), sequenced(), 1));
        assertThrows(IllegalArgumentException.class, () -> DeliveryMessage.toConnections(sequenced(), List.of("c1", "c1"), 1));
        assertThrows(IllegalArgumentException.class, () -> DeliveryMessage.toConnections(sequenced(), List.of("a|b"), 1));
        assertThrows(IllegalArgumentException.class, () -> DeliveryMessage.toAll(sequenced(), -1));
        assertEquals(List.of(), new DeliveryMessage(U42, null, sequenced(), 1).connections());
    }

    @Test
    void undeliveredEventJsonAndInvariants() throws Exception {
        UndeliveredEvent u = UndeliveredEvent.of(live(), UndeliveredReason.NO_LIVE_CONNECTION, 1764410130130L);
        String json = NotifyJson.mapper().writeValueAsString(u);
        assertTrue(json.startsWith("{\"stream\":\"u:42\",\"userId\":\"42\",\"event\":{"), json);
        assertTrue(json.endsWith("},\"reason\":\"no_live_connection\",\"at\":1764410130130}"), json);
        assertEquals(u, NotifyJson.mapper().readValue(json, UndeliveredEvent.class));
        assertThrows(IllegalArgumentException.class,
                () -> new UndeliveredEvent(U42, "43", live(), UndeliveredReason.REGISTRY_UNAVAILABLE, 1));
        assertThrows(IllegalArgumentException.class,
                () -> new UndeliveredEvent(StreamId.forUser("43"), "43", live(), UndeliveredReason.REGISTRY_UNAVAILABLE, 1));
    }

    @Test
    void eventRulesFollowTheEnvelopes() {
        assertThrows(IllegalArgumentException.class, () -> new SequencedEvent(U42, EPOCH, 0, "x", "a", null, null, null, 1, 1));
        assertThrows(IllegalArgumentException.class, () -> new SequencedEvent(U42, "bad:epoch", 1, "x", "a", null, null, null, 1, 1));
        assertThrows(IllegalArgumentException.class, () -> new SequencedEvent(U42, EPOCH, 1, "bad id", "a", null, null, null, 1, 1));
        assertThrows(IllegalArgumentException.class, () -> new LiveEvent(U42, "x", ".bad", null, null, null, null, 1));
        assertThrows(IllegalArgumentException.class, () -> new LiveEvent(U42, "x", "a", null, null, "", null, 1));
        assertThrows(IllegalArgumentException.class, () -> new LiveEvent(null, "x", "a", null, null, null, null, 1));
        assertTrue(new LiveEvent(U42, "x", "a", null, null, null, null, 1).data().isEmpty());
    }
}
