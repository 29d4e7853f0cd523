package io.notify.gateway.transport;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.function.LongSupplier;

/**
 * What every WebSocket connection of a node shares: the inbound message bounds (bytes, and a
 * fragmented message's frames and time), one read buffer and one strict UTF-8 decoder per I/O
 * thread, and the encoding of server frames (RFC 6455 §5.2:
 * unmasked, never fragmented). An idle connection owns no buffer: bytes are read into its I/O
 * thread's buffer and only an incomplete frame is copied out ({@link WsFrameDecoder}).
 */
public final class WsCodec {

    /** A client frame's header: 2 bytes, an 8-byte extended length at most, the 4-byte mask. */
    static final int MAX_CLIENT_HEADER = 14;

    private final int maxMessageBytes;
    private final int maxMessageFrames;
    private final long messageTimeoutNanos;
    private final LongSupplier nanoTime;
    private final ThreadLocal<ByteBuffer> readBuffers;
    private final ThreadLocal<CharsetDecoder> decoders = ThreadLocal.withInitial(() -> StandardCharsets.UTF_8.newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT));

    /**
     * @param maxMessageBytes  the largest inbound message (all its fragments together): {@code max-frame-bytes}
     * @param maxMessageFrames the most data frames of one fragmented message: {@code max-message-frames}
     * @param messageTimeout   a fragmented message's last frame is due within this of its first: {@code message-timeout}
     */
    public WsCodec(int maxMessageBytes, int maxMessageFrames, Duration messageTimeout) {
        this(maxMessageBytes, maxMessageFrames, messageTimeout, System::nanoTime);
    }

    /** As above, on {@code nanoTime}'s clock (tests). */
    WsCodec(int maxMessageBytes, int maxMessageFrames, Duration messageTimeout, LongSupplier nanoTime) {
        this.maxMessageBytes = maxMessageBytes;
        this.maxMessageFrames = maxMessageFrames;
        this.messageTimeoutNanos = messageTimeout.toNanos();
        this.nanoTime = nanoTime;
        // an incomplete frame (< header + max bytes) always leaves room for a read of 4 KiB after it
        int capacity = Math.max(16 * 1024, maxMessageBytes + MAX_CLIENT_HEADER + 4096);
        this.readBuffers = ThreadLocal.withInitial(() -> ByteBuffer.allocateDirect(capacity));
    }

    int maxMessageBytes() {
        return maxMessageBytes;
    }

    int maxMessageFrames() {
        return maxMessageFrames;
    }

    long messageTimeoutNanos() {
        return messageTimeoutNanos;
    }

    long nanoTime() {
        return nanoTime.getAsLong();
    }

    /** This thread's read buffer, cleared. Nothing may keep a reference to it after the read. */
    ByteBuffer readBuffer() {
        return readBuffers.get().clear();
    }

    /** Strict UTF-8 of {@code bytes}; null when it is not valid UTF-8 (close 1007). */
    String utf8(ByteBuffer bytes) {
        CharsetDecoder decoder = decoders.get();
        try {
            return decoder.decode(bytes).toString();
        } catch (CharacterCodingException e) {
            return null;
        } finally {
            decoder.reset();
        }
    }

    /** The header of a final server frame carrying {@code length} bytes. */
    static ByteBuffer header(int opcode, int length) {
        ByteBuffer h;
        if (length < 126) {
            h = ByteBuffer.allocate(2);
            h.put((byte) (0x80 | opcode)).put((byte) length);
        } else if (length <= 0xFFFF) {
            h = ByteBuffer.allocate(4);
            h.put((byte) (0x80 | opcode)).put((byte) 126).putShort((short) length);
        } else {
            h = ByteBuffer.allocate(10);
            h.put((byte) (0x80 | opcode)).put((byte) 127).putLong(length);
        }
        return h.flip();
    }

    /** A close frame's payload: the code, then the reason (at most 123 bytes of UTF-8, already clipped). */
    static ByteBuffer closePayload(int code, String reason) {
        byte[] text = reason == null ? new byte[0] : reason.getBytes(StandardCharsets.UTF_8);
        return ByteBuffer.allocate(2 + text.length).putShort((short) code).put(text).flip();
    }
}
