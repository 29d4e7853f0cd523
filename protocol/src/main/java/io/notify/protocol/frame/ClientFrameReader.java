package io.notify.protocol.frame;

import com.fasterxml.jackson.databind.JsonNode;
import io.notify.protocol.stream.Position;
import io.notify.protocol.stream.StreamId;
import java.util.ArrayList;
import java.util.List;

/**
 * The gateway's fast path for client frames: reads a parsed {@code ping}, {@code pong},
 * {@code resume} or {@code ack} that satisfies {@code frames-v1.schema.json} in its plain form,
 * without the JSON-schema pass and without data binding (together ~90 % of a client frame's
 * decode time).
 *
 * <p>Guarantees: returns a frame only when the schema accepts the node and Jackson's binding would
 * give an equal frame: exactly the frame's fields, strings where the schema wants strings, seqs that
 * are JSON integers in 1..2^53-1 (int or long nodes only), stream ids and epochs checked by the
 * records' own rules (the same character classes and lengths as the schema's patterns,
 * {@code FrameSchemaAgreementTest}). Returns null for everything else, including frames the schema
 * would accept in a form this reader does not take (a seq written {@code 17.0}, say): the caller
 * then decodes through the schema, so answers, errors included, stay the schema's
 * ({@code ClientFrameReaderAgreementTest}). Stateless.
 */
final class ClientFrameReader {

    private ClientFrameReader() {
    }

    /** The frame, or null when the schema path must decide. {@code node} is an object with a textual "t" of {@code type}. */
    static ClientFrame read(FrameType type, JsonNode node) {
        try {
            return switch (type) {
                case PING -> node.size() == 1 ? PingFrame.INSTANCE : null;
                case PONG -> node.size() == 1 ? PongFrame.INSTANCE : null;
                case ACK -> ack(node);
                case RESUME -> resume(node);
                default -> null;
            };
        } catch (IllegalArgumentException e) {
            return null; // a record's rule refused it: the schema path gives the error
        }
    }

    private static AckFrame ack(JsonNode node) {
        if (node.size() != 3) {
            return null;
        }
        StreamId stream = stream(node.get("stream"));
        long seq = seq(node.get("seq"));
        return stream == null || seq == 0 ? null : new AckFrame(stream, seq);
    }

    private static ResumeFrame resume(JsonNode node) {
        JsonNode streams = node.get("streams");
        if (node.size() != 2 || streams == null || !streams.isArray() || streams.size() > ResumeFrame.MAX_STREAMS) {
            return null;
        }
        if (streams.isEmpty()) {
            return ResumeFrame.live();
        }
        List<ResumePoint> points = new ArrayList<>(streams.size());
        for (JsonNode p : streams) {
            if (!p.isObject() || p.size() != 3) {
                return null;
            }
            StreamId stream = stream(p.get("stream"));
            JsonNode epoch = p.get("epoch");
            long seq = seq(p.get("seq"));
            if (stream == null || epoch == null || !epoch.isTextual() || seq == 0) {
                return null;
            }
            points.add(new ResumePoint(stream, epoch.textValue(), seq)); // checks the epoch as the schema's pattern does
        }
        return new ResumeFrame(points); // refuses a stream named twice, as binding does
    }

    private static StreamId stream(JsonNode n) {
        return n != null && n.isTextual() ? new StreamId(n.textValue()) : null;
    }

    /** A seq the schema accepts, or 0 (never valid) for anything else. */
    private static long seq(JsonNode n) {
        if (n == null || !(n.isInt() || n.isLong())) {
            return 0;
        }
        long v = n.longValue();
        return v >= 1 && v <= Position.MAX_SEQ ? v : 0;
    }
}
