package io.notify.schemas.serde;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.ObjectWriter;
import io.notify.protocol.NotifyJson;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Kafka serde for a Notify wire record, as JSON through {@link NotifyJson#mapper()}.
 * Guarantees: {@code null} maps to {@code null} both ways (tombstones pass through); every
 * failure is a {@link SerializationException} whose message names the target type and the topic
 * and whose cause is the underlying error (a constructor's rule or a Jackson error). Unknown
 * fields are ignored on read, so a writer may add a field before every reader is upgraded (rolling
 * deploys of fanout-streams and gateways); every rule the record states is still enforced.
 * Thread-safe; stateless but for the per-thread last value of a {@link #writtenOnce} serde;
 * {@code configure}/{@code close} do nothing.
 */
public final class JsonSerde<T> implements Serde<T> {

    private final Class<T> type;
    private final ObjectWriter writer;
    private final ObjectReader reader;

    private final boolean remember;

    private JsonSerde(Class<T> type, ObjectWriter writer, boolean remember) {
        this.type = type;
        this.writer = writer;
        this.remember = remember;
        this.reader = NotifyJson.mapper().readerFor(type).without(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
    }

    public static <T> JsonSerde<T> of(Class<T> type) {
        return new JsonSerde<>(type, NotifyJson.mapper().writerFor(type), false);
    }

    /**
     * Like {@link #of}, and a value this thread writes twice in a row (the same instance) is
     * serialized once: the second call returns the same bytes ({@link WrittenOnce}).
     */
    static <T> JsonSerde<T> writtenOnce(Class<T> type) {
        return new JsonSerde<>(type, NotifyJson.mapper().writerFor(type), true);
    }

    /**
     * Like {@link #of}, but a nested value of type {@code nested} that this thread just wrote with
     * a {@link #writtenOnce} serde is copied in as those bytes instead of being serialized again.
     */
    static <T> JsonSerde<T> embeddingWrittenOnce(Class<T> type, Class<?> nested) {
        return new JsonSerde<>(type, WrittenOnce.reusing(nested).writerFor(type), false);
    }

    public Class<T> type() {
        return type;
    }

    @Override
    public Serializer<T> serializer() {
        return (topic, value) -> {
            if (value == null) {
                return null;
            }
            try {
                if (!remember) {
                    return writer.writeValueAsBytes(value);
                }
                byte[] json = WrittenOnce.of(value);
                if (json == null) {
                    json = writer.writeValueAsBytes(value);
                    WrittenOnce.remember(value, json);
                }
                return json;
            } catch (Exception e) {
                throw new SerializationException("cannot serialize " + type.getName() + " for topic '" + topic
                        + "': " + SerdeErrors.firstLine(e), e);
            }
        };
    }

    @Override
    public Deserializer<T> deserializer() {
        return (topic, bytes) -> {
            if (bytes == null) {
                return null;
            }
            try {
                return reader.readValue(bytes);
            } catch (Exception e) {
                throw new SerializationException("cannot deserialize " + type.getName() + " from topic '" + topic
                        + "' (" + bytes.length + " bytes): " + SerdeErrors.rootMessage(e), e);
            }
        };
    }

    @Override
    public String toString() {
        return "JsonSerde<" + type.getSimpleName() + ">";
    }
}
