package io.notify.registry.route;

import static io.notify.registry.SettingChecks.requirePositive;

import java.time.Duration;

/**
 * Settings of {@link RedisRouteLookup}; {@link #defaults()} suits production, tests shorten times.
 *
 * @param maxCachedKeys      bound of the local cache (stream sets plus node liveness keys)
 * @param maxOutstandingReads Redis reads in flight at once; a cache miss beyond it answers
 *                           unavailable at once instead of queueing behind a slow Redis
 * @param maxOutstandingRemovals stale-member removals in flight at once; more are dropped
 * @param maxPrefetches      reads started by {@link RedisRouteLookup#prefetch} in flight at once, on
 *                           top of the lookups' own; more hints are ignored
 * @param checkInterval      how often the tracked connection is PINGed (and a first connect retried)
 * @param checkTimeout       how long a PING or {@code CLIENT TRACKING ON} may take
 * @param deadAfterChecks    consecutive unanswered PINGs after which an open-looking connection is
 *                           dropped with the cache and replaced
 */
public record RouteLookupConfig(int maxCachedKeys, int maxOutstandingReads, int maxOutstandingRemovals, int maxPrefetches,
                                Duration checkInterval, Duration checkTimeout, int deadAfterChecks) {

    public RouteLookupConfig {
        requirePositive("maxCachedKeys", maxCachedKeys);
        requirePositive("maxOutstandingReads", maxOutstandingReads);
        requirePositive("maxOutstandingRemovals", maxOutstandingRemovals);
        requirePositive("maxPrefetches", maxPrefetches);
        requirePositive("deadAfterChecks", deadAfterChecks);
        requirePositive("checkInterval", checkInterval);
        requirePositive("checkTimeout", checkTimeout);
    }

    public static RouteLookupConfig defaults() {
        return new RouteLookupConfig(100_000, 256, 64, 2048, Duration.ofSeconds(1), Duration.ofSeconds(1), 3);
    }

    public RouteLookupConfig withMaxCachedKeys(int value) {
        return new RouteLookupConfig(value, maxOutstandingReads, maxOutstandingRemovals, maxPrefetches, checkInterval, checkTimeout,
                deadAfterChecks);
    }

    public RouteLookupConfig withMaxOutstandingReads(int value) {
        return new RouteLookupConfig(maxCachedKeys, value, maxOutstandingRemovals, maxPrefetches, checkInterval, checkTimeout,
                deadAfterChecks);
    }

    public RouteLookupConfig withMaxPrefetches(int value) {
        return new RouteLookupConfig(maxCachedKeys, maxOutstandingReads, maxOutstandingRemovals, value, checkInterval, checkTimeout,
                deadAfterChecks);
    }

    public RouteLookupConfig withChecks(Duration interval, Duration timeout) {
        return new RouteLookupConfig(maxCachedKeys, maxOutstandingReads, maxOutstandingRemovals, maxPrefetches, interval, timeout,
                deadAfterChecks);
    }
}
