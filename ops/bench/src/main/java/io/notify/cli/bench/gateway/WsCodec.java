package io.notify.cli.bench.gateway;

import static io.notify.protocol.frame.WsOpcode.CLOSE;
import static io.notify.protocol.frame.WsOpcode.TEXT;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;

/**
 * The client side of RFC 6455 framing, just what a load generator needs: masked client frames
 * (text, pong, close), unmasked server frames decoded from a buffer that may hold a partial frame,
 * and the handshake accept key. Pure functions; no I/O.
 */
final class WsCodec {

    /** The server frame bound of notify.v1 is 128 KiB of chars; UTF-8 may need up to 3 bytes each. */
    static final int MAX_PAYLOAD = 3 * 128 * 1024;
    private static final String GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";

    /** One decoded frame; the payload is already unmasked. */
    record Frame(boolean fin, int opcode, byte[] payload) {

        String text() {
            return new String(payload, StandardCharsets.UTF_8);
        }

        /** The close code of a close frame (1005 when it carries none). */
        int closeCode() {
            return payload.length >= 2 ? ((payload[0] & 0xFF) << 8) | (payload[1] & 0xFF) : 1005;
        }
    }

    private WsCodec() {
    }

    /** {@code Sec-WebSocket-Accept} for a {@code Sec-WebSocket-Key}: base64(SHA-1(key + GUID)). */
    static String acceptKey(String key) {
        try {
            byte[] sha1 = MessageDigest.getInstance("SHA-1").digest((key + GUID).getBytes(StandardCharsets.US_ASCII));
            return Base64.getEncoder().encodeToString(sha1);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-1 is required by every JVM", e);
        }
    }

    /** A fresh {@code Sec-WebSocket-Key}: 16 random bytes, base64. */
    static String newKey(long random1, long random2) {
        ByteBuffer b = ByteBuffer.allocate(16).putLong(random1).putLong(random2);
        return Base64.getEncoder().encodeToString(b.array());
    }

    /** A complete client frame (FIN set, masked with {@code maskKey}) of at most 65535 payload bytes. */
    static byte[] clientFrame(int opcode, byte[] payload, int maskKey) {
        if (payload.length > 0xFFFF) {
            throw new IllegalArgumentException("client frames here are at most 65535 bytes, got " + payload.length);
        }
        int header = payload.length <= 125 ? 2 : 4;
        ByteBuffer out = ByteBuffer.allocate(header + 4 + payload.length);
        out.put((byte) (0x80 | opcode));
        if (payload.length <= 125) {
            out.put((byte) (0x80 | payload.length));
        } else {
            out.put((byte) (0x80 | 126)).putShort((short) payload.length);
        }
        out.putInt(maskKey);
        byte[] key = {(byte) (maskKey >>> 24), (byte) (maskKey >>> 16), (byte) (maskKey >>> 8), (byte) maskKey};
        byte[] masked = payload.clone();
        mask(masked, key);
        out.put(masked);
        return out.array();
    }

    static byte[] text(String text, int maskKey) {
        return clientFrame(TEXT, text.getBytes(StandardCharsets.UTF_8), maskKey);
    }

    /** A close frame with a status code and no reason. */
    static byte[] close(int code, int maskKey) {
        return clientFrame(CLOSE, new byte[] {(byte) (code >>> 8), (byte) code}, maskKey);
    }

    /** XOR with the 4-byte key, in place (masking and unmasking are the same operation). */
    static void mask(byte[] data, byte[] key) {
        for (int i = 0; i < data.length; i++) {
            data[i] ^= key[i & 3];
        }
    }

    /**
     * Decodes one frame from {@code buf} (between position and limit). Returns null and leaves the
     * position unchanged when the frame is not complete yet; otherwise advances past it.
     *
     * @throws IllegalStateException on a payload over {@link #MAX_PAYLOAD} or reserved bits set
     */
    static Frame decode(ByteBuffer buf) {
        int start = buf.position();
        if (buf.remaining() < 2) {
            return null;
        }
        int b0 = buf.get(start) & 0xFF;
        int b1 = buf.get(start + 1) & 0xFF;
        if ((b0 & 0x70) != 0) {
            throw new IllegalStateException("reserved bits set in frame header 0x" + Integer.toHexString(b0));
        }
        boolean masked = (b1 & 0x80) != 0;
        long len = b1 & 0x7F;
        int pos = start + 2;
        if (len == 126) {
            if (buf.limit() - pos < 2) {
                return null;
            }
            len = buf.getShort(pos) & 0xFFFF;
            pos += 2;
        } else if (len == 127) {
            if (buf.limit() - pos < 8) {
                return null;
            }
            len = buf.getLong(pos);
            pos += 8;
        }
        if (len < 0 || len > MAX_PAYLOAD) {
            throw new IllegalStateException("frame payload of " + len + " bytes is over " + MAX_PAYLOAD);
        }
        byte[] key = null;
        if (masked) {
            if (buf.limit() - pos < 4) {
                return null;
            }
            key = new byte[4];
            for (int i = 0; i < 4; i++) {
                key[i] = buf.get(pos + i);
            }
            pos += 4;
        }
        if (buf.limit() - pos < len) {
            return null;
        }
        byte[] payload = new byte[(int) len];
        buf.position(pos);
        buf.get(payload);
        if (key != null) {
            mask(payload, key);
        }
        return new Frame((b0 & 0x80) != 0, b0 & 0x0F, payload);
    }
}
