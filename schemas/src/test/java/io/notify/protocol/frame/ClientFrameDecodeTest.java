package io.notify.protocol.frame;

import static io.notify.protocol.frame.Frames.U42;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.notify.schemas.validation.FrameSchema;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The gateway's side of the codec: client frames decoded strictly, with frames-v1.schema.json
 * ({@link FrameSchema}) for what the fast path leaves to it. FrameCodecTest (notify-protocol) has the rest.
 */
class ClientFrameDecodeTest {

    private static final FrameSchema SCHEMA = FrameSchema.v1();
    private final FrameCodec codec = FrameCodec.v1();

    @Test
    void frameLevelErrors() {
        assertRejected("", "", null);
        assertRejected("", "   ", null);
        assertRejected("", null, null);
        assertRejected("", "{\"t\":", "malformed JSON");
        assertRejected("", "[1,2]", "must be a JSON object");
        assertRejected("", "\"ping\"", "must be a JSON object");
        assertRejected("", "{\"t\":\"ping\"} {}", "malformed JSON");
        assertRejected("", "{\"t\":\"ping\",\"t\":\"ack\"}", "malformed JSON");
        assertRejected("/t", "{}", "is required");
        assertRejected("/t", "{\"t\":1}", "must be a string");
        assertRejected("/t", "{\"t\":\"welcome\"}", "sent by servers only");
        ProtocolException unknown = assertRejected("/t", "{\"t\":\"zap\"}", "unknown frame type 'zap'");
        assertTrue(unknown.isUnknownType());
    }

    @Test
    void clientFieldErrorsNameTheField() {
        assertRejected("/seq", "{\"t\":\"ack\",\"stream\":\"u:42\"}", "is required by the 'ack' frame");
        assertRejected("/seq", "{\"t\":\"ack\",\"stream\":\"u:42\",\"seq\":0}", null);
        assertRejected("/seq", "{\"t\":\"ack\",\"stream\":\"u:42\",\"seq\":\"5\"}", null);
        assertRejected("/seq", "{\"t\":\"ack\",\"stream\":\"u:42\",\"seq\":9007199254740992}", null);
        assertRejected("/stream", "{\"t\":\"ack\",\"stream\":\"u:a|b\",\"seq\":1}", null);
        assertRejected("/extra", "{\"t\":\"ack\",\"stream\":\"u:42\",\"seq\":1,\"extra\":true}", "is not a field of the 'ack' frame");
        assertRejected("/streams", "{\"t\":\"resume\"}", "is required");
        assertRejected("/streams/0/epoch", "{\"t\":\"resume\",\"streams\":[{\"stream\":\"u:1\",\"epoch\":\"a:b\",\"seq\":1}]}", null);
        assertRejected("/streams/0/seq", "{\"t\":\"resume\",\"streams\":[{\"stream\":\"u:1\",\"epoch\":\"e\"}]}", "is required");
        assertRejected("/x", "{\"t\":\"ping\",\"x\":1}", "is not a field of the 'ping' frame");
        ProtocolException dup = assertRejected("", "{\"t\":\"resume\",\"streams\":[{\"stream\":\"u:1\",\"epoch\":\"e\",\"seq\":1},"
                + "{\"stream\":\"u:1\",\"epoch\":\"e\",\"seq\":2}]}", "u:1 more than once");
        assertFalse(dup.isUnknownType());
    }

    @Test
    void resumeIsBoundedTo100Streams() {
        List<ResumePoint> points = new ArrayList<>();
        for (int i = 0; i < ResumeFrame.MAX_STREAMS; i++) {
            points.add(new ResumePoint(io.notify.protocol.stream.StreamId.forUser("user-" + i), "e", 1));
        }
        ResumeFrame full = new ResumeFrame(points);
        String fullText = codec.encode(full);
        assertTrue(fullText.length() < FrameCodec.MAX_CLIENT_FRAME_CHARS);
        assertEquals(full, codec.decodeClientFrame(fullText, SCHEMA));
        String over = fullText.replace("]}", ",{\"stream\":\"u:extra\",\"epoch\":\"e\",\"seq\":1}]}");
        assertRejected("/streams", over, null);
        points.add(new ResumePoint(U42, "e", 1));
        assertThrows(IllegalArgumentException.class, () -> new ResumeFrame(points));
    }

    @Test
    void pingAndPongDecodeInAnyFormAndOnlyTheirOwnFieldsAreAccepted() {
        assertSame(PongFrame.INSTANCE, codec.decodeClientFrame("{\"t\":\"pong\"}", SCHEMA));
        assertSame(PingFrame.INSTANCE, codec.decodeClientFrame("{\"t\":\"ping\"}", SCHEMA));
        assertEquals(PongFrame.INSTANCE, codec.decodeClientFrame(" { \"t\" : \"pong\" } ", SCHEMA));
        assertRejected("/x", "{\"t\":\"pong\",\"x\":1}", "is not a field");
    }

    @Test
    void everyClientFrameRoundTrips() {
        for (ClientFrame f : Frames.CLIENT) {
            assertEquals(f, codec.decodeClientFrame(codec.encode(f), SCHEMA), f.frameType().wireName());
        }
    }

    @Test
    void tooLongAndTooDeep() {
        String longFrame = "{\"t\":\"ping\",\"pad\":\"" + "x".repeat(FrameCodec.MAX_CLIENT_FRAME_CHARS) + "\"}";
        assertRejected("", longFrame, "chars; at most " + FrameCodec.MAX_CLIENT_FRAME_CHARS);
        String deep = "{\"t\":\"ping\",\"x\":" + "[".repeat(100) + "]".repeat(100) + "}";
        assertRejected("", deep, "nests deeper than 64");
    }

    @Test
    void clientDecoderThrowsNothingButProtocolException() {
        Random random = new Random(42);
        List<String> seeds = new ArrayList<>();
        Frames.SERVER.forEach(f -> seeds.add(codec.encode(f)));
        Frames.CLIENT.forEach(f -> seeds.add(codec.encode(f)));
        String alphabet = "{}[]\",:0123456789-.eE tnulrfasx\\u00e9\uD83D\n";
        for (int i = 0; i < 20_000; i++) {
            String text = TextMutations.mutate(seeds.get(random.nextInt(seeds.size())), random, alphabet, 4);
            try {
                codec.decodeClientFrame(text, SCHEMA);
            } catch (ProtocolException expected) {
                // the only failure allowed
            }
        }
    }

    private ProtocolException assertRejected(String field, String text, String messagePart) {
        ProtocolException e = assertThrows(ProtocolException.class, () -> codec.decodeClientFrame(text, SCHEMA), text);
        assertEquals(field, e.field(), e.getMessage());
        if (messagePart != null) {
            assertTrue(e.getMessage().contains(messagePart), e.getMessage());
        }
        if (!field.isEmpty()) {
            assertTrue(e.getMessage().startsWith(field + ": "), e.getMessage());
        }
        return e;
    }
}
