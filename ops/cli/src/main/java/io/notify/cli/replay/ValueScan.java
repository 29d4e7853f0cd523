package io.notify.cli.replay;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.notify.protocol.NotifyJson;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One pass of a streaming JSON parser over a record value: checks that the bytes are exactly one
 * well-formed JSON value and picks out the fields at the wanted paths ({@code id}, {@code to.users},
 * {@code event.seq}; at most two levels). No tree and no typed record are built, because this runs
 * for every record of a replay and the typed readers (schema validation included) cost several
 * times more than the fetch. Readers of Notify topics ignore unknown fields; so does this.
 *
 * <p>Scalars are kept as their JSON text, arrays as lists (of scalars' text and objects' original
 * JSON text, such as a fallback record's {@code devices}), objects (such as {@code data}) as their
 * original JSON text. JSON {@code null} counts as absent.
 */
final class ValueScan {

    /** A set of wanted paths, split once into the paths and their first segments. */
    static final class Paths {
        static final Paths NONE = new Paths(Set.of());

        final Set<String> paths;
        final Set<String> parents = new HashSet<>();

        Paths(Set<String> paths) {
            this.paths = Set.copyOf(paths);
            for (String p : paths) {
                int dot = p.indexOf('.');
                if (dot > 0) {
                    parents.add(p.substring(0, dot));
                }
            }
        }
    }

    private static final JsonFactory FACTORY = NotifyJson.mapper().getFactory();
    private static final ValueScan ABSENT = new ValueScan(null, false, Map.of());

    private final byte[] bytes;
    private final boolean json;
    private final Map<String, Object> fields;
    /** -1 not known yet, else 0/1. */
    private int lineBreak = -1;

    private ValueScan(byte[] bytes, boolean json, Map<String, Object> fields) {
        this.bytes = bytes;
        this.json = json;
        this.fields = fields;
    }

    static ValueScan of(byte[] value, Paths wanted) {
        if (value == null) {
            return ABSENT;
        }
        if (wanted.paths.isEmpty()) {
            int check = JsonCheck.check(value); // no field wanted: a plain check is several times cheaper than a parser
            ValueScan v = new ValueScan(value, check != JsonCheck.INVALID, Map.of());
            v.lineBreak = check == JsonCheck.MULTI_LINE ? 1 : 0;
            return v;
        }
        Map<String, Object> fields = new HashMap<>(8);
        try (JsonParser p = FACTORY.createParser(value)) {
            JsonToken t = p.nextToken();
            if (t == JsonToken.START_OBJECT) {
                object(p, value, null, wanted, fields);
            } else if (t != null) {
                p.skipChildren();
            }
            if (t == null || p.nextToken() != null) {
                return new ValueScan(value, false, Map.of());
            }
        } catch (IOException | RuntimeException e) {
            return new ValueScan(value, false, Map.of());
        }
        return new ValueScan(value, true, fields);
    }

    private static void object(JsonParser p, byte[] src, String parent, Paths wanted, Map<String, Object> fields)
            throws IOException {
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            String path = parent == null ? name : parent + '.' + name;
            JsonToken v = p.nextToken();
            if (wanted.paths.contains(path)) {
                store(p, v, src, path, fields);
            } else if (v == JsonToken.START_OBJECT && parent == null && wanted.parents.contains(name)) {
                object(p, src, name, wanted, fields);
            } else {
                p.skipChildren();
            }
        }
    }

    private static void store(JsonParser p, JsonToken v, byte[] src, String path, Map<String, Object> fields)
            throws IOException {
        if (v == JsonToken.START_ARRAY) {
            List<String> items = new ArrayList<>();
            JsonToken t;
            while ((t = p.nextToken()) != JsonToken.END_ARRAY) {
                if (t.isScalarValue() && t != JsonToken.VALUE_NULL) {
                    items.add(p.getText());
                } else if (t == JsonToken.START_OBJECT) {
                    items.add(objectText(p, src));
                } else {
                    p.skipChildren();
                }
            }
            fields.put(path, items);
        } else if (v == JsonToken.START_OBJECT) {
            fields.put(path, objectText(p, src));
        } else if (v != JsonToken.VALUE_NULL) {
            fields.put(path, p.getText());
        }
    }

    /** The original JSON text of the object whose start the parser is on; leaves the parser on its end. */
    private static String objectText(JsonParser p, byte[] src) throws IOException {
        int start = (int) p.currentTokenLocation().getByteOffset();
        p.skipChildren();
        int end = (int) p.currentLocation().getByteOffset();
        return new String(src, start, end - start, StandardCharsets.UTF_8);
    }

    /** The value bytes, or null for a tombstone. */
    byte[] bytes() {
        return bytes;
    }

    /** True when the value is exactly one well-formed JSON value. */
    boolean isJson() {
        return json;
    }

    /** The JSON text of the scalar or object at {@code path}, or null when absent or not wanted. */
    String text(String path) {
        Object v = fields.get(path);
        return v instanceof String s ? s : null;
    }

    /** The scalars of the array at {@code path}; empty when absent. */
    @SuppressWarnings("unchecked")
    List<String> list(String path) {
        Object v = fields.get(path);
        return v instanceof List<?> l ? (List<String>) l : List.of();
    }

    /** True when the bytes hold CR or LF (JSON whitespace), which a JSON Lines record must not. */
    boolean hasLineBreak() {
        if (lineBreak < 0) {
            lineBreak = 0;
            for (byte b : bytes) {
                if (b == '\n' || b == '\r') {
                    lineBreak = 1;
                    break;
                }
            }
        }
        return lineBreak == 1;
    }
}
