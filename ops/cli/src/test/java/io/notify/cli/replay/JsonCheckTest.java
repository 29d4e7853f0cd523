package io.notify.cli.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.notify.protocol.NotifyJson;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** JsonCheck agrees with Jackson (the reference reader of every Notify value) on valid and broken JSON. */
class JsonCheckTest {

    /** One JSON value and nothing after it, every string decoded (so its UTF-8 is checked too). */
    private static boolean jacksonAccepts(byte[] bytes) {
        try (JsonParser p = NotifyJson.mapper().getFactory().createParser(bytes)) {
            int depth = 0;
            JsonToken t = p.nextToken();
            if (t == null) {
                return false;
            }
            do {
                if (t.isStructStart()) {
                    depth++;
                } else if (t.isStructEnd()) {
                    depth--;
                } else if (t == JsonToken.VALUE_STRING || t == JsonToken.FIELD_NAME) {
                    p.getText();
                }
            } while (depth > 0 && (t = p.nextToken()) != null);
            return depth == 0 && p.nextToken() == null;
        } catch (Exception e) {
            return false;
        }
    }

    private static void agree(byte[] bytes) {
        boolean ours = JsonCheck.check(bytes) != JsonCheck.INVALID;
        assertEquals(jacksonAccepts(bytes), ours, () -> new String(bytes, StandardCharsets.UTF_8));
    }

    @Test
    void agreesWithJacksonOnHandPickedCases() {
        String[] cases = {"{}", "[]", "0", "-0", "-0.5e+10", "01", "1.", ".5", "1e", "\"a\"", "true", "nul", "null ", " {\"a\" : [1, 2.5, \"x\", null, false, {}]} ",
                "{\"a\":1,}", "[1,]", "{\"a\"}", "{a:1}", "{\"a\":1}{}", "\"tab\there\"", "\"esc \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\u00e9\"",
                "\"bad \\x\"", "\"\\u12\"", "\"é ü 中 😀\"", "[\"unterminated]", "", "   ", "{\"k\":\"v\"}\n", "[[[[]]]]", "NaN", "Infinity", "+1"};
        for (String c : cases) {
            agree(c.getBytes(StandardCharsets.UTF_8));
        }
    }

    @Test
    void rejectsMalformedUtf8() {
        byte[][] bad = {{'"', (byte) 0xc3, '"'}, {'"', (byte) 0xc0, (byte) 0xaf, '"'}, {'"', (byte) 0xed, (byte) 0xa0, (byte) 0x80, '"'},
                {'"', (byte) 0xf5, (byte) 0x80, (byte) 0x80, (byte) 0x80, '"'}, {'"', (byte) 0x80, '"'}};
        for (byte[] b : bad) {
            assertEquals(JsonCheck.INVALID, JsonCheck.check(b));
        }
    }

    @Test
    void reportsLineBreaksAndDepth() {
        assertEquals(JsonCheck.MULTI_LINE, JsonCheck.check("{\n\"a\": 1\r\n}".getBytes(StandardCharsets.UTF_8)));
        assertEquals(JsonCheck.ONE_LINE, JsonCheck.check("{\"a\":\"x\\ny\"}".getBytes(StandardCharsets.UTF_8)));
        assertEquals(JsonCheck.ONE_LINE, JsonCheck.check(("[".repeat(64) + "]".repeat(64)).getBytes(StandardCharsets.UTF_8)));
        assertEquals(JsonCheck.INVALID, JsonCheck.check(("[".repeat(66) + "]".repeat(66)).getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void agreesWithJacksonOnMutationsOfRealValues() {
        Random random = new Random(7);
        String base = "{\"id\":\"ord-1:shipped\",\"type\":\"order.shipped\",\"to\":{\"users\":[\"42\",\"43\"]},\"class\":\"durable\","
                + "\"data\":{\"n\":-12.5e3,\"ok\":true,\"none\":null,\"s\":\"a\\\"b\\u00e9 ü\"},\"occurredAt\":\"2026-11-29T10:15:30.123+01:00\"}";
        byte[] valid = base.getBytes(StandardCharsets.UTF_8);
        agree(valid);
        byte[] alphabet = "{}[]\":,\\-+.eE0123456789 \ntfnul\u00e9".getBytes(StandardCharsets.UTF_8);
        List<byte[]> mutants = new ArrayList<>();
        for (int n = 0; n < 5000; n++) {
            byte[] m = valid.clone();
            int edits = 1 + random.nextInt(3);
            for (int e = 0; e < edits; e++) {
                m[random.nextInt(m.length)] = random.nextInt(10) == 0 ? (byte) random.nextInt(256) : alphabet[random.nextInt(alphabet.length)];
            }
            mutants.add(m);
        }
        mutants.forEach(JsonCheckTest::agree);
    }
}
