package io.notify.push;

import io.notify.common.config.ConfigException;
import io.notify.common.config.PlatformSettings;
import io.notify.common.config.Redacted;
import io.notify.common.config.Settings;
import io.notify.common.tls.PemFiles;
import io.notify.push.apns.ApnsSettings;
import io.notify.push.fcm.FcmSettings;
import io.notify.push.webpush.VapidKeys;
import io.notify.push.webpush.WebPushSettings;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

/**
 * The push sender's settings, keys {@code notify.push.*} (docs/push.md, "Settings"; every key also
 * from its environment variable, {@code notify.push.max-attempts} → {@code NOTIFY_PUSH_MAX_ATTEMPTS}).
 * A provider is on when its credentials are given; a registration of a provider that is off is
 * refused (outcome {@code refused}, to the DLQ).
 *
 * @param groupId          the consumer group of {@code notify.fallback} (every instance of one deployment shares it)
 * @param defaultTtl       how long a provider may hold a push for an unreachable device; a fallback older than it is given up
 * @param maxInFlight      pushes in flight per provider at most (the rest wait their turn)
 * @param maxAttempts      attempts per (event, device) at most
 * @param initialBackoff   the first retry's delay, doubling up to {@code maxBackoff} (a longer Retry-After wins)
 * @param retryDeadline    no attempt starts later than this after the first: then the push is given up
 * @param rebalanceWait    how long a partition revoked (or a stop) waits for its batch in flight
 * @param sessionTimeout   the consumer group's session timeout: how soon a killed instance's partitions move to the others
 * @param deviceRatePerMinute pushes per device and minute at most, in bursts of {@code deviceBurst}
 * @param webpush          null: off (no {@code notify.push.webpush.subject})
 * @param fcm              null: off (no {@code notify.push.fcm.service-account})
 * @param apns             null: off (no {@code notify.push.apns.team-id})
 */
public record PushConfig(String bootstrapServers, String topicPrefix, Map<String, String> kafkaClient, String groupId,
                         String managementHost, int managementPort, Duration defaultTtl, int maxInFlight, int maxAttempts,
                         Duration initialBackoff, Duration maxBackoff, Duration retryDeadline, Duration rebalanceWait,
                         Duration sessionTimeout,
                         int deviceRatePerMinute, int deviceBurst, WebPushSettings webpush, FcmSettings fcm, ApnsSettings apns) {

    /** Secrets shown as {@code ***} ({@link Redacted}). */
    @Override
    public String toString() {
        return Redacted.toString(this);
    }

    public static PushConfig load(Settings s) {
        PlatformSettings shared = PlatformSettings.load(s);
        Duration timeout = s.duration("notify.push.request-timeout", Duration.ofSeconds(10), Duration.ofMillis(100), Duration.ofMinutes(5));
        return new PushConfig(
                shared.bootstrapServers(),
                shared.topicPrefix(),
                shared.kafkaClient(),
                s.string("notify.push.group-id", "notify-push"),
                s.string("notify.push.management-host", "0.0.0.0"),
                s.intIn("notify.push.management-port", 8290, 0, 65535),
                s.duration("notify.push.default-ttl", Duration.ofDays(1), Duration.ZERO, Duration.ofDays(28)),
                s.intIn("notify.push.max-in-flight", 256, 1, 10_000),
                s.intIn("notify.push.max-attempts", 5, 1, 100),
                s.duration("notify.push.initial-backoff", Duration.ofSeconds(1), Duration.ofMillis(10), Duration.ofMinutes(10)),
                s.duration("notify.push.max-backoff", Duration.ofMinutes(1), Duration.ofMillis(10), Duration.ofHours(1)),
                s.duration("notify.push.retry-deadline", Duration.ofMinutes(10), Duration.ofSeconds(1), Duration.ofDays(1)),
                s.duration("notify.push.rebalance-wait", Duration.ofSeconds(30), Duration.ofSeconds(1), Duration.ofMinutes(4)),
                s.duration("notify.push.session-timeout", Duration.ofSeconds(45), Duration.ofSeconds(6), Duration.ofMinutes(5)),
                s.intIn("notify.push.device-rate-per-minute", 20, 1, 100_000),
                s.intIn("notify.push.device-burst", 10, 1, 100_000),
                webpush(s, timeout),
                fcm(s, timeout),
                apns(s, timeout));
    }

    private static WebPushSettings webpush(Settings s, Duration timeout) {
        String subject = s.raw("notify.push.webpush.subject");
        boolean insecure = s.bool("notify.push.webpush.allow-insecure-endpoints", false);
        String keyFile = s.raw("notify.push.webpush.vapid-key-file");
        String publicKey = s.raw("notify.push.webpush.vapid-public-key");
        String privateKey = s.raw("notify.push.webpush.vapid-private-key");
        if (subject == null) {
            return null;
        }
        VapidKeys keys;
        try {
            if (keyFile != null) {
                keys = VapidKeys.fromPem(Path.of(keyFile));
            } else if (publicKey != null && privateKey != null) {
                keys = VapidKeys.fromBase64Url(privateKey, publicKey);
            } else {
                throw new ConfigException("notify.push.webpush.vapid-key-file",
                        "Web Push needs the VAPID key pair: a PEM file, or vapid-public-key and vapid-private-key (base64url)");
            }
            return new WebPushSettings(subject, keys, timeout, insecure);
        } catch (IOException e) {
            throw new ConfigException("notify.push.webpush.vapid-key-file", "cannot be read: " + e.getMessage());
        } catch (IllegalArgumentException e) {
            throw new ConfigException("notify.push.webpush", e.getMessage());
        }
    }

    private static FcmSettings fcm(Settings s, Duration timeout) {
        String account = s.raw("notify.push.fcm.service-account");
        String base = s.string("notify.push.fcm.base-url", FcmSettings.DEFAULT_BASE_URL);
        if (account == null) {
            return null;
        }
        try {
            return new FcmSettings(account, URI.create(base), timeout);
        } catch (IllegalArgumentException e) {
            throw new ConfigException("notify.push.fcm", e.getMessage());
        }
    }

    private static ApnsSettings apns(Settings s, Duration timeout) {
        String team = s.raw("notify.push.apns.team-id");
        String keyId = s.raw("notify.push.apns.key-id");
        String key = s.raw("notify.push.apns.signing-key");
        String production = s.string("notify.push.apns.production-url", ApnsSettings.DEFAULT_PRODUCTION_URL);
        String sandbox = s.string("notify.push.apns.sandbox-url", ApnsSettings.DEFAULT_SANDBOX_URL);
        String ca = s.raw("notify.push.apns.ca-file");
        if (team == null) {
            return null;
        }
        try {
            // a CA file: trust only it (a local APNs in tests); none: the JDK's trust store, as Apple's servers need
            return new ApnsSettings(team, keyId, key, URI.create(production), URI.create(sandbox), timeout,
                    ca == null ? null : PemFiles.trusting(Path.of(ca), "notify.push.apns.ca-file"));
        } catch (IllegalArgumentException e) {
            throw new ConfigException("notify.push.apns", e.getMessage());
        }
    }
}
