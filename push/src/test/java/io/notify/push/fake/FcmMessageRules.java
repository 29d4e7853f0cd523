package io.notify.push.fake;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * What FCM's {@code messages:send} checks of a request body before it takes it, as far as the fake
 * goes (the v1 API reference, {@code projects.messages}): only known fields (protobuf JSON refuses
 * unknown names), exactly one target, {@code data} of strings (none reserved, at most 4,096 bytes),
 * the Android ttl and priority, string-valued APNs and Web Push headers. A broken rule is FCM's
 * 400 INVALID_ARGUMENT with a message saying where.
 */
final class FcmMessageRules {

    static final Pattern TTL = Pattern.compile("^\\d+(\\.\\d{1,9})?s$");
    static final int MAX_DATA_BYTES = 4096;

    private static final Set<String> MESSAGE = Set.of("name", "data", "notification", "android", "webpush", "apns",
            "fcm_options", "token", "topic", "condition");
    private static final Set<String> NOTIFICATION = Set.of("title", "body", "image");
    private static final Set<String> ANDROID = Set.of("collapse_key", "priority", "ttl", "restricted_package_name", "data",
            "notification", "fcm_options", "direct_boot_ok");
    private static final Set<String> ANDROID_NOTIFICATION = Set.of("title", "body", "icon", "color", "sound", "tag",
            "click_action", "body_loc_key", "body_loc_args", "title_loc_key", "title_loc_args", "channel_id", "ticker",
            "sticky", "event_time", "local_only", "notification_priority", "default_sound", "default_vibrate_timings",
            "default_light_settings", "vibrate_timings", "visibility", "notification_count", "light_settings", "image");
    private static final Set<String> APNS = Set.of("headers", "payload", "fcm_options", "live_activity_token");
    private static final Set<String> WEBPUSH = Set.of("headers", "data", "notification", "fcm_options");
    private static final Set<String> RESERVED_DATA = Set.of("from", "notification", "message_type");
    private static final Set<String> TEXT = Set.of("title", "body", "tag", "image");
    private static final Pattern TOPIC = Pattern.compile("^[A-Za-z0-9_-]{1,32}$");

    private FcmMessageRules() {
    }

    /** Null when FCM would take {@code root}, else its complaint. */
    static String check(JsonNode root) {
        if (root == null || !root.isObject()) {
            return "Invalid JSON payload received. Expected an object.";
        }
        String unknown = unknown("", root, Set.of("message", "validate_only"));
        if (unknown != null) {
            return unknown;
        }
        JsonNode message = root.get("message");
        if (message == null || !message.isObject()) {
            return "Request contains an invalid argument: message is required.";
        }
        return firstOf(
                unknown("message", message, MESSAGE),
                target(message),
                data(message.get("data")),
                strings("message.notification", message.get("notification"), NOTIFICATION),
                android(message.get("android")),
                apns(message.get("apns")),
                webpush(message.get("webpush")));
    }

    private static String firstOf(String... problems) {
        for (String p : problems) {
            if (p != null) {
                return p;
            }
        }
        return null;
    }

    private static String target(JsonNode message) {
        int targets = 0;
        for (String name : new String[] {"token", "topic", "condition"}) {
            JsonNode t = message.get(name);
            if (t != null) {
                if (!t.isTextual() || t.asText().isEmpty()) {
                    return "Invalid value at 'message." + name + "': a non-empty string is required.";
                }
                targets++;
            }
        }
        return targets == 1 ? null : "Request contains an invalid argument: exactly one of token, topic and condition is required, got " + targets + ".";
    }

    private static String data(JsonNode data) {
        if (data == null) {
            return null;
        }
        if (!data.isObject()) {
            return "Invalid value at 'message.data': an object of strings is expected.";
        }
        int bytes = 0;
        for (Map.Entry<String, JsonNode> e : data.properties()) {
            if (!e.getValue().isTextual()) {
                return "Invalid value at 'message.data[" + e.getKey() + "].value' (TYPE_STRING), " + e.getValue();
            }
            String key = e.getKey().toLowerCase();
            if (RESERVED_DATA.contains(key) || key.startsWith("google") || key.startsWith("gcm")) {
                return "Invalid data payload key: " + e.getKey();
            }
            bytes += e.getKey().getBytes(StandardCharsets.UTF_8).length + e.getValue().asText().getBytes(StandardCharsets.UTF_8).length;
        }
        return bytes > MAX_DATA_BYTES ? "Android message is too big" : null;
    }

