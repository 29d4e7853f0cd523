package io.notify.schemas.validation;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import io.notify.protocol.NotifyJson;
import io.notify.protocol.event.EventEnvelope;
import io.notify.protocol.event.EventIds;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Validates documents against the v1 event schema and binds them to {@link EventEnvelope}.
 * Every violation names the JSON pointer of the bad field and why, so producers can fix their
 * payloads from the error alone. Thread-safe; build once ({@link #v1()}) and share.
 */
public final class EventValidator {

    public static final String SCHEMA_RESOURCE = "/io/notify/schemas/event-v1.schema.json";
    /**
     * Record header set by the producers that validate every event against v1 before writing it
     * (ingest, {@code NotifyPublisher}); value {@value #VALIDATED_VALUE}. fanout-streams then binds
     * the record without a second schema pass ({@link #bind}), which was ~5% of its CPU.
     */
    public static final String VALIDATED_HEADER = "notify.validated";
    public static final String VALIDATED_VALUE = "event-v1";
    private static final EventValidator V1 = new EventValidator(JsonSchemas.load(SCHEMA_RESOURCE));
    /** Out-of-range numbers named in one answer; a document full of them needs no longer list. */
    static final int MAX_NUMBER_VIOLATIONS = 10;

    private static final ObjectReader ENVELOPE = NotifyJson.mapper().readerFor(EventEnvelope.class);

    private final Schema schema;

    private EventValidator(Schema schema) {
        this.schema = schema;
    }

    public static EventValidator v1() {
        return V1;
    }

    /** An event bound and written once: the envelope, and its JSON (the {@code notify.events} record value). */
    public record Encoded(EventEnvelope event, byte[] json) {
    }

    /** Every violation of the document; empty when it is a valid v1 event. */
    public List<Violation> validate(JsonNode document) {
        List<Violation> out = schemaViolations(document);
        JsonNode data = document.get("data");
        if (out.isEmpty() && data != null && data.isObject()) {
            int size = serializedSize(data);
            if (size > EventEnvelope.MAX_DATA_BYTES) {
                out.add(tooLarge(size));
            }
        }
        return out;
    }

    /**
     * Validates, binds and writes the event, serializing {@code data} once: its 64 KiB bound is
     * measured on the written value (its length, less that of the same envelope with an empty
     * {@code data}, plus the two bytes of {@code {}}), where {@link #validate} writes {@code data}
     * once to measure it and the caller writes it again as the record. Same violations as
     * {@link #toEnvelope}; an absent {@code id} is generated.
     *
     * @throws InvalidEventException with every violation when the document is not a valid event
     */
    public Encoded encode(JsonNode document) {
        List<Violation> violations = schemaViolations(document);
        if (!violations.isEmpty()) {
            throw new InvalidEventException(violations);
        }
        EventEnvelope event = bindValid((ObjectNode) document);
        byte[] json = write(event);
        int dataBytes = json.length - write(new EventEnvelope(event.id(), event.type(), event.to(), event.eventClass(),
                null, event.occurredAt(), event.collapseKey(), event.source())).length + 2;
        if (dataBytes > EventEnvelope.MAX_DATA_BYTES) {
            throw new InvalidEventException(List.of(tooLarge(dataBytes)));
        }
        return new Encoded(event, json);
    }

    private List<Violation> schemaViolations(JsonNode document) {
        List<Violation> out = new ArrayList<>();
        // first, and alone: the schema validator itself fails on an infinite number (its enum check
        // turns every number into a BigDecimal), so such a document is refused before it runs
        outOfRangeNumbers(document, "", out);
        if (!out.isEmpty()) {
            return out;
        }
        for (Error e : schema.validate(document)) {
            out.add(toViolation(e, "v1 envelope"));
        }
        return out;
    }

    /**
     * Adds a violation for every number (at most {@link #MAX_NUMBER_VIOLATIONS}) that does not fit a
     * finite double: {@code 1e999} parses as Infinity, which JSON cannot write back (Jackson would
     * send the string {@code "Infinity"}) and no client can read as a number. Larger integers that do
     * fit (below ~1.8e308) are valid JSON and pass unchanged.
     */
    static void outOfRangeNumbers(JsonNode node, String pointer, List<Violation> out) {
        if (node.isNumber()) {
            if (!Double.isFinite(node.doubleValue()) && out.size() < MAX_NUMBER_VIOLATIONS) {
                out.add(new Violation(pointer, "is a number out of the range of a double (at most ~1.8e308 in magnitude)",
                        Violation.NUMBER_RANGE));
            }
        } else if (node.isObject()) {
            for (var field : node.properties()) {
                outOfRangeNumbers(field.getValue(), pointer + "/" + escape(field.getKey()), out);
            }
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                outOfRangeNumbers(node.get(i), pointer + "/" + i, out);
            }
        }
    }

    private static Violation tooLarge(int size) {
        return new Violation("/data", "is " + size + " bytes serialized; at most "
                + EventEnvelope.MAX_DATA_BYTES + " bytes are allowed", Violation.MAX_BYTES);
    }

    /**
     * Validates and binds; an absent {@code id} is generated.
     *
     * @throws InvalidEventException with every violation when the document is not a valid event
     */
    public EventEnvelope toEnvelope(JsonNode document) {
        List<Violation> violations = validate(document);
        if (!violations.isEmpty()) {
            throw new InvalidEventException(violations);
        }
        return bindValid((ObjectNode) document);
    }

    /**
     * Binds a document that was already validated at the edge (it carries {@link #VALIDATED_HEADER}):
     * no schema pass, but the envelope's constructor still enforces every rule a record holds
     * (ids, type, recipients, class), and unknown fields or an impossible date still fail. What
     * only the schema pass checks (the 64 KiB bound of {@code data}, string lengths of free-form
     * fields) is then the edge's word; an absent {@code id} is generated.
     *
     * @throws InvalidEventException when it does not bind
     */
    public EventEnvelope bind(ObjectNode doc) {
        List<Violation> numbers = new ArrayList<>();
        outOfRangeNumbers(doc, "", numbers);
        if (!numbers.isEmpty()) {
            throw new InvalidEventException(numbers);
        }
        return bindValid(doc);
    }

    /**
     * {@link #bind} straight from the bytes, without a tree of the whole document first: the path of
     * nearly every record fanout-streams reads (a third of its intake's CPU was the tree and the walk
     * over it). Returns null whenever this path cannot decide alone — the bytes do not bind (no
     * {@code id}, a broken rule, bad JSON) or {@code data} holds a number out of a double's range —
     * and the caller then takes {@link #readTree} and {@link #bind}, whose errors name the pointer.
     * The other fields are typed (strings, string lists, an enum, a date), so {@code data} is the only
     * place a number can hide; an envelope returned here is the one {@link #bind} returns.
     */
    public static EventEnvelope bindIfClean(byte[] json) {
        EventEnvelope event;
        try {
            event = ENVELOPE.readValue(json);
        } catch (IOException | RuntimeException e) {
            return null;
        }
        if (event == null) {
            return null;
        }
        List<Violation> numbers = new ArrayList<>(0);
        outOfRangeNumbers(event.data(), "/data", numbers);
        return numbers.isEmpty() ? event : null;
    }

    /** Binds a document whose schema and numbers were checked. */
    private EventEnvelope bindValid(ObjectNode doc) {
        try {
            EventEnvelope parsed = NotifyJson.mapper().treeToValue(
                    doc.has("id") ? doc : doc.deepCopy().put("id", EventIds.generate()), EventEnvelope.class);
            return parsed;
        } catch (JsonProcessingException | IllegalArgumentException e) {
            // The schema accepted it but binding did not (e.g. an impossible date): still the producer's fault.
            throw new InvalidEventException(List.of(new Violation(pointerOf(e), rootMessage(e))));
        }
    }

    /** Parses JSON text and validates it; syntax errors become a violation at pointer "". */
    public EventEnvelope parse(byte[] json) {
        return toEnvelope(readTree(json));
    }

    /** Reads untrusted JSON text into a tree, turning syntax errors into an {@link InvalidEventException}. */
    public static JsonNode readTree(byte[] json) {
        try {
            JsonNode node = NotifyJson.mapper().readTree(json);
            if (node == null || node.isMissingNode()) {
                throw new InvalidEventException(List.of(new Violation("", "body is empty; expected a JSON object", Violation.SYNTAX)));
            }
            return node;
        } catch (IOException e) {
            throw new InvalidEventException(List.of(new Violation("", "malformed JSON: " + firstLine(e.getMessage()),
                    Violation.SYNTAX)));
        }
    }

    static Violation toViolation(Error e, String what) {
        String pointer = e.getInstanceLocation() == null ? "" : e.getInstanceLocation().toString();
        if (e.getProperty() != null && ("required".equals(e.getKeyword()) || "additionalProperties".equals(e.getKeyword()))) {
            pointer = pointer + "/" + escape(e.getProperty());
        }
        String message = e.getMessage();
        if ("additionalProperties".equals(e.getKeyword())) {
            message = "is not a field of the " + what;
        } else if ("required".equals(e.getKeyword())) {
            message = "is required";
        }
        return new Violation(pointer, message, e.getKeyword() == null ? "invalid" : e.getKeyword());
    }

    private static String escape(String token) {
        return token.replace("~", "~0").replace("/", "~1");
    }

    private static int serializedSize(JsonNode node) {
        return write(node).length;
    }

    private static byte[] write(Object value) {
        try {
            return NotifyJson.mapper().writeValueAsBytes(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot serialize a parsed tree", e);
        }
    }

    static String pointerOf(Exception e) {
        if (e instanceof JacksonException je && je.getCause() == null) {
            return "";
        }
        if (e instanceof com.fasterxml.jackson.databind.JsonMappingException jme && !jme.getPath().isEmpty()) {
            StringBuilder sb = new StringBuilder();
            for (var ref : jme.getPath()) {
                sb.append('/').append(ref.getFieldName() != null ? escape(ref.getFieldName()) : ref.getIndex());
            }
            return sb.toString();
        }
        return "";
    }

    static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null) {
            t = t.getCause();
        }
        return firstLine(t.getMessage());
    }

    private static String firstLine(String s) {
        if (s == null) {
            return "unreadable";
        }
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }
}
