package io.notify.gateway.transport;

import static io.notify.protocol.frame.WsOpcode.BINARY;
import static io.notify.protocol.frame.WsOpcode.CLOSE;
import static io.notify.protocol.frame.WsOpcode.CONTINUATION;
import static io.notify.protocol.frame.WsOpcode.PING;
import static io.notify.protocol.frame.WsOpcode.PONG;

import io.notify.common.limits.TokenBucket;
import io.notify.gateway.disconnect.Disconnect;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * One connection's inbound RFC 6455 framing, parsed incrementally from whatever a read brought.
 * Pure state, no I/O; not thread-safe (the connection's I/O thread owns it; only
 * {@link #messageOverdue} may be asked from another thread). Between reads it
 * holds only an incomplete frame's bytes and a fragmented message's bytes so far, both null when
 * idle. Enforced here, each answered through {@link Sink#violation} and ending the parse:
 * <ul>
 *   <li>client frames are masked, with no reserved bits (no extension is ever negotiated) and a
 *       known opcode; control frames are final and carry ≤ 125 bytes; continuations continue a
 *       message and a new message does not start inside one — else {@link Disconnect#PROTOCOL_ERROR};</li>
 *   <li>a message (all fragments) is at most {@link WsCodec#maxMessageBytes()} — else
 *       {@link Disconnect#FRAME_TOO_BIG}, decided from the header before the payload is read;</li>
 *   <li>text is strict UTF-8, close reasons too — else {@link Disconnect#INVALID_UTF8};</li>
 *   <li>binary messages are refused at their first frame — {@link Disconnect#BINARY_FRAME};</li>
 *   <li>every complete frame takes a token from the connection's frame bucket — data, continuation,
 *       ping and pong frames, empty ones too; only the client's close frame (its last) does not —
 *       else {@link Disconnect#INBOUND_RATE}, so a flood of any kind of frame ends at the bucket's burst;</li>
 *   <li>a fragmented message is at most {@link WsCodec#maxMessageFrames()} data frames — else
 *       {@link Disconnect#MESSAGE_FRAMES}, decided from the header — and complete within
 *       {@link WsCodec#messageTimeoutNanos()} of its first frame — else {@link Disconnect#MESSAGE_TIMEOUT},
 *       checked at each frame that arrives meanwhile and, for a client that goes silent, by
 *       {@link #messageOverdue} (the node's sweeper) and {@link #expire} (the I/O thread).</li>
 * </ul>
 * Nothing is parsed after a close frame or a violation.
 */
final class WsFrameDecoder {

    /** What the frames say. */
    interface Sink {
        void text(String text);

        /** A client ping's application data (the pong must echo it). */
        void ping(byte[] payload);

        void pong();

        /** The client's close frame: its code, 1005 when it carried none. */
        void closeFrame(int code);

        void violation(Disconnect limit, String detail);
    }

    /** {@link #fragments} once nothing more is parsed. */
    private static final int STOPPED = -1;
    /** {@link #messageStart} while no fragmented message is open. */
    private static final int NONE = 0;

    private byte[] partial;
    private byte[] message;
    private int messageLength;
    // data frames of the fragmented message being assembled (0: none), or STOPPED after a close frame
    // or a violation: one int for both keeps an idle decoder at 32 bytes (docs/gateway.md)
    private int fragments;
    // when the fragmented message began: milliseconds of nanoTime, wrapping (NONE: no message); read by the sweeper
    private volatile int messageStart;

    /** Moves the incomplete frame kept from the last read to the front of {@code buffer} (cleared). */
    void restoreInto(ByteBuffer buffer) {
        if (partial != null) {
            buffer.put(partial);
            partial = null;
        }
    }

    /** Bytes received before parsing starts (behind the handshake), parsed first. */
    void keep(byte[] bytes) {
        partial = bytes;
    }

    /** Whether bytes wait to be parsed with the next read. */
    boolean holdsBytes() {
        return partial != null;
    }

    boolean stopped() {
        return fragments == STOPPED;
    }

    /**
     * Parses every complete frame of {@code buffer} (flipped: position to limit), unmasking in
     * place, and keeps a copy of an incomplete last frame; {@code buffer} may be reused afterwards.
     */
    void decode(ByteBuffer buffer, WsCodec codec, TokenBucket frames, Sink sink) {
        while (!stopped() && buffer.hasRemaining()) {
            int start = buffer.position();
            if (!frame(buffer, codec, frames, sink)) {
                buffer.position(start);
                break;
            }
        }
        if (!stopped() && buffer.hasRemaining()) {
            partial = new byte[buffer.remaining()];
            buffer.get(partial);
        }
        buffer.position(buffer.limit());
    }

    /** One frame from the buffer's position; false (position anywhere) when it is not complete yet. */
    private boolean frame(ByteBuffer buffer, WsCodec codec, TokenBucket frames, Sink sink) {
        if (buffer.remaining() < 2) {
            return false;
        }
        int b0 = buffer.get() & 0xFF;
        int b1 = buffer.get() & 0xFF;
        boolean fin = (b0 & 0x80) != 0;
        int opcode = b0 & 0x0F;
        int length7 = b1 & 0x7F;
        if ((b0 & 0x70) != 0) {
            return violation(sink, Disconnect.PROTOCOL_ERROR, "reserved bits set, no extension was negotiated");
        }
        if ((b1 & 0x80) == 0) {
            return violation(sink, Disconnect.PROTOCOL_ERROR, "client frames must be masked");
        }
        int extended = length7 == 126 ? 2 : length7 == 127 ? 8 : 0;
        if (buffer.remaining() < extended + 4) {
            return false;
        }
        long length = length7 == 126 ? buffer.getShort() & 0xFFFF : length7 == 127 ? buffer.getLong() : length7;
        boolean control = opcode >= 0x8;
        if (control) {
            if (opcode > PONG) {
                return violation(sink, Disconnect.PROTOCOL_ERROR, "unknown opcode " + opcode);
            }
            if (!fin || length7 > 125) {
                return violation(sink, Disconnect.PROTOCOL_ERROR, "control frames are final and at most 125 bytes");
            }
        } else if (opcode > BINARY) {
            return violation(sink, Disconnect.PROTOCOL_ERROR, "unknown opcode " + opcode);
        } else if (opcode == CONTINUATION && fragments == 0) {
            return violation(sink, Disconnect.PROTOCOL_ERROR, "continuation frame without a message to continue");
        } else if (opcode != CONTINUATION && fragments > 0) {
            return violation(sink, Disconnect.PROTOCOL_ERROR, "a new message inside a fragmented one");
        } else if (opcode == BINARY) {
            return violation(sink, Disconnect.BINARY_FRAME, null);
        } else if (length < 0 || messageLength + length > codec.maxMessageBytes()) {
            return violation(sink, Disconnect.FRAME_TOO_BIG, null);
        } else if (opcode == CONTINUATION && fragments >= codec.maxMessageFrames()) {
            return violation(sink, Disconnect.MESSAGE_FRAMES, "a message in more than " + codec.maxMessageFrames() + " frames");
        }
        if (fragments > 0 && overdue(codec.nanoTime(), codec)) {
            return timedOut(sink, codec);
        }
        if (buffer.remaining() < 4 + length) {
            return false;
        }
        if (opcode != CLOSE && !frames.tryTake()) {
            return violation(sink, Disconnect.INBOUND_RATE, null);
        }
        int mask = buffer.getInt();
        int n = (int) length;
        ByteBuffer payload = buffer.slice(buffer.position(), n);
        unmask(payload, mask);
        buffer.position(buffer.position() + n);
        switch (opcode) {
            case PING -> sink.ping(bytes(payload));
            case PONG -> sink.pong();
            case CLOSE -> close(payload, codec, sink);
            default -> data(fin, payload, codec, sink);
        }
        return true;
    }

    private void data(boolean fin, ByteBuffer payload, WsCodec codec, Sink sink) {
        ByteBuffer whole = payload;
        if (fragments > 0 || !fin) {
            if (fragments == 0) {
                messageStart = stamp(codec.nanoTime());
            }
            fragments++;
            int needed = messageLength + payload.remaining();
            if (message == null) {
                message = new byte[Math.max(needed, 256)];
            } else if (message.length < needed) { // doubling, so many small fragments copy O(n) bytes; the bound caps it
                message = Arrays.copyOf(message, Math.min(Math.max(needed, 2 * message.length), codec.maxMessageBytes()));
            }
            payload.get(message, messageLength, payload.remaining());
            messageLength = needed;
            if (!fin) {
                return;
            }
            whole = ByteBuffer.wrap(message, 0, messageLength);
            fragments = 0;
            messageStart = NONE;
        }
        String text = codec.utf8(whole);
        message = null;
        messageLength = 0;
        if (text == null) {
            violation(sink, Disconnect.INVALID_UTF8, null);
        } else {
            sink.text(text);
        }
    }

    private void close(ByteBuffer payload, WsCodec codec, Sink sink) {
        int length = payload.remaining();
        if (length == 1) {
            violation(sink, Disconnect.PROTOCOL_ERROR, "a close frame's code is 2 bytes");
            return;
        }
        int code = length == 0 ? 1005 : payload.getShort() & 0xFFFF;
        if (length > 0 && !validCloseCode(code)) {
            violation(sink, Disconnect.PROTOCOL_ERROR, "close code " + code + " may not be sent");
            return;
        }
        if (codec.utf8(payload) == null) {
            violation(sink, Disconnect.INVALID_UTF8, null);
            return;
        }
        stop();
        sink.closeFrame(code);
    }

    /** RFC 6455 §7.4: the codes an endpoint may put in a close frame. */
    static boolean validCloseCode(int code) {
        return (code >= 1000 && code <= 1003) || (code >= 1007 && code <= 1014) || (code >= 3000 && code <= 4999);
    }

    /**
     * Whether a fragmented message has been open for {@link WsCodec#messageTimeoutNanos()} or more
     * at {@code nowNanos}. Any thread (the node's sweeper asks, through the transport's tick): it
     * reads one volatile field, and a yes is only a hint to {@link #expire} on the I/O thread.
     */
    boolean messageOverdue(long nowNanos, WsCodec codec) {
        return messageStart != NONE && overdue(nowNanos, codec);
    }

    /** On the I/O thread: ends the parse with {@link Disconnect#MESSAGE_TIMEOUT} if a fragmented message is still overdue. */
    void expire(long nowNanos, WsCodec codec, Sink sink) {
        if (fragments > 0 && overdue(nowNanos, codec)) {
            timedOut(sink, codec);
        }
    }

    private boolean overdue(long nowNanos, WsCodec codec) {
        int start = messageStart;
        return start != NONE && (long) (stamp(nowNanos) - start) * 1_000_000L >= codec.messageTimeoutNanos();
    }

    /** Milliseconds of {@code nanos}, wrapping (differences are right for spans under 24 days), never {@link #NONE}. */
    private static int stamp(long nanos) {
        int ms = (int) (nanos / 1_000_000L);
        return ms == NONE ? 1 : ms;
    }

    private boolean timedOut(Sink sink, WsCodec codec) {
        return violation(sink, Disconnect.MESSAGE_TIMEOUT,
                "a fragmented message not complete within " + codec.messageTimeoutNanos() / 1_000_000L + " ms");
    }

    private void stop() {
        fragments = STOPPED;
        messageStart = NONE;
    }

    private boolean violation(Sink sink, Disconnect limit, String detail) {
        stop();
        partial = null;
        message = null;
        sink.violation(limit, detail);
        return true;
    }

    private static void unmask(ByteBuffer payload, int mask) {
        int n = payload.remaining();
        int i = 0;
        for (; i + 4 <= n; i += 4) {
            payload.putInt(i, payload.getInt(i) ^ mask);
        }
        for (; i < n; i++) {
            payload.put(i, (byte) (payload.get(i) ^ (mask >>> (8 * (3 - (i & 3))))));
        }
    }

    private static byte[] bytes(ByteBuffer payload) {
        byte[] out = new byte[payload.remaining()];
        payload.get(out);
        return out;
    }
}
