package io.notify.gateway.transport;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.notify.common.limits.TokenBucket;
import io.notify.gateway.disconnect.Disconnect;
import io.notify.gateway.support.RawWsClient;
import io.notify.protocol.frame.WsOpcode;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.Test;

/** Client framing as RFC 6455 defines it, fed whole, split at every byte, and broken on purpose. */
class WsFrameDecoderTest {

    private static final int MAX = 1024;
    private static final int MAX_FRAMES = 4;
    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    private long now = 1_000_000_000L;
    private final LongSupplier clock = () -> now;
    private final WsCodec codec = new WsCodec(MAX, MAX_FRAMES, TIMEOUT, clock);
    private final WsFrameDecoder decoder = new WsFrameDecoder();
    private TokenBucket frames = new TokenBucket(1, 1000, clock);
    private final List<String> seen = new ArrayList<>();

    private final WsFrameDecoder.Sink sink = new WsFrameDecoder.Sink() {
        @Override
        public void text(String text) {
            seen.add("text:" + text);
        }

        @Override
        public void ping(byte[] payload) {
            seen.add("ping:" + new String(payload, StandardCharsets.UTF_8));
        }

        @Override
        public void pong() {
            seen.add("pong");
        }

        @Override
        public void closeFrame(int code) {
            seen.add("close:" + code);
        }

        @Override
        public void violation(Disconnect limit, String detail) {
            seen.add("violation:" + limit.slug());
        }
    };

    static byte[] frame(boolean fin, int opcode, byte[] payload) {
        return RawWsClient.frame(fin, opcode, payload);
    }

    static byte[] text(String s) {
        return frame(true, WsOpcode.TEXT, s.getBytes(StandardCharsets.UTF_8));
    }

