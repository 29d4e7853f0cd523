package io.notify.push.fcm;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.notify.protocol.NotifyJson;
import io.notify.push.provider.PushMessage;
import java.nio.charset.StandardCharsets;
import java.time.Instant;

/**
 * The body of an FCM HTTP v1 {@code messages:send} for one {@link PushMessage}: the event in
 * {@code data} (every value a string, as FCM requires), the alert as {@code notification} when there
 * is one, and per platform the collapse key, the time to live and the priority:
 *
 * <ul>
 *   <li>{@code android}: {@code collapse_key}, {@code ttl} ({@code "<s>s"}), {@code priority} HIGH for
 *       {@code Urgency.HIGH} else NORMAL, and {@code notification.tag} (the collapse id) with an alert;</li>
 *   <li>{@code apns}: the headers FCM passes to APNs, {@code apns-collapse-id}, {@code apns-expiration}
 *       (epoch s; 0 for a ttl of 0: deliver now or never) and {@code apns-priority} 10 for a HIGH
 *       alert else 5 (APNs refuses 10 for a background push);</li>
 *   <li>{@code webpush}: the RFC 8030 headers {@code TTL}, {@code Urgency} and {@code Topic}: the
 *       collapse id when it fits in 32 characters, else the first 32 base64url characters of its SHA-256.</li>
 * </ul>
 *
 * The ttl is clamped to FCM's maximum of {@link #MAX_TTL_SECONDS} s (28 days).
 */
final class FcmRequestBody {

    static final long MAX_TTL_SECONDS = 28L * 24 * 3600;

    private FcmRequestBody() {
    }

    static byte[] bytes(String token, PushMessage m, Instant now) {
        return json(token, m, now).toString().getBytes(StandardCharsets.UTF_8);
    }

    static ObjectNode json(String token, PushMessage m, Instant now) {
        long ttl = Math.min(m.ttl().toSeconds(), MAX_TTL_SECONDS);
        boolean high = m.urgency() == PushMessage.Urgency.HIGH;
        ObjectNode root = NotifyJson.mapper().createObjectNode();
        ObjectNode message = root.putObject("message");
        message.put("token", token);
        ObjectNode data = message.putObject("data");
        data.put("event", new String(m.payload(), StandardCharsets.UTF_8));
        data.put("id", m.eventId());
        data.put("stream", m.stream());
        data.put("seq", Long.toString(m.seq()));
        if (m.alert() != null) {
            putAlert(message.putObject("notification"), m.alert());
        }
        ObjectNode android = message.putObject("android");
        android.put("collapse_key", m.collapseId());
        android.put("ttl", ttl + "s");
        android.put("priority", high ? "HIGH" : "NORMAL");
        if (m.alert() != null) {
            android.putObject("notification").put("tag", m.collapseId());
        }
        ObjectNode apns = message.putObject("apns").putObject("headers");
        apns.put("apns-collapse-id", m.collapseId());
        apns.put("apns-expiration", Long.toString(ttl == 0 ? 0 : now.getEpochSecond() + ttl));
        apns.put("apns-priority", high && m.alert() != null ? "10" : "5");
        ObjectNode webpush = message.putObject("webpush").putObject("headers");
        webpush.put("TTL", Long.toString(ttl));
        webpush.put("Urgency", m.urgency().wireName());
        webpush.put("Topic", m.webPushTopic());
        return root;
    }

    private static void putAlert(ObjectNode node, PushMessage.Alert alert) {
        if (alert.title() != null) {
            node.put("title", alert.title());
        }
        if (alert.body() != null) {
            node.put("body", alert.body());
        }
    }

}
