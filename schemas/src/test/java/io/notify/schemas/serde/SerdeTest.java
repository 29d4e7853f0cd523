package io.notify.schemas.serde;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.notify.protocol.NotifyJson;
import io.notify.protocol.event.EventClass;
import io.notify.protocol.event.EventEnvelope;
import io.notify.protocol.event.Recipients;
import io.notify.protocol.stream.DeliveryMessage;
import io.notify.protocol.stream.LiveEvent;
import io.notify.protocol.stream.SequencedEvent;
import io.notify.protocol.stream.StreamEvent;
import io.notify.protocol.stream.StreamId;
import io.notify.protocol.stream.UndeliveredEvent;
import io.notify.protocol.stream.UndeliveredReason;
import io.notify.schemas.validation.InvalidEventException;
import java.nio.charset.StandardCharsets;
import java.time.OffsetDateTime;
import java.util.List;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Serde;
import org.junit.jupiter.api.Test;

class SerdeTest {

    static final StreamId U42 = StreamId.forUser("42");
    static final SequencedEvent SEQUENCED = new SequencedEvent(U42, "ep1", 5, "e-1", "order.shipped",
            JsonNodeFactory.instance.objectNode().put("n", 1), OffsetDateTime.parse("2026-11-29T10:15:30+01:00"),
            "orders", 100, 101);
    static final LiveEvent LIVE = new LiveEvent(U42, "e-2", "chat.typing", null, null, "k", null, 100);

    @Test
    void everyValueTypeRoundTrips() {
        assertRoundTrip(NotifySerdes.sequencedEvent(), SEQUENCED);
        assertRoundTrip(NotifySerdes.streamEvent(), SEQUENCED);
        assertRoundTrip(NotifySerdes.streamEvent(), LIVE);
        assertRoundTrip(NotifySerdes.deliveryMessage(), DeliveryMessage.toConnections(SEQUENCED, List.of("c1", "c2"), 102));
        assertRoundTrip(NotifySerdes.deliveryMessage(), DeliveryMessage.toAll(LIVE, 102));
        assertRoundTrip(NotifySerdes.undeliveredEvent(), UndeliveredEvent.of(SEQUENCED, UndeliveredReason.REGISTRY_UNAVAILABLE, 103));
        assertRoundTrip(NotifySerdes.streamId(), U42);
        assertRoundTrip(NotifySerdes.eventEnvelope(), new EventEnvelope("e-3", "order.shipped", Recipients.users("42", "7"),
                EventClass.EPHEMERAL, JsonNodeFactory.instance.objectNode().put("a", "b"),
                OffsetDateTime.parse("2026-11-29T10:15:30.5-05:00"), "c", "s"));
    }

    @Test
    void nullIsNullBothWays() {
        for (Serde<?> serde : List.of(NotifySerdes.sequencedEvent(), NotifySerdes.deliveryMessage(), NotifySerdes.streamEvent(),
                NotifySerdes.undeliveredEvent(), NotifySerdes.streamId(), NotifySerdes.eventEnvelope())) {
            assertNull(serializeRaw(serde, null), serde.toString());
            assertNull(serde.deserializer().deserialize("t", null), serde.toString());
        }
    }

    @Test
    void streamIdKeyIsPlainUtf8() {
        assertArrayEquals("u:42".getBytes(StandardCharsets.UTF_8), NotifySerdes.streamId().serializer().serialize("t", U42));
        SerializationException e = assertThrows(SerializationException.class,
                () -> NotifySerdes.streamId().deserializer().deserialize("notify.node.gw-1", "\"u:42\"".getBytes(StandardCharsets.UTF_8)));
        assertTrue(e.getMessage().contains("notify.node.gw-1"), e.getMessage());
        assertNotNull(e.getCause());
    }

    @Test
    void malformedBytesNameTheTypeAndTopic() {
        SerializationException e = assertThrows(SerializationException.class,
                () -> NotifySerdes.deliveryMessage().deserializer().deserialize("notify.node.gw-1", "{not json".getBytes(StandardCharsets.UTF_8)));
        assertTrue(e.getMessage().contains(DeliveryMessage.class.getName()), e.getMessage());
        assertTrue(e.getMessage().contains("notify.node.gw-1"), e.getMessage());
        assertNotNull(e.getCause());
        assertThrows(SerializationException.class, () -> NotifySerdes.sequencedEvent().deserializer().deserialize("t", new byte[0]));
    }

