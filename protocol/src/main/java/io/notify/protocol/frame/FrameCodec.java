package io.notify.protocol.frame;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import io.notify.protocol.NotifyJson;
import java.util.Optional;

/**
 * Encodes frames to JSON text and decodes untrusted text into frames.
 *
 * <p>Guarantees: {@link #encode} writes exactly the JSON of {@code frames-v1.schema.json}, fields
 * in a fixed order, on one line (so it is a valid SSE {@code data:} line). The decoders throw
 * {@link ProtocolException} and nothing else, naming the offending field, and reject text over
 * their length bound before parsing it and nesting beyond {@link NotifyJson#MAX_NESTING_DEPTH}
 * while parsing. {@link #decodeClientFrame} is strict: the frame must satisfy the schema exactly
 * (unknown fields are errors), as the gateway must be with untrusted clients; the schema check
 * itself is passed in ({@link ClientFrameSchema}), so this module needs no JSON-schema validator.
 * {@link #decodeServerFrame} ignores unknown fields so a newer server can add some within
 * {@code notify.v1} without breaking older clients. Thread-safe; share {@link #v1()}.
 */
public final class FrameCodec {

    /** Longest client frame: a full resume frame of 100 streams is about 25 000 chars. */
    public static final int MAX_CLIENT_FRAME_CHARS = 32 * 1024;
    private static final String PING_TEXT = "{\"t\":\"ping\"}";
    private static final String PONG_TEXT = "{\"t\":\"pong\"}";
    /** Longest server frame: event data is at most 64 KiB, plus the frame's own fields. */
    public static final int MAX_SERVER_FRAME_CHARS = 128 * 1024;

    private static final FrameCodec V1 = new FrameCodec();

