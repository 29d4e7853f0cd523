package io.notify.gateway.inbox;

import com.fasterxml.jackson.databind.JsonNode;
import io.notify.protocol.NotifyJson;
import io.notify.protocol.inbox.Receipt;
import io.notify.protocol.inbox.ReceiptKind;
import io.notify.protocol.stream.StreamId;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Set;

/**
 * The body of {@code POST /v1/inbox/read|seen|archive}: a JSON object with {@code upTo} (a seq) or
 * {@code ids} (event ids), optionally {@code epoch} and {@code device}, and nothing else; a
 * {@code null} value is an absent field. Read into the {@link Receipt} of the user's own stream,
 * whose constructor checks the values (exactly one of {@code upTo} and {@code ids}, 1..100 valid
 * ids, the epoch and device patterns). Every fault is an {@link IllegalArgumentException} with a
 * message for the user (a 400 {@code invalid-body}).
 */
final class MarkRequest {

    private static final Set<String> FIELDS = Set.of("upTo", "ids", "epoch", "device");

    private MarkRequest() {
    }

    /** The receipt of {@code body} for {@code stream}, taken at {@code at} (epoch ms). */
    static Receipt receipt(StreamId stream, ReceiptKind kind, byte[] body, long at) {
        JsonNode root;
        try {
            root = NotifyJson.mapper().readTree(body);
        } catch (IOException e) {
            throw new IllegalArgumentException("the body is not JSON: " + firstLine(e.getMessage()));
        }
        if (root == null || !root.isObject()) {
            throw new IllegalArgumentException("the body must be a JSON object such as {\"upTo\": 17} or {\"ids\": [\"…\"]}");
        }
        for (Iterator<String> names = root.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!FIELDS.contains(name)) {
                throw new IllegalArgumentException("unknown field '" + (name.length() > 40 ? name.substring(0, 40) + "…" : name)
                        + "': a mark has upTo or ids, and optionally epoch and device");
            }
        }
        return new Receipt(stream, kind, text(root, "epoch"), upTo(root), ids(root), text(root, "device"), at);
    }

    private static Long upTo(JsonNode root) {
        JsonNode n = root.get("upTo");
        if (n == null || n.isNull()) {
            return null;
        }
        if (!n.isIntegralNumber() || !n.canConvertToLong()) {
            throw new IllegalArgumentException("upTo must be a seq (a whole number)");
        }
        return n.asLong();
    }

    private static List<String> ids(JsonNode root) {
        JsonNode n = root.get("ids");
        if (n == null || n.isNull()) {
            return null;
        }
        if (!n.isArray()) {
            throw new IllegalArgumentException("ids must be an array of event ids");
        }
        List<String> ids = new ArrayList<>(n.size());
        for (JsonNode id : n) {
            if (!id.isTextual()) {
                throw new IllegalArgumentException("ids must be an array of event ids (strings)");
            }
            ids.add(id.asText());
        }
        return ids;
    }

    private static String text(JsonNode root, String field) {
        JsonNode n = root.get(field);
        if (n == null || n.isNull()) {
            return null;
        }
        if (!n.isTextual()) {
            throw new IllegalArgumentException(field + " must be a string");
        }
        return n.asText();
    }

    private static String firstLine(String message) {
        if (message == null) {
            return "unreadable";
        }
        int nl = message.indexOf('\n');
        return nl < 0 ? message : message.substring(0, nl);
    }
}
