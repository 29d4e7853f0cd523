package io.notify.ingest.idempotency;

import com.fasterxml.jackson.databind.JsonNode;
import io.notify.schemas.NotifyJson;
import io.notify.schemas.event.EventEnvelope;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;

/**
 * SHA-256 of an event in canonical form: defaults applied (by binding to {@link EventEnvelope}),
 * object keys sorted at every depth, timestamps normalised. Two requests that mean the same event
 * get the same digest even if their JSON differs in key order, whitespace or an explicit default.
 */
public final class EventDigest {

    private EventDigest() {
    }

    public static byte[] of(EventEnvelope event) {
        MessageDigest md;
        try {
            md = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required by every JRE", e);
        }
        JsonNode tree = NotifyJson.mapper().valueToTree(event);
        StringBuilder sb = new StringBuilder(256);
        canonical(tree, sb);
        return md.digest(sb.toString().getBytes(StandardCharsets.UTF_8));
    }

    private static void canonical(JsonNode node, StringBuilder out) {
        if (node.isObject()) {
            List<String> names = new ArrayList<>();
            for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
                names.add(it.next());
            }
            Collections.sort(names);
            out.append('{');
            for (int i = 0; i < names.size(); i++) {
                if (i > 0) {
                    out.append(',');
                }
                out.append(quote(names.get(i))).append(':');
                canonical(node.get(names.get(i)), out);
            }
            out.append('}');
        } else if (node.isArray()) {
            out.append('[');
            for (int i = 0; i < node.size(); i++) {
                if (i > 0) {
                    out.append(',');
                }
                canonical(node.get(i), out);
            }
            out.append(']');
        } else if (node.isNumber()) {
            // 1, 1.0 and 1e0 are the same number to a JSON reader.
            out.append(node.decimalValue().stripTrailingZeros().toPlainString());
        } else {
            out.append(node.toString());
        }
    }

    private static String quote(String s) {
        return NotifyJson.mapper().getNodeFactory().textNode(s).toString();
    }
}
