package io.notify.fanout.fallback;

import io.notify.protocol.stream.StreamId;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.apache.kafka.common.utils.Bytes;

/**
 * Key of the {@code fallback-pending} store: when a fallback is due, then whose. Bytes: {@code dueAt}
 * (epoch ms) as 8 bytes big-endian, the stream id in UTF-8, one 0x00, the seq as 8 bytes
 * big-endian. Due times are positive, so byte order is due-time order and every fallback due by
 * {@code t} is the one range {@code [first, upTo(t)]}: the timer reads only what is due.
 */
public record FallbackKey(long dueAt, StreamId stream, long seq) {

    public FallbackKey {
        if (dueAt < 0 || seq < 0 || stream == null) {
            throw new IllegalArgumentException("dueAt and seq must be >= 0 and stream given");
        }
    }

    /** The smallest key: the start of every due range. */
    static Bytes first() {
        return Bytes.wrap(new byte[] {0});
    }

    /** A key above every key due at or before {@code t} (stream ids never start with 0xFF). */
    static Bytes upTo(long t) {
        return Bytes.wrap(ByteBuffer.allocate(9).putLong(t).put((byte) 0xFF).array());
    }

    Bytes toBytes() {
        byte[] s = stream.value().getBytes(StandardCharsets.UTF_8);
        return Bytes.wrap(ByteBuffer.allocate(8 + s.length + 9).putLong(dueAt).put(s).put((byte) 0).putLong(seq).array());
    }

    static FallbackKey fromBytes(Bytes bytes) {
        byte[] b = bytes.get();
        int sep = b.length - 9;
        if (sep < 9 || b[sep] != 0) {
            throw new IllegalArgumentException("not a fallback key: " + b.length + " bytes");
        }
        ByteBuffer buf = ByteBuffer.wrap(b);
        return new FallbackKey(buf.getLong(0), StreamId.parse(new String(Arrays.copyOfRange(b, 8, sep), StandardCharsets.UTF_8)),
                buf.getLong(sep + 1));
    }
}
