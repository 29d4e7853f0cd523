package io.notify.gateway.resume;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.notify.protocol.NotifyJson;
import io.notify.protocol.frame.ResetFrame;
import io.notify.protocol.frame.ResetReason;
import io.notify.protocol.stream.Position;
import io.notify.protocol.stream.SequencedEvent;
import io.notify.protocol.stream.StreamId;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;

/**
 * The wire format of the fanout-streams query API (docs/query-api.md) as pure functions: request
 * URIs and bodies, and answers read into {@link FetchResult}s. Every answer that does not match
 * the contract becomes a {@link FetchResult.Failed} naming what was wrong, never an exception.
 */
public final class QueryApiCodec {

    private QueryApiCodec() {
    }

    public static URI eventsUri(URI base, FetchRequest r) {
        String after = r.after() == null ? "after=0" : "after=" + r.after().seq() + "&epoch=" + r.after().epoch();
        return URI.create(base + "/v1/streams/" + r.stream().value() + "/events?" + after + "&limit=" + r.limit());
    }

    public static URI batchUri(URI base) {
        return URI.create(base + "/v1/streams:events");
    }

    public static byte[] batchBody(List<FetchRequest> requests) {
        ObjectNode root = NotifyJson.mapper().createObjectNode();
        ArrayNode list = root.putArray("requests");
        for (FetchRequest r : requests) {
            ObjectNode entry = list.addObject().put("stream", r.stream().value());
            if (r.after() != null) {
                entry.put("epoch", r.after().epoch());
            }
            entry.put("after", r.after() == null ? 0 : r.after().seq()).put("limit", r.limit());
        }
        try {
            return NotifyJson.mapper().writeValueAsBytes(root);
        } catch (Exception e) {
            throw new IllegalStateException("cannot encode a batch request", e);
        }
    }

    /** One single-stream answer (also one entry of a batch answer). */
    public static FetchResult read(StreamId stream, JsonNode node) {
        try {
            if (node == null || !node.isObject()) {
                return new FetchResult.Failed(stream, "answer is not a JSON object");
            }
            if (node.hasNonNull("error")) {
                return new FetchResult.Failed(stream, "query API: " + node.get("error").path("status").asInt()
                        + " " + node.get("error").path("detail").asText(""));
            }
            if (node.hasNonNull("reset")) {
                return new FetchResult.Reset(reset(stream, node.get("reset")));
            }
            JsonNode events = node.get("events");
            if (events == null || !events.isArray()) {
                return new FetchResult.Failed(stream, "answer has neither events nor reset");
            }
            List<SequencedEvent> out = new ArrayList<>(events.size());
            for (JsonNode e : events) {
                SequencedEvent event = NotifyJson.mapper().treeToValue(e, SequencedEvent.class);
                if (!event.stream().equals(stream)) {
                    return new FetchResult.Failed(stream, "answer holds an event of " + event.stream());
                }
                out.add(event);
            }
            JsonNode head = node.get("head");
            Position headPosition = head == null || head.isNull() ? null
                    : new Position(head.path("epoch").asText(), head.path("seq").asLong());
            return new FetchResult.Page(stream, out, node.path("more").asBoolean(false), headPosition);
        } catch (Exception e) {
            return new FetchResult.Failed(stream, "unreadable answer: " + e.getMessage());
        }
    }

    /** A batch answer: one result per request, in request order. */
    public static List<FetchResult> readBatch(List<FetchRequest> requests, JsonNode root) {
        JsonNode results = root == null ? null : root.get("results");
        List<FetchResult> out = new ArrayList<>(requests.size());
        for (int i = 0; i < requests.size(); i++) {
            StreamId stream = requests.get(i).stream();
            if (results == null || !results.isArray() || results.size() != requests.size()) {
                out.add(new FetchResult.Failed(stream, "batch answer does not hold one result per request"));
            } else {
                out.add(read(stream, results.get(i)));
            }
        }
        return out;
    }

    private static ResetFrame reset(StreamId stream, JsonNode r) {
        ResetReason reason = ResetReason.fromWire(r.path("reason").asText());
        if (reason == ResetReason.UNKNOWN_STREAM) {
            return ResetFrame.unknownStream(stream);
        }
        JsonNode head = r.get("head");
        Position position = new Position(head.path("epoch").asText(), head.path("seq").asLong());
        return new ResetFrame(stream, reason, position, r.path("firstSeq").asLong());
    }
}
