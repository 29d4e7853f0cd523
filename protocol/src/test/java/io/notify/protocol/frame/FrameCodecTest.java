package io.notify.protocol.frame;

import static io.notify.protocol.frame.Frames.U42;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.notify.protocol.stream.Position;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The codec as every SDK uses it: exact encodings, server-frame decoding, SSE ids; client frames only in their plain form (no schema). */
class FrameCodecTest {

    private final FrameCodec codec = FrameCodec.v1();

    @Test
    void exactServerFrames() {
        assertEquals("{\"t\":\"welcome\",\"protocol\":\"notify.v1\",\"nodeId\":\"gw-1\",\"connectionId\":\"c-7f3a\","
                + "\"streams\":[\"u:42\"],\"pingIntervalMs\":25000,\"serverTime\":1764410130123}", codec.encode(Frames.WELCOME));
        assertEquals("{\"t\":\"event\",\"stream\":\"u:42\",\"epoch\":\"k3x9m2p8q7rdw5ta\",\"seq\":17,\"id\":\"ord-1:shipped\","
                + "\"type\":\"order.shipped\",\"class\":\"durable\",\"data\":{\"orderId\":\"ord-1\"},"
                + "\"occurredAt\":\"2026-11-29T10:15:30.123+01:00\"}", codec.encode(Frames.DURABLE));
        assertEquals("{\"t\":\"event\",\"stream\":\"u:42\",\"id\":\"typing-1\",\"type\":\"chat.typing\",\"class\":\"ephemeral\","
                + "\"data\":{\"room\":\"r1\"}}", codec.encode(Frames.EPHEMERAL));
        assertEquals("{\"t\":\"reset\",\"stream\":\"u:42\",\"reason\":\"position_too_old\","
                + "\"head\":{\"epoch\":\"k3x9m2p8q7rdw5ta\",\"seq\":1200},\"firstSeq\":201}", codec.encode(Frames.RESET_TOO_OLD));
        assertEquals("{\"t\":\"reset\",\"stream\":\"u:42\",\"reason\":\"epoch_mismatch\","
                + "\"head\":{\"epoch\":\"k3x9m2p8q7rdw5ta\",\"seq\":3},\"firstSeq\":1}", codec.encode(Frames.RESET_EPOCH));
        assertEquals("{\"t\":\"reset\",\"stream\":\"u:42\",\"reason\":\"unknown_stream\"}", codec.encode(Frames.RESET_UNKNOWN));
        assertEquals("{\"t\":\"ping\"}", codec.encode(PingFrame.INSTANCE));
        assertEquals("{\"t\":\"pong\"}", codec.encode(PongFrame.INSTANCE));
    }

    @Test
    void exactClientFrames() {
        assertEquals("{\"t\":\"resume\",\"streams\":[{\"stream\":\"u:42\",\"epoch\":\"k3x9m2p8q7rdw5ta\",\"seq\":17}]}",
                codec.encode(Frames.RESUME));
        assertEquals("{\"t\":\"resume\",\"streams\":[]}", codec.encode(Frames.RESUME_LIVE));
        assertEquals("{\"t\":\"ack\",\"stream\":\"u:42\",\"seq\":17}", codec.encode(Frames.ACK));
    }

    @Test
    void welcomeIsWrittenExactlyAsTheGenericSerializerWritesIt() {
        Random random = new Random(3);
        for (int i = 0; i < 500; i++) {
            List<io.notify.protocol.stream.StreamId> streams = new ArrayList<>();
            for (int k = 0, n = 1 + random.nextInt(3); k < n; k++) {
                streams.add(io.notify.protocol.stream.StreamId.forUser("u." + i + "_" + k + ":x@y-" + random.nextInt(1000)));
            }
            WelcomeFrame w = WelcomeFrame.v1("gw-" + random.nextInt(100) + ".a_b", "c-" + Long.toString(random.nextLong(), 36),
                    streams, WelcomeFrame.MIN_PING_INTERVAL_MS + random.nextInt(299_000), random.nextLong(Long.MAX_VALUE));
            assertEquals(codec.encodeGeneric(w), codec.encode(w));
        }
        assertEquals(codec.encodeGeneric(Frames.WELCOME), codec.encode(Frames.WELCOME));
    }

