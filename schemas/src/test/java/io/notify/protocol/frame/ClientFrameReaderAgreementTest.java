package io.notify.protocol.frame;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.Schema;
import io.notify.protocol.NotifyJson;
import io.notify.protocol.stream.StreamId;
import io.notify.schemas.validation.FrameSchema;
import io.notify.schemas.validation.JsonSchemas;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.StringJoiner;
import org.junit.jupiter.api.Test;

/**
 * Holds the gateway's fast client-frame path ({@link ClientFrameReader}) to frames-v1.schema.json:
 * a corpus of valid and invalid client frames, hand-written and mutated at random, goes through
 * both {@link FrameCodec#decodeClientFrame} and the schema path; they must give equal frames or the
 * same error (field and message, hence the same 1002 close reason), and whatever the fast reader
 * accepts the schema validator must accept too.
 */
class ClientFrameReaderAgreementTest {

    private final FrameCodec codec = FrameCodec.v1();
    private final Schema schema = JsonSchemas.load(FrameSchema.RESOURCE);

    private static final String P = "{\"stream\":\"u:42\",\"epoch\":\"k3x9m2p8q7rdw5ta\",\"seq\":17}";

    static List<String> handWritten() {
        List<String> c = new ArrayList<>(List.of(
                // valid, plain
                "{\"t\":\"ping\"}", "{\"t\":\"pong\"}", " { \"t\" : \"ping\" } ", "{\"t\":\"resume\",\"streams\":[]}",
                "{\"t\":\"resume\",\"streams\":[" + P + "]}", "{\"streams\":[" + P + "],\"t\":\"resume\"}",
                "{\"t\":\"resume\",\"streams\":[{\"seq\":1,\"epoch\":\"e\",\"stream\":\"u:a.b_c:d@e-f\"}]}",
                "{\"t\":\"resume\",\"streams\":[" + P + ",{\"stream\":\"u:43\",\"epoch\":\"e\",\"seq\":9007199254740991}]}",
                "{\"t\":\"ack\",\"stream\":\"u:42\",\"seq\":17}", "{\"seq\":1,\"stream\":\"u:42\",\"t\":\"ack\"}",
                "{\"t\":\"ack\",\"stream\":\"u:" + "x".repeat(128) + "\",\"seq\":2147483648}",
                // valid for the schema in forms the reader leaves to it
                "{\"t\":\"ack\",\"stream\":\"u:42\",\"seq\":17.0}", "{\"t\":\"ack\",\"stream\":\"u:42\",\"seq\":1e1}",
                "{\"t\":\"resume\",\"streams\":[{\"stream\":\"u:42\",\"epoch\":\"e\",\"seq\":3.0}]}",
                // invalid
                "", " ", "{", "[]", "null", "1", "\"ping\"", "{}", "{\"t\":null}", "{\"t\":1}", "{\"t\":\"zap\"}",
                "{\"t\":\"welcome\"}", "{\"t\":\"event\"}", "{\"t\":\"reset\"}", "{\"t\":\"ping\",\"t\":\"ping\"}",
                "{\"t\":\"ping\",\"x\":1}", "{\"t\":\"pong\",\"x\":null}", "{\"t\":\"ping\"} x",
                "{\"t\":\"resume\"}", "{\"t\":\"resume\",\"streams\":null}", "{\"t\":\"resume\",\"streams\":{}}",
                "{\"t\":\"resume\",\"streams\":[1]}", "{\"t\":\"resume\",\"streams\":[null]}", "{\"t\":\"resume\",\"streams\":[[]]}",
                "{\"t\":\"resume\",\"streams\":[{}]}", "{\"t\":\"resume\",\"streams\":[],\"x\":1}",
                "{\"t\":\"resume\",\"streams\":[" + P + "," + P + "]}",
                "{\"t\":\"resume\",\"streams\":[{\"stream\":\"u:42\",\"epoch\":\"e\"}]}",
                "{\"t\":\"resume\",\"streams\":[{\"stream\":\"u:42\",\"seq\":1}]}",
                "{\"t\":\"resume\",\"streams\":[{\"epoch\":\"e\",\"seq\":1}]}",
                "{\"t\":\"resume\",\"streams\":[{\"stream\":\"u:42\",\"epoch\":\"e\",\"seq\":1,\"x\":1}]}",
                "{\"t\":\"resume\",\"streams\":[{\"stream\":\"r:42\",\"epoch\":\"e\",\"seq\":1}]}",
                "{\"t\":\"resume\",\"streams\":[{\"stream\":\"u:\",\"epoch\":\"e\",\"seq\":1}]}",
                "{\"t\":\"resume\",\"streams\":[{\"stream\":\"u:42\\n\",\"epoch\":\"e\",\"seq\":1}]}",
                "{\"t\":\"resume\",\"streams\":[{\"stream\":\"u:4é\",\"epoch\":\"e\",\"seq\":1}]}",
                "{\"t\":\"resume\",\"streams\":[{\"stream\":42,\"epoch\":\"e\",\"seq\":1}]}",
                "{\"t\":\"resume\",\"streams\":[{\"stream\":\"u:42\",\"epoch\":\"a:b\",\"seq\":1}]}",
                "{\"t\":\"resume\",\"streams\":[{\"stream\":\"u:42\",\"epoch\":\"\",\"seq\":1}]}",
                "{\"t\":\"resume\",\"streams\":[{\"stream\":\"u:42\",\"epoch\":\"" + "e".repeat(65) + "\",\"seq\":1}]}",
                "{\"t\":\"resume\",\"streams\":[{\"stream\":\"u:42\",\"epoch\":1,\"seq\":1}]}",
                "{\"t\":\"resume\",\"streams\":[{\"stream\":\"u:42\",\"epoch\":\"e\",\"seq\":0}]}",
                "{\"t\":\"resume\",\"streams\":[{\"stream\":\"u:42\",\"epoch\":\"e\",\"seq\":-1}]}",
                "{\"t\":\"resume\",\"streams\":[{\"stream\":\"u:42\",\"epoch\":\"e\",\"seq\":\"1\"}]}",
                "{\"t\":\"resume\",\"streams\":[{\"stream\":\"u:42\",\"epoch\":\"e\",\"seq\":1.5}]}",
                "{\"t\":\"resume\",\"streams\":[{\"stream\":\"u:42\",\"epoch\":\"e\",\"seq\":9007199254740992}]}",
                "{\"t\":\"resume\",\"streams\":[{\"stream\":\"u:42\",\"epoch\":\"e\",\"seq\":99999999999999999999999}]}",
                "{\"t\":\"ack\"}", "{\"t\":\"ack\",\"stream\":\"u:42\"}", "{\"t\":\"ack\",\"seq\":1}",
                "{\"t\":\"ack\",\"stream\":\"u:42\",\"seq\":0}", "{\"t\":\"ack\",\"stream\":\"u:42\",\"seq\":true}",
                "{\"t\":\"ack\",\"stream\":\"u:42\",\"seq\":null}", "{\"t\":\"ack\",\"stream\":null,\"seq\":1}",
                "{\"t\":\"ack\",\"stream\":\"u:" + "x".repeat(129) + "\",\"seq\":1}",
                "{\"t\":\"ack\",\"stream\":\"u:42\",\"seq\":1,\"x\":1}", "{\"t\":\"ack\",\"stream\":\"u:42\",\"x\":1}"));
        c.add(resumeOf(ResumeFrame.MAX_STREAMS));
        c.add(resumeOf(ResumeFrame.MAX_STREAMS + 1));
        return c;
    }