    private static String android(JsonNode android) {
        if (android == null) {
            return null;
        }
        String problem = firstOf(unknown("message.android", android, ANDROID),
                strings("message.android.notification", android.get("notification"), ANDROID_NOTIFICATION));
        if (problem != null) {
            return problem;
        }
        JsonNode ttl = android.get("ttl");
        if (ttl != null && !(ttl.isTextual() && TTL.matcher(ttl.asText()).matches())) {
            return "Invalid value at 'message.android.ttl' (type.googleapis.com/google.protobuf.Duration), " + ttl;
        }
        JsonNode priority = android.get("priority");
        if (priority != null && !(priority.asText().equals("NORMAL") || priority.asText().equals("HIGH"))) {
            return "Invalid value at 'message.android.priority' (type.googleapis.com/google.firebase.fcm.v1.AndroidMessagePriority), " + priority;
        }
        JsonNode collapseKey = android.get("collapse_key");
        return collapseKey == null || collapseKey.isTextual() ? null : "Invalid value at 'message.android.collapse_key' (TYPE_STRING)";
    }

    private static String apns(JsonNode apns) {
        if (apns == null) {
            return null;
        }
        String problem = firstOf(unknown("message.apns", apns, APNS), strings("message.apns.headers", apns.get("headers"), null));
        if (problem != null) {
            return problem;
        }
        JsonNode headers = apns.path("headers");
        String priority = headers.path("apns-priority").asText("10");
        if (!priority.equals("10") && !priority.equals("5") && !priority.equals("1")) {
            return "Invalid APNs priority: " + priority;
        }
        return headers.path("apns-expiration").asText("0").matches("\\d+") ? null : "Invalid APNs expiration";
    }

    private static String webpush(JsonNode webpush) {
        if (webpush == null) {
            return null;
        }
        String problem = firstOf(unknown("message.webpush", webpush, WEBPUSH),
                strings("message.webpush.headers", webpush.get("headers"), null));
        if (problem != null) {
            return problem;
        }
        JsonNode headers = webpush.path("headers");
        if (headers.has("TTL") && !headers.get("TTL").asText().matches("\\d+")) {
            return "Invalid Webpush TTL header";
        }
        if (headers.has("Urgency") && !Set.of("very-low", "low", "normal", "high").contains(headers.get("Urgency").asText())) {
            return "Invalid Webpush Urgency header";
        }
        return !headers.has("Topic") || TOPIC.matcher(headers.get("Topic").asText()).matches() ? null : "Invalid Webpush Topic header";
    }

    /**
     * An object of known fields (all of them when {@code known} is null) whose text fields are
     * strings: a header map's every value, a notification's title, body, tag, image.
     */
    private static String strings(String where, JsonNode node, Set<String> known) {
        if (node == null) {
            return null;
        }
        if (!node.isObject()) {
            return "Invalid value at '" + where + "': an object is expected.";
        }
        String unknown = known == null ? null : unknown(where, node, known);
        if (unknown != null) {
            return unknown;
        }
        for (Map.Entry<String, JsonNode> e : node.properties()) {
            boolean text = known == null || TEXT.contains(e.getKey());
            if (text && !e.getValue().isTextual()) {
                return "Invalid value at '" + where + "[" + e.getKey() + "]' (TYPE_STRING), " + e.getValue();
            }
        }
        return null;
    }

    private static String unknown(String where, JsonNode node, Set<String> known) {
        for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
            String name = it.next();
            if (!known.contains(name)) {
                return "Invalid JSON payload received. Unknown name \"" + name + "\"" + (where.isEmpty() ? "" : " at '" + where + "'")
                        + ": Cannot find field.";
            }
        }
        return null;
    }
}
