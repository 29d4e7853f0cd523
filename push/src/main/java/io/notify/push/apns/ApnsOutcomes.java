package io.notify.push.apns;

import io.notify.protocol.NotifyJson;
import io.notify.protocol.text.Clip;
import io.notify.push.provider.PushResult;
import io.notify.push.provider.RetryAfter;
import java.io.IOException;
import java.net.http.HttpHeaders;
import java.time.Instant;
import java.util.Set;

/**
 * What an APNs answer means for the sender. APNs says why in a JSON body {@code {"reason": …}}
 * (410 adds {@code timestamp}):
 *
 * <ul>
 *   <li>200: {@code Sent}, with the {@code apns-id} APNs answered;</li>
 *   <li>410 (Unregistered, ExpiredToken), 400 BadDeviceToken or DeviceTokenNotForTopic: {@code Gone};</li>
 *   <li>429 (TooManyRequests, TooManyProviderTokenUpdates), 5xx (InternalServerError,
 *       ServiceUnavailable, Shutdown), and an ExpiredProviderToken left after the one re-signing:
 *       {@code Retry}, with the {@code Retry-After} when given;</li>
 *   <li>413 PayloadTooLarge, other 403s (InvalidProviderToken, TopicDisallowed…), other 4xx: {@code Refused}.</li>
 * </ul>
 */
final class ApnsOutcomes {

    static final String EXPIRED_PROVIDER_TOKEN = "ExpiredProviderToken";
    private static final Set<String> GONE_REASONS = Set.of("BadDeviceToken", "DeviceTokenNotForTopic", "Unregistered", "ExpiredToken");

    private ApnsOutcomes() {
    }

    /** APNs' {@code reason}, or "" when the body has none. */
    static String reason(String body) {
        if (body == null || body.isBlank()) {
            return "";
        }
        try {
            return NotifyJson.mapper().readTree(body).path("reason").asText("");
        } catch (IOException | RuntimeException e) {
            return Clip.clip(body);
        }
    }

    static PushResult of(int status, String body, HttpHeaders headers, String sentApnsId, Instant now) {
        if (status == 200) {
            return new PushResult.Sent(status, "", headers.firstValue("apns-id").orElse(sentApnsId));
        }
        String reason = Clip.clip(reason(body));
        if (status == 410 || (status == 400 && GONE_REASONS.contains(reason))) {
            return new PushResult.Gone(status, reason);
        }
        if (status == 413 || reason.equals("PayloadTooLarge")) {
            return new PushResult.Refused(status, reason);
        }
        if (status == 429 || status >= 500 || (status == 403 && reason.equals(EXPIRED_PROVIDER_TOKEN))) {
            return new PushResult.Retry(status, reason, RetryAfter.of(headers, now));
        }
        return new PushResult.Refused(status, reason);
    }
}