    private void feed(byte[]... chunks) {
        for (byte[] chunk : chunks) {
            ByteBuffer buffer = codec.readBuffer();
            decoder.restoreInto(buffer);
            buffer.put(chunk).flip();
            decoder.decode(buffer, codec, frames, sink);
        }
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.write(p, 0, p.length);
        }
        return out.toByteArray();
    }

    @Test
    void wholeFramesOfEveryLengthEncoding() {
        String medium = "m".repeat(300); // 16-bit length
        feed(concat(text("{\"t\":\"resume\"}"), text(medium), text("ünïcødé ✓")));
        assertEquals(List.of("text:{\"t\":\"resume\"}", "text:" + medium, "text:ünïcødé ✓"), seen);
    }

    @Test
    void framesSplitAtEveryByteStillParse() {
        byte[] stream = concat(text("first"), frame(true, WsOpcode.PING, "p".getBytes()), text("x".repeat(200)),
                frame(true, WsOpcode.PONG, new byte[0]));
        for (byte b : stream) {
            feed(new byte[]{b});
        }
        assertEquals(List.of("text:first", "ping:p", "text:" + "x".repeat(200), "pong"), seen);
    }

    @Test
    void fragmentsWithAControlFrameBetweenThemMakeOneMessage() {
        feed(frame(false, WsOpcode.TEXT, "hel".getBytes()), frame(true, WsOpcode.PING, "k".getBytes()),
                frame(false, WsOpcode.CONTINUATION, "lo ".getBytes()), frame(true, WsOpcode.CONTINUATION, "world".getBytes()),
                text("next"));
        assertEquals(List.of("ping:k", "text:hello world", "text:next"), seen);
    }

    @Test
    void aMultiByteCharacterSplitAcrossFragmentsIsValid() {
        byte[] check = "✓".getBytes(StandardCharsets.UTF_8);
        feed(frame(false, WsOpcode.TEXT, new byte[]{check[0]}), frame(true, WsOpcode.CONTINUATION, new byte[]{check[1], check[2]}));
        assertEquals(List.of("text:✓"), seen);
    }

    @Test
    void aMessageOverTheBoundIsRefusedFromItsHeader() {
        byte[] big = frame(true, WsOpcode.TEXT, new byte[MAX + 1]);
        feed(java.util.Arrays.copyOf(big, 8)); // header only: decided before the payload arrives
        assertEquals(List.of("violation:frame_too_big"), seen);
    }

    @Test
    void fragmentsOverTheBoundTogetherAreRefused() {
        feed(frame(false, WsOpcode.TEXT, new byte[MAX - 10]), frame(true, WsOpcode.CONTINUATION, new byte[11]));
        assertEquals(List.of("violation:frame_too_big"), seen);
    }

    @Test
    void exactlyTheBoundIsAccepted() {
        feed(text("a".repeat(MAX)));
        assertEquals(List.of("text:" + "a".repeat(MAX)), seen);
    }

    @Test
    void invalidUtf8InTextOrCloseReasonIs1007() {
        feed(frame(true, WsOpcode.TEXT, new byte[]{'{', (byte) 0xC3, 0x28, '}'}));
        assertEquals(List.of("violation:invalid_utf8"), seen);
        WsFrameDecoder other = new WsFrameDecoder();
        List<String> before = List.copyOf(seen);
        ByteBuffer b = codec.readBuffer().put(frame(true, WsOpcode.CLOSE, new byte[]{0x03, (byte) 0xE8, (byte) 0xFF})).flip();
        other.decode(b, codec, frames, sink);
        assertEquals("violation:invalid_utf8", seen.get(before.size()));
    }

    @Test
    void binaryIsRefusedAtItsFirstFrame() {
        feed(frame(false, WsOpcode.BINARY, new byte[]{1, 2}));
        assertEquals(List.of("violation:binary_frame"), seen);
    }

    @Test
    void brokenFramingIsAProtocolError() {
        byte[] unmasked = {(byte) 0x81, 0x02, 'h', 'i'};
        byte[] rsv = text("x");
        rsv[0] |= 0x40;
        byte[] unknownOpcode = frame(true, 0x3, new byte[0]);
        byte[] strayContinuation = frame(true, WsOpcode.CONTINUATION, "x".getBytes());
        byte[] fragmentedPing = frame(false, WsOpcode.PING, new byte[0]);
        byte[] longPing = frame(true, WsOpcode.PING, new byte[126]);
        byte[] textInsideFragments = concat(frame(false, WsOpcode.TEXT, "a".getBytes()), text("b"));
        byte[] badCloseCode = frame(true, WsOpcode.CLOSE, new byte[]{0x03, (byte) 0xED}); // 1005 may not be sent
        byte[] oneByteClose = frame(true, WsOpcode.CLOSE, new byte[]{0x03});
        for (byte[] bad : List.of(unmasked, rsv, unknownOpcode, strayContinuation, fragmentedPing, longPing,
                textInsideFragments, badCloseCode, oneByteClose)) {
            seen.clear();
            WsFrameDecoder fresh = new WsFrameDecoder();
            ByteBuffer b = codec.readBuffer().put(bad).flip();
            fresh.decode(b, codec, frames, sink);
            assertEquals(List.of("violation:protocol_error"), seen);
            assertTrue(fresh.stopped());
        }
    }

    @Test
    void closeEndsTheParseAndReportsItsCode() {
        feed(concat(frame(true, WsOpcode.CLOSE, new byte[]{0x03, (byte) 0xE8, 'b', 'y', 'e'}), text("ignored")));
        assertEquals(List.of("close:1000"), seen);
        assertTrue(decoder.stopped());
        WsFrameDecoder bare = new WsFrameDecoder();
        bare.decode(codec.readBuffer().put(frame(true, WsOpcode.CLOSE, new byte[0])).flip(), codec, frames, sink);
        assertEquals("close:1005", seen.get(seen.size() - 1));
    }

    private static byte[] continuation(boolean fin, String s) {
        return frame(fin, WsOpcode.CONTINUATION, s.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void everyFrameTakesARateTokenEmptyControlAndContinuationFramesToo() {
        frames = new TokenBucket(1, 5, clock); // no time passes: five frames, then none
        feed(concat(frame(true, WsOpcode.PING, new byte[0]), frame(true, WsOpcode.PONG, new byte[0]), text(""),
                frame(false, WsOpcode.TEXT, new byte[0]), continuation(false, ""), continuation(false, ""), continuation(true, "x")));
        assertEquals(List.of("ping:", "pong", "text:", "violation:inbound_rate"), seen);
        assertTrue(decoder.stopped(), "nothing after the frame over the rate is parsed");
    }

    @Test
    void theRateRefillsAndTheClientsCloseFrameNeedsNoToken() {
        frames = new TokenBucket(1, 2, clock);
        feed(text("a"), text("b"));
        now += Duration.ofSeconds(1).toNanos();
        feed(text("c"), frame(true, WsOpcode.CLOSE, new byte[]{0x03, (byte) 0xE8}));
        assertEquals(List.of("text:a", "text:b", "text:c", "close:1000"), seen);
    }

    @Test
    void aFragmentedMessageIsBoundedInFramesZeroLengthOnesIncluded() {
        feed(frame(false, WsOpcode.TEXT, "a".getBytes()), continuation(false, ""), continuation(false, ""), continuation(true, "b"));
        assertEquals(List.of("text:ab"), seen, "exactly the bound");
        feed(frame(false, WsOpcode.TEXT, "a".getBytes()), frame(true, WsOpcode.PING, new byte[0]), continuation(false, ""),
                continuation(false, ""), continuation(false, ""), continuation(true, "b"));
        assertEquals(List.of("text:ab", "ping:", "violation:message_frames"), seen, "control frames between fragments do not count");
        assertTrue(decoder.stopped());
    }

    @Test
    void aFragmentedMessageIsBoundedInTimeAtItsNextFrame() {
        feed(frame(false, WsOpcode.TEXT, "a".getBytes()));
        now += TIMEOUT.toNanos() - 1_000_000;
        feed(continuation(false, "b"));
        assertEquals(List.of(), seen, "still in time");
        now += 1_000_000;
        feed(frame(true, WsOpcode.PING, new byte[0]));
        assertEquals(List.of("violation:message_timeout"), seen, "any frame after the timeout ends it, a control frame too");
    }

    @Test
    void aSilentFragmentedMessageIsOverdueForTheSweeperAndExpiredOnTheIoThread() {
        assertFalse(decoder.messageOverdue(now + TIMEOUT.toNanos() * 2, codec), "no message, nothing overdue");
        feed(frame(false, WsOpcode.TEXT, "a".getBytes()));
        now += TIMEOUT.toNanos() - 1_000_000;
        assertFalse(decoder.messageOverdue(now, codec));
        decoder.expire(now, codec, sink);
        assertEquals(List.of(), seen);
        now += 1_000_000;
        assertTrue(decoder.messageOverdue(now, codec));
        decoder.expire(now, codec, sink);
        assertEquals(List.of("violation:message_timeout"), seen);
        assertTrue(decoder.stopped());
    }

    @Test
    void aMessageCompletedInTimeLeavesNothingOverdue() {
        feed(frame(false, WsOpcode.TEXT, "a".getBytes()), continuation(true, "b"));
        now += TIMEOUT.toNanos() * 2;
        assertFalse(decoder.messageOverdue(now, codec));
        decoder.expire(now, codec, sink);
        feed(text("c"));
        assertEquals(List.of("text:ab", "text:c"), seen);
    }

    @Test
    void serverHeadersUseTheShortestLength() {
        assertArrayEquals(new byte[]{(byte) 0x81, 125}, remaining(WsCodec.header(WsOpcode.TEXT, 125)));
        assertArrayEquals(new byte[]{(byte) 0x81, 126, 0x01, 0x2C}, remaining(WsCodec.header(WsOpcode.TEXT, 300)));
        assertArrayEquals(new byte[]{(byte) 0x8A, 127, 0, 0, 0, 0, 0, 0x01, 0x00, 0x00},
                remaining(WsCodec.header(WsOpcode.PONG, 65536)));
    }

    private static byte[] remaining(ByteBuffer b) {
        byte[] out = new byte[b.remaining()];
        b.get(out);
        return out;
    }
}