    private static String resumeOf(int n) {
        StringJoiner j = new StringJoiner(",", "{\"t\":\"resume\",\"streams\":[", "]}");
        for (int i = 0; i < n; i++) {
            j.add("{\"stream\":\"u:user-" + i + "\",\"epoch\":\"e\",\"seq\":" + (i + 1) + "}");
        }
        return j.toString();
    }

    @Test
    void theFastPathAndTheSchemaAgreeOnEveryFrameOfTheCorpus() {
        List<String> corpus = new ArrayList<>(handWritten());
        Random random = new Random(7);
        List<String> seeds = new ArrayList<>(corpus.subList(0, 14));
        String alphabet = "{}[]\",:0123456789-.eE tnulrfasxu:@_ké\\";
        for (int i = 0; i < 20_000; i++) {
            corpus.add(TextMutations.mutate(seeds.get(random.nextInt(seeds.size())), random, alphabet, 3));
        }
        int fast = 0;
        int accepted = 0;
        int rejected = 0;
        for (String text : corpus) {
            Object viaFast = outcome(() -> codec.decodeClientFrame(text, FrameSchema.v1()));
            Object viaSchema = outcome(() -> codec.decodeClientFrameBySchema(text, FrameSchema.v1()));
            assertEquals(viaSchema, viaFast, text);
            ClientFrame read = fastRead(text);
            if (read != null) {
                fast++;
                JsonNode node = parsed(text);
                assertEquals(List.of(), schema.validate(node), "the fast path took a frame the schema refuses: " + text);
                assertEquals(viaSchema, read, text);
            }
            if (viaSchema instanceof ClientFrame) {
                accepted++;
            } else {
                rejected++;
            }
        }
        assertTrue(fast > 1_000 && accepted > 1_000 && rejected > 5_000, fast + " fast, " + accepted + " accepted, " + rejected + " rejected");
    }

    @Test
    void plainFramesTakeTheFastPathAndOthersTheSchema() {
        for (String text : handWritten().subList(0, 11)) {
            assertNotNull(fastRead(text), text);
        }
        assertNotNull(fastRead(resumeOf(ResumeFrame.MAX_STREAMS)));
        for (String text : handWritten().subList(11, 14)) {
            assertEquals(null, fastRead(text), text);
            assertTrue(codec.decodeClientFrame(text, FrameSchema.v1()) instanceof ClientFrame, text);
        }
        assertEquals(new AckFrame(StreamId.forUser("42"), 10), codec.decodeClientFrame("{\"t\":\"ack\",\"stream\":\"u:42\",\"seq\":1e1}", FrameSchema.v1()));
    }

    private static ClientFrame fastRead(String text) {
        JsonNode node = parsed(text);
        if (node == null || !node.isObject() || node.get("t") == null || !node.get("t").isTextual()) {
            return null;
        }
        return FrameType.fromWire(node.get("t").textValue())
                .filter(FrameType::sentByClient)
                .map(type -> ClientFrameReader.read(type, node))
                .orElse(null);
    }

    private static JsonNode parsed(String text) {
        try {
            return NotifyJson.mapper().readTree(text);
        } catch (Exception e) {
            return null;
        }
    }

    /** The frame, or the error as "field | message" (what the gateway's 1002 close reason is made of). */
    private static Object outcome(java.util.function.Supplier<ClientFrame> decode) {
        try {
            return decode.get();
        } catch (ProtocolException e) {
            return e.field() + " | " + e.getMessage() + " | " + e.isUnknownType();
        }
    }
}
