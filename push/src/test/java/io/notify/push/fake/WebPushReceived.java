package io.notify.push.fake;

import java.nio.charset.StandardCharsets;
import java.time.Instant;

/**
 * One push the {@link WebPushFake} accepted: the subscription it went to, its RFC 8030 headers
 * ({@code urgency} and {@code topic} null when absent), the decrypted plaintext, when it came and the
 * message id the fake gave it (the last segment of its {@code Location}). Test code.
 */
public record WebPushReceived(String subscriptionId, long ttlSeconds, String urgency, String topic, byte[] plaintext,
                              Instant receivedAt, String messageId) {

    /** The plaintext as UTF-8. */
    public String text() {
        return new String(plaintext, StandardCharsets.UTF_8);
    }
}
