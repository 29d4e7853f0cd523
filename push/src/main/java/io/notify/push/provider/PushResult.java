package io.notify.push.provider;

import java.time.Duration;

/**
 * What a provider said to one push, by what the sender does next (docs/push.md, "Outcomes").
 * {@code status} is the provider's HTTP status (0 when none came: a network failure or a timeout);
 * {@code reason} the provider's own words (its error code or body, clipped), for the outcome record.
 */
public sealed interface PushResult {

    int status();

    String reason();

    /** Taken by the provider; {@code providerId} is its message id where it gives one (or null). */
    record Sent(int status, String reason, String providerId) implements PushResult {
    }

    /** The registration is gone for good (Web Push 404/410, FCM UNREGISTERED, APNs 410 / BadDeviceToken): remove it. */
    record Gone(int status, String reason) implements PushResult {
    }

    /** Try again later (429, 5xx, network); {@code retryAfter} is the provider's Retry-After, or null. */
    record Retry(int status, String reason, Duration retryAfter) implements PushResult {
    }

    /** This message cannot be sent to this registration (e.g. a payload too large, bad credentials): the DLQ, with the reason. */
    record Refused(int status, String reason) implements PushResult {
    }
}
