package io.notify.registry;

import static io.notify.registry.RegistryTesting.await;
import static io.notify.registry.RegistryTesting.awaitValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.notify.protocol.stream.StreamId;
import io.notify.registry.lease.LeaseTesting;
import io.notify.registry.lease.NodeRegistry;
import io.notify.registry.lease.NodeRegistryConfig;
import io.notify.registry.route.RedisRouteLookup;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The router's cache against the shared real Redis: zero round trips when warm, invalidation, bounds. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ClientSideCachingIT extends SharedRedisIT {

    private static final Duration LOOKUP = Duration.ofMillis(500);
    private static final Duration WAIT = Duration.ofSeconds(3);
    /** Slow heartbeat, so no liveness refresh invalidates anything during a measurement. */
    private static final NodeRegistryConfig SLOW = NodeRegistryConfig.defaults()
            .withTimings(Duration.ofSeconds(60), Duration.ofSeconds(30), Duration.ofSeconds(60), Duration.ofSeconds(20));
    private final StreamId user = StreamId.forUser("7");
    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();

    @Test
    void aWarmLookupCostsNoRoundTripAndAnotherClientsChangeIsSeen() throws Exception {
        NodeRegistry a = started("gw-a");
        NodeRegistry c = started("gw-c");
        a.register(user, "c1").toCompletableFuture().get(2, TimeUnit.SECONDS);
        RedisRouteLookup router = caching(t.router(RegistryTesting.ROUTER, meters));

        long coldStart = System.nanoTime();
        assertEquals(Map.of("gw-a", List.of("c1")), router.lookup(user, LOOKUP).connectionsByNode());
        long coldNanos = System.nanoTime() - coldStart;
        assertEquals(2, router.redisRoundTrips(), "cold, naming a node never seen: ZRANGE, then its liveness key");

        long before = router.redisRoundTrips();
        int n = 100_000;
        long warmStart = System.nanoTime();
        for (int i = 0; i < n; i++) {
            assertEquals(1, router.lookup(user, LOOKUP).live().size());
        }
        long warmNanos = System.nanoTime() - warmStart;
        assertEquals(before, router.redisRoundTrips(), "warm lookups must not touch Redis");
        assertEquals(n, meters.get("notify.registry.lookups").tag("outcome", "cache_hit").counter().count());

        c.register(user, "c2").toCompletableFuture().get(2, TimeUnit.SECONDS); // another client, another connection
        long changed = System.nanoTime();
        await(WAIT, "node C's registration to be routed",
                () -> router.lookup(user, LOOKUP).connectionsByNode().containsKey("gw-c"));
        long seenMicros = (System.nanoTime() - changed) / 1000;
        a.unregister(user, "c1").toCompletableFuture().get(2, TimeUnit.SECONDS);
        await(WAIT, "node A's removal to be seen",
                () -> !router.lookup(user, LOOKUP).connectionsByNode().containsKey("gw-a"));
        assertTrue(meters.get("notify.registry.cache.invalidations").tag("scope", "key").counter().count() >= 2);

        System.out.printf("registry: first cold lookup %d us (2 round trips), warm lookup %.2f us avg over %d "
                + "(0 round trips), change by another client routed after %d us%n",
                coldNanos / 1000, warmNanos / 1000.0 / n, n, seenMicros);
    }

    @Test
    void coldLookupsOfManyStreamsCostOneRoundTripEach() throws Exception {
        int streams = 2000;
        RedisRouteLookup router = routerOverStreams("m", streams);

        long rt0 = router.redisRoundTrips();
        long start = System.nanoTime();
        for (int i = 1; i < streams; i++) {
            assertEquals(1, router.lookup(StreamId.forUser("m" + i), LOOKUP).live().size());
        }
        double coldMicros = (System.nanoTime() - start) / 1000.0 / (streams - 1);
        double perLookup = (router.redisRoundTrips() - rt0) / (double) (streams - 1);
        long rt1 = router.redisRoundTrips();
        start = System.nanoTime();
        for (int round = 0; round < 10; round++) {
            for (int i = 1; i < streams; i++) {
                router.lookup(StreamId.forUser("m" + i), LOOKUP);
            }
        }
        double warmMicros = (System.nanoTime() - start) / 1000.0 / (10.0 * (streams - 1));
        assertEquals(1.0, perLookup, 0.0001);
        assertEquals(rt1, router.redisRoundTrips());
        System.out.printf("registry: %d cold lookups: %.1f us avg, %.3f round trips each; then %.2f us avg warm, 0 round trips%n",
                streams - 1, coldMicros, perLookup, warmMicros);
    }

    @Test
    void prefetchedStreamsCostNoRoundTripAtTheirLookup() throws Exception {
        int streams = 500;
        RedisRouteLookup router = routerOverStreams("p", streams);

        long rt0 = router.redisRoundTrips();
        for (int i = 1; i < streams; i++) {
            router.prefetch(StreamId.forUser("p" + i));
            router.prefetch(StreamId.forUser("p" + i)); // a second hint while the first is in flight or cached: nothing more
        }
        assertEquals(rt0 + streams - 1, router.redisRoundTrips(), "one read per stream, all sent before any lookup");
        for (int i = 1; i < streams; i++) {
            assertEquals(Map.of("gw-a", List.of("c" + i)), router.lookup(StreamId.forUser("p" + i), LOOKUP).connectionsByNode());
        }
        assertEquals(rt0 + streams - 1, router.redisRoundTrips(), "each lookup found its stream cached or joined its read");
        double hits = meters.get("notify.registry.lookups").tag("outcome", "cache_hit").counter().count();
        double joined = meters.get("notify.registry.lookups").tag("outcome", "prefetch_joined").counter().count();
        assertEquals(streams - 1, hits + joined, 0.0);
        assertEquals(streams - 1, meters.get("notify.registry.prefetches").tag("outcome", "started").counter().count(), 0.0);
        assertEquals(0.0, meters.get("notify.registry.prefetches").tag("outcome", "at_bound").counter().count());
        assertEquals(1.0, meters.get("notify.registry.lookups").tag("outcome", "cache_miss").counter().count(), "only p0's");
    }

    @Test
    void prefetchesBeyondTheirBoundAreIgnoredAndCounted() throws Exception {
        NodeRegistry a = started("gw-a");
        for (int i = 0; i < 5; i++) {
            a.register(StreamId.forUser("q" + i), "c" + i).toCompletableFuture().get(2, TimeUnit.SECONDS);
        }
        RedisRouteLookup router = caching(t.router(RegistryTesting.ROUTER.withMaxPrefetches(2), meters));
        router.lookup(StreamId.forUser("q0"), LOOKUP); // the node's liveness key joins the cache
        t.raw().clientPause(300); // every read sent now stays in flight for 300 ms
        for (int i = 1; i < 5; i++) {
            router.prefetch(StreamId.forUser("q" + i));
        }
        assertEquals(2.0, meters.get("notify.registry.prefetches").tag("outcome", "started").counter().count());
        assertEquals(2.0, meters.get("notify.registry.prefetches").tag("outcome", "at_bound").counter().count());
        for (int i = 1; i < 5; i++) { // the two hinted streams join their reads, the others read for themselves
            assertEquals(Map.of("gw-a", List.of("c" + i)), router.lookup(StreamId.forUser("q" + i), LOOKUP).connectionsByNode());
        }
    }

    @Test
    void aNodeThatDiesAndComesBackIsSeenBothWays() throws Exception {
        NodeRegistry a = started("gw-a");
        a.register(user, "c1").toCompletableFuture().get(2, TimeUnit.SECONDS);
        LeaseTesting.haltHeartbeat(a);
        RedisRouteLookup router = caching(t.router());
        assertEquals(1, router.lookup(user, LOOKUP).live().size());

        t.raw().del(t.keys.alive("gw-a"));
        awaitValue(WAIT, "the deleted liveness key to be seen", () -> router.lookup(user, LOOKUP), r -> r.stale().size() == 1);
        long rt = router.redisRoundTrips();
        router.lookup(user, LOOKUP);
        assertEquals(rt, router.redisRoundTrips(), "a missing liveness key is cached too");

        t.raw().set(t.keys.alive("gw-a"), a.incarnation()); // a key read while absent is tracked as well
        awaitValue(WAIT, "the node coming back to be seen", () -> router.lookup(user, LOOKUP), r -> r.live().size() == 1);
    }

    @Test
    void theCacheStaysWithinItsBound() throws Exception {
        NodeRegistry a = started("gw-a");
        for (int i = 0; i < 300; i++) {
            a.register(StreamId.forUser("b" + i), "c").toCompletableFuture().get(2, TimeUnit.SECONDS);
        }
        RedisRouteLookup router = caching(t.router(RegistryTesting.ROUTER.withMaxCachedKeys(50), meters));
        for (int i = 0; i < 300; i++) {
            assertEquals(1, router.lookup(StreamId.forUser("b" + i), LOOKUP).live().size());
            assertTrue(router.cachedKeys() <= 50, "cache size " + router.cachedKeys());
        }
        assertTrue(meters.get("notify.registry.cache.evictions").counter().count() >= 250);
        assertEquals(router.cachedKeys(), meters.get("notify.registry.cache.size").gauge().value(), 0.0);
    }

    @Test
    void unparseableMembersAreIgnoredAndCounted() {
        t.raw().zadd(t.keys.connections(user), t.clock.millis() + 60_000, "not-a-member");
        RedisRouteLookup router = caching(t.router(RegistryTesting.ROUTER, meters));
        Routes routes = router.lookup(user, LOOKUP);
        assertTrue(routes.available());
        assertEquals(List.of(), routes.live());
        assertEquals(List.of(), routes.stale());
        assertEquals(1.0, meters.get("notify.registry.members.unparseable").counter().count());
    }

    /**
     * Streams {@code <prefix>0..n-1} registered on node gw-a (connection {@code c<i>} each) and a
     * caching router that has looked up stream 0 only, so the node's liveness key is cached.
     */
    private RedisRouteLookup routerOverStreams(String prefix, int n) throws Exception {
        NodeRegistry a = started("gw-a");
        for (int i = 0; i < n; i++) {
            a.register(StreamId.forUser(prefix + i), "c" + i);
        }
        await(WAIT, "all registrations", () -> t.raw().exists(t.keys.connections(StreamId.forUser(prefix + (n - 1)))) == 1);
        RedisRouteLookup router = caching(t.router(RegistryTesting.ROUTER, meters));
        router.lookup(StreamId.forUser(prefix + "0"), LOOKUP);
        return router;
    }

    private NodeRegistry started(String nodeId) throws Exception {
        return t.started(nodeId, SLOW);
    }

    private static RedisRouteLookup caching(RedisRouteLookup router) {
        await(Duration.ofSeconds(3), "CLIENT TRACKING ON", router::caching);
        return router;
    }
}