    @Test
    void serverFramesTolerateNewFieldsButNotBrokenOnes() {
        EventFrame e = (EventFrame) codec.decodeServerFrame("{\"t\":\"event\",\"stream\":\"u:42\",\"epoch\":\"e\",\"seq\":3,"
                + "\"id\":\"x\",\"type\":\"a\",\"class\":\"durable\",\"data\":{},\"addedLater\":{\"k\":1}}");
        assertEquals(Optional.of(Position.of("e", 3)), e.position());
        assertServerRejected("/t", "{\"t\":\"ack\",\"stream\":\"u:42\",\"seq\":1}", "sent by clients only");
        assertServerRejected("", "{\"t\":\"event\",\"stream\":\"u:42\",\"id\":\"x\",\"type\":\"a\",\"class\":\"durable\",\"data\":{}}",
                "a durable event needs epoch");
        assertServerRejected("", "{\"t\":\"event\",\"stream\":\"u:42\",\"seq\":4,\"id\":\"x\",\"type\":\"a\",\"class\":\"ephemeral\",\"data\":{}}",
                "an ephemeral event has no position");
        assertServerRejected("/reason", "{\"t\":\"reset\",\"stream\":\"u:42\",\"reason\":\"what\"}", "reason must be");
        assertServerRejected("/pingIntervalMs", "{\"t\":\"welcome\",\"protocol\":\"notify.v1\",\"nodeId\":\"n\","
                + "\"connectionId\":\"c\",\"streams\":[\"u:1\"],\"serverTime\":1}", "is missing or null");
        assertServerRejected("", "{\"t\":\"reset\",\"stream\":\"u:42\",\"reason\":\"unknown_stream\",\"firstSeq\":1}",
                "has no head and no firstSeq");
    }

    @Test
    void sseIds() {
        assertEquals(Optional.of("k3x9m2p8q7rdw5ta:17"), codec.sseId(Frames.DURABLE));
        assertEquals(Optional.empty(), codec.sseId(Frames.EPHEMERAL));
        assertEquals(Optional.of("k3x9m2p8q7rdw5ta:1200"), codec.sseId(Frames.RESET_TOO_OLD));
        assertEquals(Optional.of(""), codec.sseId(Frames.RESET_UNKNOWN));
        assertEquals(Optional.empty(), codec.sseId(Frames.WELCOME));
        assertEquals(Optional.empty(), codec.sseId(PingFrame.INSTANCE));
    }

    @Test
    void encodedFramesAreOneLine() {
        EventFrame multiline = new EventFrame(U42, null, null, "x", "a", io.notify.protocol.event.EventClass.EPHEMERAL,
                com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode().put("text", "a\nb\r\nc"), null);
        String text = codec.encode(multiline);
        assertFalse(text.contains("\n") || text.contains("\r"), text);
    }

    @Test
    void aClientGivesAConnectionOnePingIntervalPlusAtLeastThreeSeconds() {
        assertEquals(8_000, WelcomeFrame.clientSilenceMs(5_000));
        assertEquals(4_000, WelcomeFrame.clientSilenceMs(1_000));
        assertEquals(37_500, WelcomeFrame.clientSilenceMs(25_000));
    }

    @Test
    void everyServerFrameRoundTrips() {
        for (ServerFrame f : Frames.SERVER) {
            assertEquals(f, codec.decodeServerFrame(codec.encode(f)), f.frameType().wireName());
        }
    }

    @Test
    void plainClientFramesDecodeWithoutTheSchema() {
        ClientFrameSchema never = frame -> {
            throw new AssertionError("the fast path should have read " + frame);
        };
        for (ClientFrame f : List.of(Frames.RESUME, Frames.RESUME_LIVE, Frames.ACK, PingFrame.INSTANCE, PongFrame.INSTANCE)) {
            assertEquals(f, codec.decodeClientFrame(codec.encode(f), never), f.frameType().wireName());
        }
        assertThrows(IllegalArgumentException.class, () -> codec.decodeClientFrame("{\"t\":\"ping\"}", null));
    }

    @Test
    void tooLongAndTooDeepServerFrames() {
        ProtocolException e = assertThrows(ProtocolException.class, () -> codec.decodeServerFrame(
                "{\"t\":\"ping\",\"pad\":\"" + "x".repeat(FrameCodec.MAX_SERVER_FRAME_CHARS) + "\"}"));
        assertTrue(e.getMessage().contains("at most " + FrameCodec.MAX_SERVER_FRAME_CHARS), e.getMessage());
        String deep = "{\"t\":\"ping\",\"x\":" + "[".repeat(100) + "]".repeat(100) + "}";
        ProtocolException d = assertThrows(ProtocolException.class, () -> codec.decodeServerFrame(deep));
        assertTrue(d.getMessage().contains("nests deeper than 64"), d.getMessage());
    }

    @Test
    void serverDecoderThrowsNothingButProtocolException() {
        Random random = new Random(42);
        List<String> seeds = new ArrayList<>();
        Frames.SERVER.forEach(f -> seeds.add(codec.encode(f)));
        String alphabet = "{}[]\",:0123456789-.eE tnulrfasx\\u00e9\uD83D\n";
        for (int i = 0; i < 20_000; i++) {
            String text = TextMutations.mutate(seeds.get(random.nextInt(seeds.size())), random, alphabet, 4);
            try {
                codec.decodeServerFrame(text);
            } catch (ProtocolException expected) {
                // the only failure allowed
            }
        }
    }

    private void assertServerRejected(String field, String text, String messagePart) {
        ProtocolException e = assertThrows(ProtocolException.class, () -> codec.decodeServerFrame(text), text);
        assertEquals(field, e.field(), e.getMessage());
        assertTrue(e.getMessage().contains(messagePart), e.getMessage());
    }
}
