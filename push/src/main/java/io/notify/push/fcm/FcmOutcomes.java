package io.notify.push.fcm;

import com.fasterxml.jackson.databind.JsonNode;
import io.notify.protocol.NotifyJson;
import io.notify.protocol.text.Clip;
import io.notify.push.provider.PushResult;
import io.notify.push.provider.RetryAfter;
import java.io.IOException;
import java.net.http.HttpHeaders;
import java.time.Instant;

/**
 * What an FCM HTTP v1 answer means for the sender. FCM's error body is
 * {@code {"error":{"code","message","status","details":[{"@type":"…FcmError","errorCode"}]}}}; the
 * {@code errorCode} decides where there is one, else the HTTP status:
 *
 * <ul>
 *   <li>2xx: {@code Sent}, with the message's {@code name};</li>
 *   <li>UNREGISTERED or 404, SENDER_ID_MISMATCH: {@code Gone} (the token is dead, or belongs to another project);</li>
 *   <li>THIRD_PARTY_AUTH_ERROR (FCM's APNs/Web Push credentials are wrong): {@code Refused};</li>
 *   <li>QUOTA_EXCEEDED or 429, 5xx (INTERNAL, UNAVAILABLE), 408, and a 401 left after the one token
 *       refresh: {@code Retry}, with the {@code Retry-After} when given;</li>
 *   <li>any other 4xx (INVALID_ARGUMENT, PERMISSION_DENIED): {@code Refused}.</li>
 * </ul>
 */
final class FcmOutcomes {

    static final String UNREGISTERED = "UNREGISTERED";
    static final String SENDER_ID_MISMATCH = "SENDER_ID_MISMATCH";
    static final String THIRD_PARTY_AUTH_ERROR = "THIRD_PARTY_AUTH_ERROR";
    static final String QUOTA_EXCEEDED = "QUOTA_EXCEEDED";

    private FcmOutcomes() {
    }

    /** FCM's error, read from an answer's body: its errorCode (or "" if none), status and message. */
    record FcmError(String errorCode, String status, String message) {

        static FcmError of(String body) {
            JsonNode error;
            try {
                error = NotifyJson.mapper().readTree(body == null ? "" : body).path("error");
            } catch (IOException | RuntimeException e) {
                return new FcmError("", "", Clip.clip(body));
            }
            String errorCode = "";
            for (JsonNode detail : error.path("details")) {
                if (detail.path("@type").asText("").endsWith("google.firebase.fcm.v1.FcmError")) {
                    errorCode = detail.path("errorCode").asText("");
                }
            }
            return new FcmError(errorCode, error.path("status").asText(""), error.path("message").asText(""));
        }

        /** Code and message, for {@link PushResult#reason()}. */
        String reason() {
            String code = !errorCode.isEmpty() ? errorCode : status;
            return Clip.clip(code.isEmpty() ? message : message.isEmpty() ? code : code + ": " + message);
        }
    }

    /** Whether a 401 says the access token is no good (so a new one may help), not FCM's own upstream credentials. */
    static boolean staleToken(int status, String body) {
        return status == 401 && !FcmError.of(body).errorCode().equals(THIRD_PARTY_AUTH_ERROR);
    }

    static PushResult of(int status, String body, HttpHeaders headers, Instant now) {
        if (status >= 200 && status < 300) {
            String name = null;
            try {
                name = NotifyJson.mapper().readTree(body).path("name").asText(null);
            } catch (IOException | RuntimeException e) {
                // taken all the same; only its id is unknown
            }
            return new PushResult.Sent(status, "", name);
        }
        FcmError error = FcmError.of(body);
        String code = error.errorCode();
        String reason = error.reason();
        if (code.equals(UNREGISTERED) || code.equals(SENDER_ID_MISMATCH) || status == 404) {
            return new PushResult.Gone(status, reason);
        }
        if (code.equals(THIRD_PARTY_AUTH_ERROR)) {
            return new PushResult.Refused(status, reason);
        }
        if (code.equals(QUOTA_EXCEEDED) || status == 429 || status >= 500 || status == 408) {
            return new PushResult.Retry(status, reason, RetryAfter.of(headers, now));
        }
        if (status == 401) {
            return new PushResult.Retry(status, reason, null);
        }
        return new PushResult.Refused(status, reason);
    }
}
