package io.notify.push.sender;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.notify.common.limits.TokenBucket;
import java.time.Duration;
import java.util.function.LongSupplier;

/**
 * The per-device rate limit (docs/push.md, "Bounds"): each registration may be pushed at most
 * {@code perMinute} times a minute, in bursts of {@code burst}; a push past it is not sent (outcome
 * {@code rate_limited}, to the DLQ). A device's bucket is forgotten after 10 minutes without a push,
 * and at most {@value #MAX_DEVICES} are held (the least recently used go first), so a flood of
 * distinct devices cannot grow the sender's memory. Thread-safe.
 */
final class DeviceLimits {

    static final long MAX_DEVICES = 200_000;

    private final double perSecond;
    private final int burst;
    private final LongSupplier nanoTime;
    private final Cache<String, TokenBucket> buckets;

    DeviceLimits(int perMinute, int burst, LongSupplier nanoTime) {
        if (perMinute < 1 || burst < 1) {
            throw new IllegalArgumentException("device rate and burst must be >= 1");
        }
        this.perSecond = perMinute / 60.0;
        this.burst = burst;
        this.nanoTime = nanoTime;
        this.buckets = Caffeine.newBuilder().maximumSize(MAX_DEVICES).expireAfterAccess(Duration.ofMinutes(10)).build();
    }

    /** Takes one push of {@code registrationId}'s allowance; false when it has none left now. */
    boolean tryTake(String registrationId) {
        return buckets.get(registrationId, id -> new TokenBucket(perSecond, burst, nanoTime)).tryTake();
    }
}
