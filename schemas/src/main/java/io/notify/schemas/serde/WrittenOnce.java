package io.notify.schemas.serde;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.io.SerializedString;
import com.fasterxml.jackson.databind.BeanDescription;
import com.fasterxml.jackson.databind.BeanProperty;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationConfig;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.jsontype.TypeSerializer;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.ser.BeanSerializerModifier;
import com.fasterxml.jackson.databind.ser.ContextualSerializer;
import com.fasterxml.jackson.databind.ser.ResolvableSerializer;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import io.notify.protocol.NotifyJson;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * Remembers, per thread, the JSON of the value of one type that thread serialized last, so one
 * durable event is written once although fanout-streams stores and sends it three times: the inbox
 * entry, the {@code notify.stream-log} record and the event inside each node's
 * {@code DeliveryMessage} are serialized one after another on one stream thread, for the same
 * instance. A hit is by identity (records with a Jackson tree inside are treated as immutable once
 * built, see {@code EventEnvelope}), so equal but distinct values are simply written again. The
 * bytes are shared, never copied: Kafka, RocksDB and the record cache only read them.
 */
final class WrittenOnce {

    private static final ThreadLocal<WrittenOnce> LAST = ThreadLocal.withInitial(WrittenOnce::new);

    private Object value;
    private byte[] json;

    private WrittenOnce() {
    }

    /** The JSON this thread last wrote for exactly this instance; null when it was another. */
    static byte[] of(Object value) {
        WrittenOnce last = LAST.get();
        return last.value == value ? last.json : null;
    }

    static void remember(Object value, byte[] json) {
        WrittenOnce last = LAST.get();
        last.value = value;
        last.json = json;
    }

    /**
     * A mapper like {@link NotifyJson#mapper()} that writes a value of {@code type} nested in another
     * one (an event inside a DeliveryMessage) as the bytes this thread last wrote for it, when it did.
     */
    static ObjectMapper reusing(Class<?> type) {
        SimpleModule module = new SimpleModule("written-once-" + type.getSimpleName());
        module.setSerializerModifier(new BeanSerializerModifier() {
            @Override
            @SuppressWarnings("unchecked")
            public JsonSerializer<?> modifySerializer(SerializationConfig config, BeanDescription bean,
                                                      JsonSerializer<?> serializer) {
                return bean.getBeanClass() == type ? new Reusing((JsonSerializer<Object>) serializer) : serializer;
            }
        });
        return NotifyJson.mapper().copy().registerModule(module);
    }

    /**
     * Writes the remembered bytes raw, or falls back to the type's own serializer (resolved and
     * contextualized through this wrapper, as Jackson does for the serializer it wraps).
     */
    private static final class Reusing extends StdSerializer<Object> implements ResolvableSerializer, ContextualSerializer {
        private final JsonSerializer<Object> fallback;

        Reusing(JsonSerializer<Object> fallback) {
            super(Object.class);
            this.fallback = fallback;
        }

        @Override
        public void resolve(SerializerProvider provider) throws JsonMappingException {
            if (fallback instanceof ResolvableSerializer r) {
                r.resolve(provider);
            }
        }

        @Override
        @SuppressWarnings("unchecked")
        public JsonSerializer<?> createContextual(SerializerProvider provider, BeanProperty property)
                throws JsonMappingException {
            JsonSerializer<?> contextual = fallback instanceof ContextualSerializer c
                    ? c.createContextual(provider, property) : fallback;
            return contextual == fallback ? this : new Reusing((JsonSerializer<Object>) contextual);
        }

        @Override
        public void serialize(Object value, JsonGenerator gen, SerializerProvider provider) throws IOException {
            if (!writeRemembered(value, gen)) {
                fallback.serialize(value, gen, provider);
            }
        }

        @Override
        public void serializeWithType(Object value, JsonGenerator gen, SerializerProvider provider,
                                      TypeSerializer typeSer) throws IOException {
            // The remembered bytes were written with the same type id (an existing property), so they stand as they are.
            if (!writeRemembered(value, gen)) {
                fallback.serializeWithType(value, gen, provider, typeSer);
            }
        }

        private static boolean writeRemembered(Object value, JsonGenerator gen) throws IOException {
            byte[] json = of(value);
            if (json != null) {
                gen.writeRawValue(new Utf8(json));
            }
            return json != null;
        }
    }

    /**
     * Pre-encoded UTF-8 JSON for {@link JsonGenerator#writeRawValue(SerializableString)}: a UTF-8
     * generator copies the bytes as they are; a character-based one gets the decoded text.
     */
    private static final class Utf8 implements SerializableString {
        private final byte[] json;
        private SerializedString text;

        Utf8(byte[] json) {
            this.json = json;
        }

        private SerializedString text() {
            if (text == null) {
                text = new SerializedString(new String(json, StandardCharsets.UTF_8));
            }
            return text;
        }

        @Override
        public String getValue() {
            return text().getValue();
        }

        @Override
        public int charLength() {
            return text().charLength();
        }

        @Override
        public char[] asQuotedChars() {
            return text().asQuotedChars();
        }

        @Override
        public byte[] asUnquotedUTF8() {
            return json;
        }

        @Override
        public byte[] asQuotedUTF8() {
            return text().asQuotedUTF8();
        }

        @Override
        public int appendQuotedUTF8(byte[] buffer, int offset) {
            return text().appendQuotedUTF8(buffer, offset);
        }

        @Override
        public int appendQuoted(char[] buffer, int offset) {
            return text().appendQuoted(buffer, offset);
        }

        @Override
        public int appendUnquotedUTF8(byte[] buffer, int offset) {
            if (offset + json.length > buffer.length) {
                return -1;
            }
            System.arraycopy(json, 0, buffer, offset, json.length);
            return json.length;
        }

        @Override
        public int appendUnquoted(char[] buffer, int offset) {
            return text().appendUnquoted(buffer, offset);
        }

        @Override
        public int writeQuotedUTF8(OutputStream out) throws IOException {
            return text().writeQuotedUTF8(out);
        }

        @Override
        public int writeUnquotedUTF8(OutputStream out) throws IOException {
            out.write(json);
            return json.length;
        }

        @Override
        public int putQuotedUTF8(ByteBuffer buffer) throws IOException {
            return text().putQuotedUTF8(buffer);
        }

        @Override
        public int putUnquotedUTF8(ByteBuffer out) throws IOException {
            if (json.length > out.remaining()) {
                return -1;
            }
            out.put(json);
            return json.length;
        }
    }
}
