package io.notify.fanout.inbox;

import io.notify.protocol.stream.StreamId;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Key of the {@code inbox} store: one event of one stream. Bytes: the stream id in UTF-8, one
 * 0x00 separator, then the seq as 8 bytes big-endian. Stream ids never contain 0x00 and seqs are
 * positive, so byte order equals (stream, seq) order and one stream's entries form one contiguous,
 * seq-ordered range: {@code [key(s, a), key(s, b)]} never includes another stream's entry.
 */
public record InboxKey(StreamId stream, long seq) {

    static final byte SEPARATOR = 0;
    private static final Serde<InboxKey> SERDE = new KeySerde();

    public InboxKey {
        if (stream == null) {
            throw new IllegalArgumentException("stream is required");
        }
        if (seq < 0) {
            throw new IllegalArgumentException("seq must be >= 0, got " + seq);
        }
    }

    public static Serde<InboxKey> serde() {
        return SERDE;
    }

    public byte[] toBytes() {
        byte[] s = stream.value().getBytes(StandardCharsets.UTF_8);
        return ByteBuffer.allocate(s.length + 9).put(s).put(SEPARATOR).putLong(seq).array();
    }

    public static InboxKey fromBytes(byte[] bytes) {
        int sep = bytes.length - 9;
        if (sep < 1 || bytes[sep] != SEPARATOR) {
            throw new IllegalArgumentException("not an inbox key: " + bytes.length + " bytes");
        }
        StreamId stream = StreamId.parse(new String(Arrays.copyOf(bytes, sep), StandardCharsets.UTF_8));
        return new InboxKey(stream, ByteBuffer.wrap(bytes, sep + 1, 8).getLong());
    }

    private static final class KeySerde implements Serde<InboxKey> {
        @Override
        public Serializer<InboxKey> serializer() {
            return (topic, key) -> key == null ? null : key.toBytes();
        }

        @Override
        public Deserializer<InboxKey> deserializer() {
            return (topic, bytes) -> {
                if (bytes == null) {
                    return null;
                }
                try {
                    return fromBytes(bytes);
                } catch (IllegalArgumentException e) {
                    throw new SerializationException("cannot read an inbox key from '" + topic + "': " + e.getMessage(), e);
                }
            };
        }
    }
}
