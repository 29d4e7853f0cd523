package io.notify.client.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.notify.client.ClientEvent;
import io.notify.client.InboxCounts;
import io.notify.client.InboxPage;
import io.notify.client.NotifyClientException;
import io.notify.protocol.NotifyJson;
import io.notify.protocol.inbox.EventState;
import io.notify.protocol.stream.Position;
import io.notify.protocol.stream.StreamId;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The inbox API's JSON (docs/inbox-openapi.yaml) as the SDK reads and writes it: pages and counts
 * read leniently (fields the SDK does not use are ignored, so the gateway may add some), mark
 * bodies, and problem+json answers turned into {@link NotifyClientException}s. A page's events are
 * read as {@link ClientEvent}s — the fields a client uses — not as the platform's internal event
 * record. Unreadable answers throw {@link IllegalArgumentException}.
 */
final class InboxJson {

    static final String PROBLEM_JSON = "application/problem+json";

    private InboxJson() {
    }

    static JsonNode parse(String body) {
        try {
            JsonNode root = NotifyJson.mapper().readTree(body);
            if (root == null || !root.isObject()) {
                throw new IllegalArgumentException("not a JSON object");
            }
            return root;
        } catch (IOException e) {
            throw new IllegalArgumentException("not JSON: " + e.getMessage(), e);
        }
    }

    static InboxCounts counts(String body) {
        JsonNode root = parse(body);
        return new InboxCounts(number(root, "unread"), number(root, "unseen"), number(root, "version"), head(root));
    }

    static InboxPage page(String body) {
        JsonNode root = parse(body);
        List<InboxPage.Item> items = new ArrayList<>();
        for (JsonNode item : root.path("events")) {
            items.add(new InboxPage.Item(event(item.path("event")), state(text(item, "state"))));
        }
        return new InboxPage(StreamId.parse(text(root, "stream")), head(root), optional(root, "firstSeq"),
                number(root, "unread"), number(root, "unseen"), number(root, "version"), items, optional(root, "next"));
    }

    /** The body of a mark: exactly one of {@code upTo} and {@code ids}, the epoch when known, the device. */
    static String mark(Long upTo, List<String> ids, String epoch, String device) {
        ObjectNode body = NotifyJson.mapper().createObjectNode();
        if (upTo != null) {
            body.put("upTo", upTo);
        } else {
            ArrayNode list = body.putArray("ids");
            ids.forEach(list::add);
        }
        if (epoch != null) {
            body.put("epoch", epoch);
        }
        body.put("device", device);
        try {
            return NotifyJson.mapper().writeValueAsString(body);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The error an answer other than the expected one stands for: its problem's type and detail when it has one. */
    static NotifyClientException problem(String request, int status, Optional<String> contentType, String body) {
        return problem(NotifyClientException.Kind.INBOX, request, status, contentType, body);
    }

    /** {@link #problem(String, int, Optional, String)} for a request of {@code kind} (INBOX, PUSH). */
    static NotifyClientException problem(NotifyClientException.Kind kind, String request, int status, Optional<String> contentType,
                                         String body) {
        String type = null;
        String detail = null;
        if (contentType.map(t -> t.startsWith(PROBLEM_JSON)).orElse(false)) {
            try {
                JsonNode p = parse(body);
                type = p.path("type").isTextual() ? p.get("type").asText() : null;
                detail = p.path("detail").isTextual() ? p.get("detail").asText() : null;
            } catch (IllegalArgumentException e) {
                detail = "an unreadable problem answer";
            }
        }
        return NotifyClientException.answered(kind, request, status, type, detail);
    }

    private static ClientEvent event(JsonNode e) {
        if (!e.isObject()) {
            throw new IllegalArgumentException("an item without its event");
        }
        JsonNode data = e.path("data").isObject() ? e.get("data") : NotifyJson.mapper().createObjectNode();
        Optional<OffsetDateTime> at = e.path("occurredAt").isTextual()
                ? Optional.of(OffsetDateTime.parse(e.get("occurredAt").asText())) : Optional.empty();
        return new ClientEvent(StreamId.parse(text(e, "stream")), Optional.of(Position.of(text(e, "epoch"), number(e, "seq"))),
                text(e, "id"), text(e, "type"), data, at);
    }

    private static EventState state(String wire) {
        for (EventState s : EventState.values()) {
            if (s.wireName().equals(wire)) {
                return s;
            }
        }
        throw new IllegalArgumentException("unknown event state '" + wire + "'");
    }

    private static Optional<Position> head(JsonNode root) {
        JsonNode h = root.get("head");
        return h == null || h.isNull() ? Optional.empty() : Optional.of(Position.of(text(h, "epoch"), number(h, "seq")));
    }

    static String text(JsonNode node, String field) {
        JsonNode v = node.get(field);
        if (v == null || !v.isTextual()) {
            throw new IllegalArgumentException("'" + field + "' must be a string");
        }
        return v.asText();
    }

    static long number(JsonNode node, String field) {
        JsonNode v = node.get(field);
        if (v == null || !v.canConvertToExactIntegral() || !v.canConvertToLong()) {
            throw new IllegalArgumentException("'" + field + "' must be a whole number");
        }
        return v.asLong();
    }

    private static OptionalLong optional(JsonNode node, String field) {
        JsonNode v = node.get(field);
        return v == null || v.isNull() ? OptionalLong.empty() : OptionalLong.of(number(node, field));
    }
}
