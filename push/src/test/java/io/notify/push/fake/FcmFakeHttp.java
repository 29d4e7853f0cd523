package io.notify.push.fake;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import io.notify.protocol.NotifyJson;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/** Reading and answering the FCM fake's requests; Google's error body shapes. */
final class FcmFakeHttp {

    static final int MAX_BODY = 1 << 20;

    private FcmFakeHttp() {
    }

    static byte[] body(HttpExchange exchange) throws IOException {
        try (InputStream in = exchange.getRequestBody()) {
            byte[] bytes = in.readNBytes(MAX_BODY + 1);
            if (bytes.length > MAX_BODY) {
                throw new IOException("request body over " + MAX_BODY + " bytes");
            }
            return bytes;
        }
    }

    static void answer(HttpExchange exchange, int status, String json) throws IOException {
        byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/json; charset=UTF-8");
        exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
        try (var out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    /** The google.rpc.Status body of the FCM v1 API, with an FcmError detail when {@code errorCode} is given. */
    static String fcmError(int code, String message, String errorCode) {
        ObjectNode root = NotifyJson.mapper().createObjectNode();
        ObjectNode error = root.putObject("error");
        error.put("code", code);
        error.put("message", message);
        error.put("status", statusName(code));
        if (errorCode != null) {
            ArrayNode details = error.putArray("details");
            details.addObject()
                    .put("@type", "type.googleapis.com/google.firebase.fcm.v1.FcmError")
                    .put("errorCode", errorCode);
        }
        return root.toString();
    }

    /** The OAuth 2 token endpoint's error body (RFC 6749 §5.2). */
    static String oauthError(String error, String description) {
        return NotifyJson.mapper().createObjectNode().put("error", error).put("error_description", description).toString();
    }

    static String statusName(int code) {
        return switch (code) {
            case 400 -> "INVALID_ARGUMENT";
            case 401 -> "UNAUTHENTICATED";
            case 403 -> "PERMISSION_DENIED";
            case 404 -> "NOT_FOUND";
            case 429 -> "RESOURCE_EXHAUSTED";
            case 500 -> "INTERNAL";
            case 503 -> "UNAVAILABLE";
            default -> "UNKNOWN";
        };
    }
}
