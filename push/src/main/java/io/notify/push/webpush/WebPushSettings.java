package io.notify.push.webpush;

import io.notify.protocol.text.Clip;
import java.time.Duration;

/**
 * What the Web Push sender needs, validated here so a bad value fails at startup with the setting's name.
 *
 * @param subject                the VAPID {@code sub}: a {@code mailto:} or {@code https:} URI a push
 *                               service can reach the operator at (RFC 8292 §2.1)
 * @param keys                   the VAPID key pair; subscriptions are bound to its public key
 * @param requestTimeout         per push request, connect to response (default {@value #DEFAULT_TIMEOUT_SECONDS} s;
 *                               {@code (0, 5 min]}); past it the push is a {@code Retry}
 * @param allowInsecureEndpoints whether {@code http} endpoints are sent to (a local push service in
 *                               development and tests only; default false: they are refused)
 */
public record WebPushSettings(String subject, VapidKeys keys, Duration requestTimeout, boolean allowInsecureEndpoints) {

    public static final long DEFAULT_TIMEOUT_SECONDS = 10;
    public static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(DEFAULT_TIMEOUT_SECONDS);
    public static final Duration MAX_REQUEST_TIMEOUT = Duration.ofMinutes(5);

    public WebPushSettings {
        if (subject == null || !(subject.startsWith("mailto:") || subject.startsWith("https:"))
                || subject.substring(subject.indexOf(':') + 1).isBlank() || subject.length() > 512) {
            throw new IllegalArgumentException("webpush.subject must be a mailto: or https: URI of at most 512 characters, got '"
                    + Clip.clip(subject) + "'");
        }
        if (keys == null) {
            throw new IllegalArgumentException("webpush.keys (the VAPID key pair) is required");
        }
        if (requestTimeout == null || requestTimeout.isNegative() || requestTimeout.isZero()
                || requestTimeout.compareTo(MAX_REQUEST_TIMEOUT) > 0) {
            throw new IllegalArgumentException("webpush.request-timeout must be > 0 and <= " + MAX_REQUEST_TIMEOUT
                    + ", got " + requestTimeout);
        }
    }

    /** Settings with the default request timeout and secure endpoints only. */
    public WebPushSettings(String subject, VapidKeys keys) {
        this(subject, keys, DEFAULT_REQUEST_TIMEOUT, false);
    }
}
