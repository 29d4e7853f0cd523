package io.notify.client.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.notify.client.PushAddress;
import io.notify.client.PushConfig;
import io.notify.client.PushProvider;
import io.notify.client.PushRegistration;
import io.notify.protocol.NotifyJson;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The push API's JSON (docs/push.md, "Registering a device") as the SDK writes and reads it: the
 * body of {@code POST /v1/push/registrations} (exactly one of {@code webpush}, {@code fcm},
 * {@code apns}), registrations and listings read leniently (fields the SDK does not use are
 * ignored), the config. Unreadable answers throw {@link IllegalArgumentException}.
 */
final class PushJson {

    private PushJson() {
    }

    /** {@code {"fcm":{"token"}}}, {@code {"apns":{"token","topic","environment"}}} or {@code {"webpush":{"endpoint","expirationTime","keys"}}}. */
    static String body(PushAddress address) {
        ObjectNode body = NotifyJson.mapper().createObjectNode();
        ObjectNode a = body.putObject(address.provider().wireName());
        if (address instanceof PushAddress.Fcm fcm) {
            a.put("token", fcm.token());
        } else if (address instanceof PushAddress.Apns apns) {
            a.put("token", apns.token()).put("topic", apns.topic()).put("environment", apns.environment().wireName());
        } else {
            PushAddress.WebPush web = (PushAddress.WebPush) address;
            a.put("endpoint", web.endpoint());
            if (web.expirationTime() == null) {
                a.putNull("expirationTime");
            } else {
                a.put("expirationTime", web.expirationTime());
            }
            a.putObject("keys").put("p256dh", web.p256dh()).put("auth", web.auth());
        }
        try {
            return NotifyJson.mapper().writeValueAsString(body);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** One registration: the answer to a POST, or an item of a listing. */
    static PushRegistration registration(String body) {
        return registration(InboxJson.parse(body));
    }

    /** {@code {"registrations":[…]}}, oldest first. */
    static List<PushRegistration> registrations(String body) {
        JsonNode list = InboxJson.parse(body).get("registrations");
        if (list == null || !list.isArray()) {
            throw new IllegalArgumentException("'registrations' must be an array");
        }
        List<PushRegistration> out = new ArrayList<>();
        for (JsonNode r : list) {
            out.add(registration(r));
        }
        return List.copyOf(out);
    }

    /** {@code {"webpush":{"applicationServerKey"}}}, {@code webpush} absent when Web Push is off. */
    static PushConfig config(String body) {
        JsonNode key = InboxJson.parse(body).path("webpush").path("applicationServerKey");
        return new PushConfig(key.isTextual() && !key.asText().isEmpty() ? Optional.of(key.asText()) : Optional.empty());
    }

    private static PushRegistration registration(JsonNode r) {
        if (!r.isObject()) {
            throw new IllegalArgumentException("a registration must be an object");
        }
        String id = InboxJson.text(r, "id");
        if (!PushRegistration.ID.matcher(id).matches()) {
            throw new IllegalArgumentException("not a registration id: '" + id + "'");
        }
        return new PushRegistration(id, PushProvider.fromWire(InboxJson.text(r, "provider")),
                Instant.ofEpochMilli(InboxJson.number(r, "createdAt")), optional(r, "endpoint"), optional(r, "topic"),
                optional(r, "environment").map(PushAddress.ApnsEnvironment::fromWire));
    }

    private static Optional<String> optional(JsonNode node, String field) {
        JsonNode v = node.get(field);
        if (v == null || v.isNull()) {
            return Optional.empty();
        }
        if (!v.isTextual()) {
            throw new IllegalArgumentException("'" + field + "' must be a string");
        }
        return Optional.of(v.asText());
    }
}
