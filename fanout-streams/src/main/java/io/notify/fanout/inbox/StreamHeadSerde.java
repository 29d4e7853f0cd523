package io.notify.fanout.inbox;

import io.notify.schemas.serde.JsonSerde;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/**
 * The {@code stream-heads} store's values, read and written once per sequenced event: a version
 * byte ({@value #V1}), the epoch's length (one byte) and its ASCII characters, then {@code firstSeq},
 * {@code lastSeq} and {@code ageCheckAt} as 8 bytes big-endian each: 42 bytes for a 16-char epoch.
 * Heads written before it as JSON (they start with {@code '{'}) are still read; the next write of
 * the stream replaces them. JSON was a tenth of fanout's stream thread, and a head's bind and write
 * a third of that (docs/BENCHMARKS.md "Exactly-once: where the milliseconds go").
 */
final class StreamHeadSerde implements Serde<StreamHead> {

    static final byte V1 = 1;
    private static final JsonSerde<StreamHead> JSON = JsonSerde.of(StreamHead.class);

    @Override
    public Serializer<StreamHead> serializer() {
        return (topic, head) -> head == null ? null : write(head);
    }

    @Override
    public Deserializer<StreamHead> deserializer() {
        return (topic, bytes) -> {
            if (bytes == null) {
                return null;
            }
            if (bytes.length > 0 && bytes[0] == '{') {
                return JSON.deserializer().deserialize(topic, bytes); // written as JSON before this format
            }
            try {
                return read(bytes);
            } catch (RuntimeException e) {
                throw new SerializationException("cannot read a stream head from '" + topic + "' (" + bytes.length
                        + " bytes): " + e.getMessage(), e);
            }
        };
    }

    static byte[] write(StreamHead head) {
        byte[] epoch = head.epoch().getBytes(StandardCharsets.US_ASCII); // [A-Za-z0-9_-], at most 64: StreamHead checked it
        return ByteBuffer.allocate(2 + epoch.length + 3 * Long.BYTES)
                .put(V1).put((byte) epoch.length).put(epoch)
                .putLong(head.firstSeq()).putLong(head.lastSeq()).putLong(head.ageCheckAt())
                .array();
    }

    static StreamHead read(byte[] bytes) {
        if (bytes.length < 2 || bytes[0] != V1) {
            throw new IllegalArgumentException("unknown stream head format " + (bytes.length == 0 ? "(empty)" : bytes[0]));
        }
        int epochLength = bytes[1] & 0xFF;
        if (bytes.length != 2 + epochLength + 3 * Long.BYTES) {
            throw new IllegalArgumentException("a stream head with a " + epochLength + "-byte epoch is "
                    + (2 + epochLength + 3 * Long.BYTES) + " bytes");
        }
        ByteBuffer in = ByteBuffer.wrap(bytes, 2 + epochLength, 3 * Long.BYTES);
        return new StreamHead(new String(bytes, 2, epochLength, StandardCharsets.US_ASCII),
                in.getLong(), in.getLong(), in.getLong()); // the constructor checks every rule
    }
}
