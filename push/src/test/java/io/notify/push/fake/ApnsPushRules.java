package io.notify.push.fake;

import com.fasterxml.jackson.databind.JsonNode;
import io.notify.protocol.NotifyJson;
import io.undertow.util.HeaderMap;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * What APNs checks of a push's headers and payload once the device token and topic are known, with
 * Apple's reasons (the APNs reference, "Handling notification responses from APNs"):
 * {@code apns-push-type} (InvalidPushType), {@code apns-priority} 1, 5 or 10, and only 5 for
 * background (BadPriority), {@code apns-expiration} (BadExpirationDate), {@code apns-collapse-id} up
 * to 64 bytes (BadCollapseId), {@code apns-id} a lowercase UUID (BadMessageId), the payload at most
 * 4,096 bytes (413 PayloadTooLarge) and a JSON object with {@code aps} (PayloadEmpty). Stricter than
 * Apple, which would take and then drop them: a background push must carry
 * {@code content-available: 1} and no alert, an alert push an {@code aps.alert} (InvalidPushType).
 */
final class ApnsPushRules {

    static final int MAX_PAYLOAD = 4096;
    static final Set<String> PUSH_TYPES = Set.of("alert", "background", "voip", "complication", "fileprovider", "mdm",
            "liveactivity", "location", "pushtotalk", "widgets", "controls");
    private static final Pattern UUID = Pattern.compile("^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$");

    /** Status and reason of a refusal. */
    record Refusal(int status, String reason) {
    }

    private ApnsPushRules() {
    }

    /** Null when APNs would take the push, else why not. */
    static Refusal check(HeaderMap headers, byte[] payload) {
        String pushType = headers.getFirst("apns-push-type");
        if (pushType == null || !PUSH_TYPES.contains(pushType)) {
            return new Refusal(400, "InvalidPushType");
        }
        String priority = headers.getFirst("apns-priority");
        if (priority != null && !Set.of("1", "5", "10").contains(priority)) {
            return new Refusal(400, "BadPriority");
        }
        if (pushType.equals("background") && !"5".equals(priority)) {
            return new Refusal(400, "BadPriority");
        }
        String expiration = headers.getFirst("apns-expiration");
        if (expiration != null && !expiration.matches("\\d{1,12}")) {
            return new Refusal(400, "BadExpirationDate");
        }
        String collapseId = headers.getFirst("apns-collapse-id");
        if (collapseId != null && collapseId.getBytes(StandardCharsets.UTF_8).length > 64) {
            return new Refusal(400, "BadCollapseId");
        }
        String apnsId = headers.getFirst("apns-id");
        if (apnsId != null && !UUID.matcher(apnsId).matches()) {
            return new Refusal(400, "BadMessageId");
        }
        if (payload.length > MAX_PAYLOAD) {
            return new Refusal(413, "PayloadTooLarge");
        }
        JsonNode root = json(payload);
        if (root == null || !root.isObject() || !root.path("aps").isObject()) {
            return new Refusal(400, "PayloadEmpty");
        }
        JsonNode aps = root.get("aps");
        if (pushType.equals("background")
                && (aps.path("content-available").asInt(0) != 1 || aps.has("alert") || aps.has("sound") || aps.has("badge"))) {
            return new Refusal(400, "InvalidPushType");
        }
        if (pushType.equals("alert") && !aps.has("alert")) {
            return new Refusal(400, "InvalidPushType");
        }
        return null;
    }

    static JsonNode json(byte[] payload) {
        try {
            return payload.length == 0 ? null : NotifyJson.mapper().readTree(payload);
        } catch (IOException e) {
            return null;
        }
    }
}
