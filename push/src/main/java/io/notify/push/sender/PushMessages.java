package io.notify.push.sender;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.notify.protocol.NotifyJson;
import io.notify.protocol.inbox.FallbackRecord;
import io.notify.protocol.stream.SequencedEvent;
import io.notify.protocol.text.Digests;
import io.notify.push.provider.PushMessage;
import java.time.Duration;
import java.util.regex.Pattern;

/**
 * What a push of a fallback carries (docs/push.md, "What a push carries"), the same for every
 * provider:
 * <ul>
 *   <li>the payload is the event as the inbox lists it: {@code stream}, {@code epoch}, {@code seq},
 *       {@code id}, {@code type}, {@code class}, {@code data}, {@code occurredAt}; past
 *       {@link PushMessage#MAX_PAYLOAD} bytes, {@code data} is left out and {@code "truncated": true}
 *       says the app should fetch the event from the inbox;</li>
 *   <li>a visible notification when {@code data.title} is a string ({@code data.body} too, if one):
 *       clipped to 200 and 1,000 characters; otherwise a data-only push;</li>
 *   <li>the collapse id is the event's collapse key, else its id, kept as is when it is 1..64 of
 *       {@code [A-Za-z0-9_-]}, else {@code h} and 42 characters of its SHA-256 (base64url);</li>
 *   <li>urgency {@code high} for a visible notification, {@code normal} otherwise; the TTL is the
 *       sender's {@code default-ttl};</li>
 *   <li>for a digest (docs/inbox.md, "Digests") the event is the last folded, the payload adds
 *       {@code "digest": {"key", "count", "firstSeq", "firstId"}}, a visible notification's body ends
 *       with how many more there are ({@code (+8 more)}), and the collapse id is the digest key's, so a
 *       device shows the newest digest of a key in place of the previous one.</li>
 * </ul>
 */
public final class PushMessages {

    private static final Pattern PLAIN = Pattern.compile("^[A-Za-z0-9_-]{1,64}$");
    static final int MAX_TITLE = 200;
    static final int MAX_BODY = 1000;

    private PushMessages() {
    }

    public static PushMessage of(FallbackRecord record, Duration ttl) {
        SequencedEvent e = record.event();
        ObjectNode event = NotifyJson.mapper().createObjectNode();
        event.put("stream", e.stream().value());
        event.put("epoch", e.epoch());
        event.put("seq", e.seq());
        event.put("id", e.id());
        event.put("type", e.type());
        event.put("class", e.eventClass().wireName());
        if (e.data() != null) {
            event.set("data", e.data());
        }
        if (e.occurredAt() != null) {
            event.put("occurredAt", e.occurredAt().toString());
        }
        FallbackRecord.Digested digest = record.digest();
        if (digest != null) {
            event.putObject("digest").put("key", digest.key()).put("count", digest.count()).put("firstSeq", digest.first().seq())
                    .put("firstId", digest.first().id());
        }
        byte[] payload = bytes(event);
        if (payload.length > PushMessage.MAX_PAYLOAD) {
            event.remove("data");
            event.put("truncated", true);
            payload = bytes(event);
        }
        PushMessage.Alert alert = alert(e.data(), digest == null ? 1 : digest.count());
        String collapse = collapseId(digest != null ? "digest:" + digest.key() : e.collapseKey() != null ? e.collapseKey() : e.id());
        return new PushMessage(e.id(), e.stream().value(), e.seq(), payload, collapse, ttl,
                alert != null ? PushMessage.Urgency.HIGH : PushMessage.Urgency.NORMAL, alert);
    }

    /** The visible part of a push standing for {@code count} events (1: one event), from the last one's data. */
    static PushMessage.Alert alert(JsonNode data, long count) {
        if (data == null || !data.path("title").isTextual()) {
            return null;
        }
        String more = count > 1 ? "(+" + (count - 1) + " more)" : null;
        String body = data.path("body").isTextual() ? data.path("body").asText() : null;
        if (more != null) {
            body = body == null ? more : clip(body, MAX_BODY - more.length() - 1) + " " + more;
        }
        return new PushMessage.Alert(clip(data.path("title").asText(), MAX_TITLE), body == null ? null : clip(body, MAX_BODY));
    }

    /** A collapse id every provider takes: the key itself when it is plain and short, else a hash of it. */
    static String collapseId(String key) {
        return PLAIN.matcher(key).matches() ? key : "h" + Digests.sha256Base64Url(key, 42);
    }

    private static String clip(String s, int max) {
        return s.length() <= max ? s : s.substring(0, max - 1) + "…";
    }

    private static byte[] bytes(JsonNode node) {
        try {
            return NotifyJson.mapper().writeValueAsBytes(node);
        } catch (JsonProcessingException ex) {
            throw new IllegalStateException("a tree we built is always writable", ex);
        }
    }
}