    private final ObjectWriter writer = NotifyJson.mapper().writerFor(Frame.class);
    private final ObjectReader strictReader = NotifyJson.mapper().reader()
            .with(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES);
    private final ObjectReader tolerantReader = NotifyJson.mapper().reader()
            .without(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .with(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES);

    private FrameCodec() {
    }

    public static FrameCodec v1() {
        return V1;
    }

    /** The frame as one line of JSON text. */
    public String encode(Frame frame) {
        if (frame == null) {
            throw new IllegalArgumentException("frame is required");
        }
        if (frame instanceof WelcomeFrame w) {
            return welcomeText(w); // one per connection, on the connect path: no generic serializer
        }
        try {
            return writer.writeValueAsString(frame);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot encode a " + frame.frameType().wireName() + " frame", e);
        }
    }

    /**
     * A welcome as Jackson writes it (same fields, order and text; FrameCodecTest compares the two).
     * Every string in it is held by its record to characters JSON writes as they are (the protocol,
     * node and connection id and stream id patterns), so nothing needs escaping.
     */
    private static String welcomeText(WelcomeFrame w) {
        StringBuilder sb = new StringBuilder(128 + 24 * w.streams().size());
        sb.append("{\"t\":\"welcome\",\"protocol\":\"").append(w.protocol())
                .append("\",\"nodeId\":\"").append(w.nodeId())
                .append("\",\"connectionId\":\"").append(w.connectionId())
                .append("\",\"streams\":[");
        for (int i = 0; i < w.streams().size(); i++) {
            sb.append(i == 0 ? "\"" : ",\"").append(w.streams().get(i).value()).append('"');
        }
        return sb.append("],\"pingIntervalMs\":").append(w.pingIntervalMs())
                .append(",\"serverTime\":").append(w.serverTime()).append('}').toString();
    }

    /** The welcome through the generic serializer, for the test that holds {@link #welcomeText} to it. */
    String encodeGeneric(Frame frame) {
        try {
            return writer.writeValueAsString(frame);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Reads a frame sent by a client (gateway side): strict, schema-checked. A valid frame in its
     * plain form (what every SDK sends) is checked against the schema's rules by hand
     * ({@code ClientFrameReader}, held to the schema by {@code ClientFrameReaderAgreementTest});
     * anything else goes through the JSON schema itself ({@code schema}: notify-schemas'
     * {@code FrameSchema.v1()}), so an invalid frame is rejected with the schema's error.
     */
    public ClientFrame decodeClientFrame(String text, ClientFrameSchema schema) {
        requireSchema(schema);
        // the two frames every idle connection sends, in their canonical form: no parse needed
        if (PONG_TEXT.equals(text)) {
            return PongFrame.INSTANCE;
        }
        if (PING_TEXT.equals(text)) {
            return PingFrame.INSTANCE;
        }
        try {
            JsonNode node = parse(text, MAX_CLIENT_FRAME_CHARS);
            FrameType type = typeOf(node);
            if (!type.sentByClient()) {
                throw new ProtocolException("/t", "'" + type.wireName() + "' frames are sent by servers only");
            }
            ClientFrame plain = ClientFrameReader.read(type, node);
            if (plain != null) {
                return plain; // the schema's rules, checked by hand (ClientFrameReader); nothing left to validate
            }
            return bySchema(schema, type, node);
        } catch (ProtocolException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new ProtocolException("", "unreadable frame: " + FrameTexts.firstLine(e.getMessage()), false, e);
        }
    }

    /**
     * {@link #decodeClientFrame} without its fast path: every client frame through the JSON schema,
     * then bound by Jackson. Kept for the frames the fast path does not take (they are all invalid or
     * unusual) and for the test that holds both paths to the same answers.
     */
    ClientFrame decodeClientFrameBySchema(String text, ClientFrameSchema schema) {
        requireSchema(schema);
        try {
            JsonNode node = parse(text, MAX_CLIENT_FRAME_CHARS);
            FrameType type = typeOf(node);
            if (!type.sentByClient()) {
                throw new ProtocolException("/t", "'" + type.wireName() + "' frames are sent by servers only");
            }
            return bySchema(schema, type, node);
        } catch (ProtocolException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new ProtocolException("", "unreadable frame: " + FrameTexts.firstLine(e.getMessage()), false, e);
        }
    }

    private static void requireSchema(ClientFrameSchema schema) {
        if (schema == null) {
            throw new IllegalArgumentException("a ClientFrameSchema is required to decode client frames (notify-schemas' FrameSchema.v1())");
        }
    }

    private ClientFrame bySchema(ClientFrameSchema schema, FrameType type, JsonNode node) {
        ClientFrameSchema.Failure failure = schema.firstFailure(node);
        if (failure != null) {
            throw schemaViolation(type, failure);
        }
        return (ClientFrame) bind(strictReader, type, node);
    }

    /** Reads a frame sent by a server (client side): unknown fields are ignored. */
    public ServerFrame decodeServerFrame(String text) {
        try {
            JsonNode node = parse(text, MAX_SERVER_FRAME_CHARS);
            FrameType type = typeOf(node);
            if (!type.sentByServer()) {
                throw new ProtocolException("/t", "'" + type.wireName() + "' frames are sent by clients only");
            }
            return (ServerFrame) bind(tolerantReader, type, node);
        } catch (ProtocolException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new ProtocolException("", "unreadable frame: " + FrameTexts.firstLine(e.getMessage()), false, e);
        }
    }

    /**
     * The SSE {@code id:} of a frame: the position of a durable event; for a reset, the head (the
     * client's new position) or "" (clears {@code Last-Event-ID}) when there is none; empty for
     * every other frame, which then carries no {@code id:} line and leaves the last id as it was.
     */
    public Optional<String> sseId(ServerFrame frame) {
        if (frame instanceof EventFrame e) {
            return e.position().map(p -> p.format());
        }
        if (frame instanceof ResetFrame r) {
            return Optional.of(r.head() == null ? "" : r.head().format());
        }
        return Optional.empty();
    }

    private static JsonNode parse(String text, int maxChars) {
        if (text == null || text.isBlank()) {
            throw new ProtocolException("", "frame is empty; expected a JSON object");
        }
        if (text.length() > maxChars) {
            throw new ProtocolException("", "frame is " + text.length() + " chars; at most " + maxChars);
        }
        JsonNode node;
        try {
            node = NotifyJson.mapper().readTree(text);
        } catch (StreamConstraintsException e) {
            throw new ProtocolException("", "frame nests deeper than " + NotifyJson.MAX_NESTING_DEPTH + " levels", false, e);
        } catch (JsonProcessingException e) {
            throw new ProtocolException("", "malformed JSON: " + FrameTexts.firstLine(e.getOriginalMessage()), false, e);
        }
        if (node == null || !node.isObject()) {
            throw new ProtocolException("", "frame must be a JSON object");
        }
        return node;
    }

    private static FrameType typeOf(JsonNode node) {
        JsonNode t = node.get("t");
        if (t == null) {
            throw new ProtocolException("/t", "is required (the frame type)");
        }
        if (!t.isTextual()) {
            throw new ProtocolException("/t", "must be a string");
        }
        return FrameType.fromWire(t.textValue()).orElseThrow(() -> new ProtocolException("/t",
                "unknown frame type '" + FrameTexts.clip(t.textValue()) + "'", true, null));
    }

    private static Frame bind(ObjectReader reader, FrameType type, JsonNode node) {
        try {
            return reader.forType(type.recordClass()).readValue(node);
        } catch (UnrecognizedPropertyException e) {
            String pointer = FramePointers.of(e.getPath());
            throw new ProtocolException(pointer, "is not a field of the '" + type.wireName() + "' frame", false, e);
        } catch (MismatchedInputException e) {
            String pointer = FramePointers.of(e.getPath());
            String why = e.getOriginalMessage() != null && e.getOriginalMessage().startsWith("Cannot map `null`")
                    ? "is missing or null; the '" + type.wireName() + "' frame requires it"
                    : "invalid '" + type.wireName() + "' frame: " + FramePointers.rootMessage(e);
            throw new ProtocolException(pointer, why, false, e);
        } catch (JsonMappingException e) {
            throw new ProtocolException(FramePointers.of(e.getPath()),
                    "invalid '" + type.wireName() + "' frame: " + FramePointers.rootMessage(e), false, e);
        } catch (java.io.IOException e) {
            throw new ProtocolException("", "invalid '" + type.wireName() + "' frame: " + FrameTexts.firstLine(e.getMessage()), false, e);
        }
    }

    private static ProtocolException schemaViolation(FrameType type, ClientFrameSchema.Failure first) {
        String pointer = first.instanceLocation();
        String message = first.message();
        if (first.property() != null && "required".equals(first.keyword())) {
            pointer = pointer + "/" + FramePointers.escape(first.property());
            message = "is required by the '" + type.wireName() + "' frame";
        } else if (first.property() != null && "additionalProperties".equals(first.keyword())) {
            pointer = pointer + "/" + FramePointers.escape(first.property());
            message = "is not a field of the '" + type.wireName() + "' frame";
        } else if ("false".equals(first.keyword())) {
            message = "is not allowed here";
        }
        return new ProtocolException(pointer, message);
    }
}