    @Test
    void constructorRulesSurfaceInTheMessage() {
        String zeroSeq = "{\"stream\":\"u:42\",\"epoch\":\"e\",\"seq\":0,\"id\":\"x\",\"type\":\"a\",\"class\":\"durable\","
                + "\"data\":{},\"ingestedAt\":1,\"sequencedAt\":1}";
        SerializationException e = assertThrows(SerializationException.class,
                () -> NotifySerdes.sequencedEvent().deserializer().deserialize("notify.stream-log", zeroSeq.getBytes(StandardCharsets.UTF_8)));
        assertTrue(e.getMessage().contains("seq must be from 1"), e.getMessage());
        String ephemeralAsSequenced = "{\"stream\":\"u:42\",\"id\":\"x\",\"type\":\"a\",\"class\":\"ephemeral\",\"data\":{},\"ingestedAt\":1}";
        assertThrows(SerializationException.class, () -> NotifySerdes.sequencedEvent().deserializer()
                .deserialize("notify.stream-log", ephemeralAsSequenced.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void newFieldsFromANewerWriterAreIgnored() {
        String withExtra = "{\"stream\":\"u:42\",\"connections\":[],\"priority\":\"high\",\"event\":{\"stream\":\"u:42\","
                + "\"id\":\"e-2\",\"type\":\"chat.typing\",\"class\":\"ephemeral\",\"data\":{},\"ttlMs\":500,"
                + "\"ingestedAt\":100},\"routedAt\":102}";
        DeliveryMessage m = NotifySerdes.deliveryMessage().deserializer().deserialize("t", withExtra.getBytes(StandardCharsets.UTF_8));
        assertEquals("e-2", m.event().id());
    }

    @Test
    void eventsAreSchemaValidatedOnRead() {
        byte[] bad = "{\"type\":\"a\",\"to\":{\"users\":[\"1\"]},\"colour\":1}".getBytes(StandardCharsets.UTF_8);
        SerializationException e = assertThrows(SerializationException.class,
                () -> NotifySerdes.eventEnvelope().deserializer().deserialize("notify.events", bad));
        InvalidEventException cause = assertInstanceOf(InvalidEventException.class, e.getCause());
        assertEquals("/colour", cause.violations().get(0).pointer());
        assertTrue(e.getMessage().contains(EventEnvelope.class.getName()), e.getMessage());
    }

    @Test
    void aSequencedEventIsWrittenOnceForTheInboxTheLogAndItsDeliveries() throws Exception {
        Serde<SequencedEvent> serde = NotifySerdes.sequencedEvent();
        byte[] inbox = serde.serializer().serialize("inbox-changelog", SEQUENCED);
        assertSame(inbox, serde.serializer().serialize("stream-log", SEQUENCED), "the same instance again: the same bytes");
        SequencedEvent equalCopy = NotifySerdes.sequencedEvent().deserializer().deserialize("t", inbox);
        byte[] copyBytes = serde.serializer().serialize("t", equalCopy);
        assertNotSame(inbox, copyBytes, "an equal but distinct instance is written again");
        assertArrayEquals(inbox, copyBytes);

        // Inside a DeliveryMessage the remembered bytes are copied in raw: a planted marker proves the path is taken...
        WrittenOnce.remember(SEQUENCED, "{\"marker\":1}".getBytes(StandardCharsets.UTF_8));
        String planted;
        try {
            planted = new String(NotifySerdes.deliveryMessage().serializer()
                    .serialize("t", DeliveryMessage.toAll(SEQUENCED, 102)), StandardCharsets.UTF_8);
        } finally {
            WrittenOnce.remember(null, null);
        }
        assertTrue(planted.contains("\"event\":{\"marker\":1},\"routedAt\":102"), planted);

        // ...and the real bytes make exactly the JSON the plain mapper writes, small or past the generator's buffer.
        SequencedEvent big = new SequencedEvent(U42, "ep1", 6, "e-big", "order.shipped",
                JsonNodeFactory.instance.objectNode().put("pad", "é\n\"".repeat(7000)), null, null, 100, 101);
        for (SequencedEvent event : List.of(SEQUENCED, big)) {
            DeliveryMessage message = DeliveryMessage.toConnections(event, List.of("c1"), 102);
            byte[] plain = NotifyJson.mapper().writeValueAsBytes(message);
            assertArrayEquals(plain, NotifySerdes.deliveryMessage().serializer().serialize("t", message), "not remembered");
            serde.serializer().serialize("stream-log", event);
            assertArrayEquals(plain, NotifySerdes.deliveryMessage().serializer().serialize("t", message), "remembered");
        }
    }

    @Test
    void jsonSerdeSerializationFailureIsWrapped() {
        JsonSerde<StreamEvent> serde = JsonSerde.of(StreamEvent.class);
        assertEquals(StreamEvent.class, serde.type());
        JsonSerde<Object> broken = JsonSerde.of(Object.class);
        SerializationException e = assertThrows(SerializationException.class,
                () -> broken.serializer().serialize("t", new Object()));
        assertTrue(e.getMessage().contains("java.lang.Object"), e.getMessage());
        assertNotNull(e.getCause());
    }

    private static <T> void assertRoundTrip(Serde<T> serde, T value) {
        byte[] bytes = serde.serializer().serialize("t", value);
        assertEquals(value, serde.deserializer().deserialize("t", bytes), serde.toString());
    }

    @SuppressWarnings("unchecked")
    private static <T> byte[] serializeRaw(Serde<T> serde, Object value) {
        return serde.serializer().serialize("t", (T) value);
    }
}
