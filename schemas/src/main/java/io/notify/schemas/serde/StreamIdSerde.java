package io.notify.schemas.serde;

import io.notify.protocol.stream.StreamId;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Key serde for stream-keyed topics: the stream id as plain UTF-8 ("u:42", no JSON quotes), so
 * keys stay readable in every Kafka tool and hash to partitions the same way everywhere. Null maps
 * to null; an invalid key read is a {@link SerializationException}.
 */
public final class StreamIdSerde implements Serde<StreamId> {

    @Override
    public Serializer<StreamId> serializer() {
        return (topic, value) -> value == null ? null : value.value().getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public Deserializer<StreamId> deserializer() {
        return (topic, bytes) -> {
            if (bytes == null) {
                return null;
            }
            try {
                return StreamId.parse(new String(bytes, StandardCharsets.UTF_8));
            } catch (IllegalArgumentException e) {
                throw new SerializationException("cannot deserialize " + StreamId.class.getName() + " key from topic '"
                        + topic + "': " + e.getMessage(), e);
            }
        };
    }

    @Override
    public String toString() {
        return "StreamIdSerde";
    }
}
