package io.notify.schemas.serde;

import io.notify.protocol.NotifyJson;
import io.notify.protocol.event.EventEnvelope;
import io.notify.schemas.validation.EventValidator;
import io.notify.schemas.validation.InvalidEventException;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Serde for {@code notify.events} values. Reading validates against the v1 schema through
 * {@link EventValidator} (records on this topic may come straight from any producer), so a value
 * read is a valid envelope or a {@link SerializationException} whose cause is the
 * {@link InvalidEventException} with every violation. A value without {@code id} gets a generated
 * one, as at the HTTP door. Writing is plain JSON: an {@link EventEnvelope} is valid by construction.
 */
public final class EventEnvelopeSerde implements Serde<EventEnvelope> {

    private final EventValidator validator = EventValidator.v1();

    @Override
    public Serializer<EventEnvelope> serializer() {
        return (topic, value) -> {
            if (value == null) {
                return null;
            }
            try {
                return NotifyJson.mapper().writeValueAsBytes(value);
            } catch (Exception e) {
                throw new SerializationException("cannot serialize " + EventEnvelope.class.getName()
                        + " for topic '" + topic + "': " + SerdeErrors.firstLine(e), e);
            }
        };
    }

    @Override
    public Deserializer<EventEnvelope> deserializer() {
        return (topic, bytes) -> {
            if (bytes == null) {
                return null;
            }
            try {
                return validator.parse(bytes);
            } catch (RuntimeException e) {
                throw new SerializationException("cannot deserialize " + EventEnvelope.class.getName()
                        + " from topic '" + topic + "' (" + bytes.length + " bytes): " + SerdeErrors.firstLine(e), e);
            }
        };
    }

    @Override
    public String toString() {
        return "EventEnvelopeSerde";
    }
}
