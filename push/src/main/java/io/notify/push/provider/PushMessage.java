package io.notify.push.provider;

import io.notify.protocol.text.Digests;
import java.time.Duration;
import java.util.Objects;

/**
 * What one push carries, the same for every provider (docs/push.md, "What a push carries").
 *
 * <ul>
 *   <li>{@code eventId}, {@code stream}, {@code seq}: the event; the client opens the app at it.</li>
 *   <li>{@code payload}: UTF-8 JSON the device's code receives (Web Push: the decrypted body; FCM: the
 *       {@code data.event} string; APNs: the {@code event} key next to {@code aps}), at most
 *       {@link #MAX_PAYLOAD} bytes: the sender shortens a larger event to its reference.</li>
 *   <li>{@code collapseId}: at most 64 characters of {@code [A-Za-z0-9_-]}, the same for every attempt
 *       of one event (its collapse key, or its id): a repeated push replaces the first one (Web Push
 *       {@code Topic}, hashed to 32 characters; FCM {@code collapse_key} and the notification
 *       {@code tag}; APNs {@code apns-collapse-id}).</li>
 *   <li>{@code ttl}: how long the provider may hold it for an unreachable device (Web Push
 *       {@code TTL}, FCM {@code ttl}, APNs {@code apns-expiration} = now + ttl).</li>
 *   <li>{@code urgency}: Web Push {@code Urgency}; FCM/APNs priority (high → high / 10, else normal / 5).</li>
 *   <li>{@code alert}: a visible title and body, or null for a data-only (background) push.</li>
 * </ul>
 */
public record PushMessage(String eventId, String stream, long seq, byte[] payload, String collapseId, Duration ttl,
                          Urgency urgency, Alert alert) {

    /** The largest payload every provider takes with room for its own framing (Web Push's record is 4,096 bytes). */
    public static final int MAX_PAYLOAD = 3_000;
    /** The longest Web Push {@code Topic}. */
    public static final int MAX_TOPIC = 32;

    public PushMessage {
        Objects.requireNonNull(eventId, "eventId");
        Objects.requireNonNull(stream, "stream");
        Objects.requireNonNull(payload, "payload");
        Objects.requireNonNull(urgency, "urgency");
        if (payload.length > MAX_PAYLOAD) {
            throw new IllegalArgumentException("a push payload is at most " + MAX_PAYLOAD + " bytes, got " + payload.length);
        }
        if (collapseId == null || !collapseId.matches("[A-Za-z0-9_-]{1,64}")) {
            throw new IllegalArgumentException("collapseId must be 1..64 characters of [A-Za-z0-9_-]");
        }
        if (ttl == null || ttl.isNegative()) {
            throw new IllegalArgumentException("ttl must be >= 0");
        }
    }

    /**
     * The Web Push {@code Topic} (RFC 8030 §5.4: at most 32 characters of the URL-safe base64
     * alphabet) of {@link #collapseId}: itself when it is that short, else the first 32 characters of
     * its SHA-256, base64url. FCM's {@code webpush.headers.Topic} is the same.
     */
    public String webPushTopic() {
        return collapseId.length() <= MAX_TOPIC ? collapseId : Digests.sha256Base64Url(collapseId, MAX_TOPIC);
    }

    /** RFC 8030 urgency. */
    public enum Urgency {
        VERY_LOW("very-low"), LOW("low"), NORMAL("normal"), HIGH("high");

        private final String wireName;

        Urgency(String wireName) {
            this.wireName = wireName;
        }

        public String wireName() {
            return wireName;
        }
    }

    /** A visible notification's text. */
    public record Alert(String title, String body) {
    }
}
