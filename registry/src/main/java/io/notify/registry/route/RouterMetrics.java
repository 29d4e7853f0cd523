package io.notify.registry.route;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.notify.registry.RedisHealth;

/**
 * The meters of a {@link RedisRouteLookup}, all tagged {@code role=router} (names in
 * registry/README.md). The Redis availability gauge is {@link RedisHealth}'s.
 */
final class RouterMetrics {

    static final Tags ROLE = Tags.of("role", "router");

    final Counter hits;
    final Counter misses;
    final Counter unavailable;
    final Counter prefetches;
    final Counter prefetchesAtBound;
    final Counter prefetchJoins;
    final Timer redisLatency;
    final Counter unparseable;
    final Counter evictions;
    final Counter keyInvalidations;
    final Counter flushInvalidations;
    final Counter staleRemoved;
    final Counter staleKept;
    final Counter staleDropped;
    final Counter staleFailed;

    RouterMetrics(MeterRegistry meters) {
        hits = lookups(meters, "cache_hit");
        misses = lookups(meters, "cache_miss");
        unavailable = lookups(meters, "unavailable");
        prefetches = prefetch(meters, "started");
        prefetchesAtBound = prefetch(meters, "at_bound");
        prefetchJoins = lookups(meters, "prefetch_joined");
        redisLatency = Timer.builder("notify.registry.lookup.redis.latency").tags(ROLE)
                .description("time of the Redis reads of a cache miss").register(meters);
        unparseable = Counter.builder("notify.registry.members.unparseable").tags(ROLE)
                .description("registry members read that are not node|incarnation|conn (ignored)").register(meters);
        evictions = Counter.builder("notify.registry.cache.evictions").tags(ROLE)
                .description("cache entries evicted by the size bound").register(meters);
        keyInvalidations = invalidations(meters, "key");
        flushInvalidations = invalidations(meters, "all");
        staleRemoved = stale(meters, "removed");
        staleKept = stale(meters, "kept");
        staleDropped = stale(meters, "dropped");
        staleFailed = stale(meters, "failed");
    }

    void cacheSize(MeterRegistry meters, TrackedCache cache) {
        Gauge.builder("notify.registry.cache.size", cache, TrackedCache::size).tags(ROLE)
                .description("keys held by the router's registry cache").register(meters);
    }

    private static Counter lookups(MeterRegistry meters, String outcome) {
        return Counter.builder("notify.registry.lookups").tags(ROLE).tag("outcome", outcome)
                .description("route lookups by outcome").register(meters);
    }

    private static Counter prefetch(MeterRegistry meters, String outcome) {
        return Counter.builder("notify.registry.prefetches").tags(ROLE).tag("outcome", outcome)
                .description("prefetch hints for streams not cached: read started ahead of the lookup, or ignored at maxPrefetches")
                .register(meters);
    }

    private static Counter stale(MeterRegistry meters, String result) {
        return Counter.builder("notify.registry.stale.removals").tags(ROLE).tag("result", result)
                .description("stale members the router asked to remove, by result").register(meters);
    }

    private static Counter invalidations(MeterRegistry meters, String scope) {
        return Counter.builder("notify.registry.cache.invalidations").tags(ROLE).tag("scope", scope)
                .description("invalidations from Redis (key: keys named, all: flush messages)").register(meters);
    }
}
