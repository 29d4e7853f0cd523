package io.notify.cli.bench.gateway;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.notify.protocol.frame.WsOpcode;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** RFC 6455 framing and the handshake accept key, as the load agents use them. */
class WsCodecTest {

    @Test
    void acceptKeyIsTheRfc6455Example() {
        assertEquals("s3pPLMBiTxaQ9kYGzzhZRbK+xOo=", WsCodec.acceptKey("dGhlIHNhbXBsZSBub25jZQ=="));
    }

    @Test
    void newKeysAreSixteenBytesOfBase64() {
        String key = WsCodec.newKey(1, 2);
        assertEquals(24, key.length());
        assertEquals(16, java.util.Base64.getDecoder().decode(key).length);
    }

    @Test
    void clientTextFrameIsFinMaskedAndUnmasksToThePayload() {
        byte[] frame = WsCodec.text("Hello", 0x37fa213d);
        // RFC 6455 §5.7: a single-frame masked text message "Hello"
        assertArrayEquals(new byte[] {(byte) 0x81, (byte) 0x85, 0x37, (byte) 0xfa, 0x21, 0x3d, 0x7f, (byte) 0x9f, 0x4d, 0x51, 0x58},
                frame);
        WsCodec.Frame decoded = WsCodec.decode(ByteBuffer.wrap(frame));
        assertEquals(WsOpcode.TEXT, decoded.opcode());
        assertTrue(decoded.fin());
        assertEquals("Hello", decoded.text());
    }

    @Test
    void mediumPayloadsUseTheSixteenBitLength() {
        byte[] payload = new byte[300];
        Arrays.fill(payload, (byte) 'x');
        byte[] frame = WsCodec.clientFrame(WsOpcode.TEXT, payload, 42);
        assertEquals((byte) (0x80 | 126), frame[1]);
        assertEquals(300, ((frame[2] & 0xFF) << 8) | (frame[3] & 0xFF));
        assertEquals(4 + 4 + 300, frame.length);
        assertArrayEquals(payload, WsCodec.decode(ByteBuffer.wrap(frame)).payload());
    }

    @Test
    void maskingTwiceRestoresTheData() {
        byte[] data = "notify.v1 frames".getBytes(StandardCharsets.UTF_8);
        byte[] copy = data.clone();
        byte[] key = {1, 2, 3, 4};
        WsCodec.mask(copy, key);
        WsCodec.mask(copy, key);
        assertArrayEquals(data, copy);
    }

    @Test
    void decodesUnmaskedServerFramesOfEveryLengthForm() {
        assertEquals("{\"t\":\"ping\"}", WsCodec.decode(ByteBuffer.wrap(serverFrame(WsOpcode.TEXT, "{\"t\":\"ping\"}"))).text());
        String medium = "a".repeat(1000);
        assertEquals(medium, WsCodec.decode(ByteBuffer.wrap(serverFrame(WsOpcode.TEXT, medium))).text());
        String large = "b".repeat(70_000);
        assertEquals(large, WsCodec.decode(ByteBuffer.wrap(serverFrame(WsOpcode.TEXT, large))).text());
    }

    @Test
    void partialFramesLeaveTheBufferUntouched() {
        byte[] two = concat(serverFrame(WsOpcode.TEXT, "first"), serverFrame(WsOpcode.PING, "p"));
        for (int cut = 0; cut < 7; cut++) { // 7 = the whole first frame
            ByteBuffer partial = ByteBuffer.wrap(two, 0, cut);
            assertNull(WsCodec.decode(partial), "cut at " + cut);
            assertEquals(0, partial.position());
        }
        ByteBuffer all = ByteBuffer.wrap(two);
        assertEquals("first", WsCodec.decode(all).text());
        WsCodec.Frame ping = WsCodec.decode(all);
        assertEquals(WsOpcode.PING, ping.opcode());
        assertEquals("p", ping.text());
        assertEquals(0, all.remaining());
    }

    @Test
    void closeFramesCarryTheirCode() {
        byte[] close = WsCodec.close(1001, 7);
        WsCodec.Frame f = WsCodec.decode(ByteBuffer.wrap(close));
        assertEquals(WsOpcode.CLOSE, f.opcode());
        assertEquals(1001, f.closeCode());
        assertEquals(1005, new WsCodec.Frame(true, WsOpcode.CLOSE, new byte[0]).closeCode());
    }

    @Test
    void oversizedOrReservedBitFramesAreRefused() {
        ByteBuffer huge = ByteBuffer.allocate(10).put((byte) 0x81).put((byte) 127).putLong(1L << 40);
        huge.flip();
        assertThrows(IllegalStateException.class, () -> WsCodec.decode(huge));
        assertThrows(IllegalStateException.class, () -> WsCodec.decode(ByteBuffer.wrap(new byte[] {(byte) 0xC1, 0})));
    }

    /** What a server sends: FIN, no mask. */
    static byte[] serverFrame(int opcode, String text) {
        byte[] p = text.getBytes(StandardCharsets.UTF_8);
        ByteBuffer b = ByteBuffer.allocate(p.length + 10).put((byte) (0x80 | opcode));
        if (p.length <= 125) {
            b.put((byte) p.length);
        } else if (p.length <= 0xFFFF) {
            b.put((byte) 126).putShort((short) p.length);
        } else {
            b.put((byte) 127).putLong(p.length);
        }
        b.put(p).flip();
        byte[] out = new byte[b.remaining()];
        b.get(out);
        return out;
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
