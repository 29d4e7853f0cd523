package io.notify.registry;

import static io.notify.registry.RegistryTesting.FAST;
import static io.notify.registry.RegistryTesting.await;
import static io.notify.registry.RegistryTesting.awaitValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.notify.devstack.RedisServer;
import io.notify.protocol.stream.StreamId;
import io.notify.registry.lease.NodeRegistry;
import io.notify.registry.lease.RegistryUnavailableException;
import io.notify.registry.route.RedisRouteLookup;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Redis going away and coming back, on a Redis of its own (the shared one must stay up): lookups
 * answer unavailable within their timeout with nothing piling up, writes fail with a clear error,
 * and everything (cache, tracking, registrations) recovers by itself.
 */
@Timeout(value = 40, unit = TimeUnit.SECONDS)
class RedisOutageIT {

    private static final Duration LOOKUP = Duration.ofMillis(100);
    private final StreamId user = StreamId.forUser("99");
    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    private RedisServer server;
    private RegistryTesting t;

    @BeforeEach
    void setUp() {
        server = new RedisServer().start();
        t = new RegistryTesting(server.uri(), "outage-");
    }

    @AfterEach
    void tearDown() {
        t.close();
        server.close();
    }

    /** A node holding connection c1 of the user, and a router that has it cached. */
    private RedisRouteLookup nodeWithOneConnectionAndACachingRouter(NodeRegistry node) throws Exception {
        node.register(user, "c1").toCompletableFuture().get(2, TimeUnit.SECONDS);
        RedisRouteLookup router = t.router(RegistryTesting.ROUTER, meters);
        await(Duration.ofSeconds(3), "tracking", router::caching);
        assertEquals(1, router.lookup(user, LOOKUP).live().size());
        return router;
    }

    @Test
    void lookupsDegradeFastAndEverythingRecoversAfterARestart() throws Exception {
        NodeRegistry node = t.started("gw-a", FAST);
        RedisRouteLookup router = nodeWithOneConnectionAndACachingRouter(node);

        server.stop();

        await(Duration.ofSeconds(3), "the router to notice", () -> !router.redisAvailable());
        assertFalse(router.caching());
        assertEquals(0, router.cachedKeys(), "invalidations may be lost while away: nothing cached survives");
        long worstNanos = 0;
        for (int i = 0; i < 5000; i++) {
            long start = System.nanoTime();
            Routes routes = router.lookup(StreamId.forUser("u" + (i % 100)), LOOKUP);
            worstNanos = Math.max(worstNanos, System.nanoTime() - start);
            assertFalse(routes.available());
            assertTrue(router.outstandingReads() <= RegistryTesting.ROUTER.maxOutstandingReads());
        }
        // nothing waits while disconnected; the slack only absorbs scheduling noise of a busy machine
        assertTrue(worstNanos < LOOKUP.toNanos() + TimeUnit.MILLISECONDS.toNanos(100), "worst " + worstNanos / 1000 + " us");
        assertEquals(0, router.outstandingReads());
        assertEquals(0.0, meters.get(RedisHealth.GAUGE).tag("role", "router").gauge().value());
        assertTrue(meters.get("notify.registry.lookups").tag("outcome", "unavailable").counter().count() >= 5000);

        long writeStart = System.nanoTime();
        CompletableFuture<Void> during = node.register(user, "c2").toCompletableFuture();
        ExecutionException failed = assertThrows(ExecutionException.class, () -> during.get(2, TimeUnit.SECONDS));
        assertInstanceOf(RegistryUnavailableException.class, failed.getCause());
        assertTrue(failed.getCause().getMessage().contains("kept locally"), failed.getCause().getMessage());
        assertTrue(System.nanoTime() - writeStart < FAST.writeTimeout().toNanos() + TimeUnit.MILLISECONDS.toNanos(200));
        assertEquals(2, node.registeredConnections());
        await(Duration.ofSeconds(3), "the node to notice", () -> !node.redisAvailable());
        System.out.printf("registry: Redis down: 5000 lookups all unavailable, worst %d us (timeout %d ms), "
                + "0 outstanding reads after%n", worstNanos / 1000, LOOKUP.toMillis());

        long restart = System.nanoTime();
        server.start(); // same port, empty data set
        Routes back = awaitValue(Duration.ofSeconds(10), "both connections routed again",
                () -> router.lookup(user, LOOKUP), r -> r.live().size() == 2);
        long recoveredMs = (System.nanoTime() - restart) / 1_000_000;
        assertEquals(Map.of("gw-a", List.of("c1", "c2")), sorted(back.connectionsByNode()));
        await(Duration.ofSeconds(3), "caching to resume", router::caching);
        await(Duration.ofSeconds(3), "a cached answer", () -> {
            long rt = router.redisRoundTrips();
            return router.lookup(user, LOOKUP).live().size() == 2 && router.redisRoundTrips() == rt;
        });
        assertTrue(router.redisAvailable());
        assertTrue(node.redisAvailable());
        System.out.printf("registry: Redis restarted: re-registered and routed again after %d ms%n", recoveredMs);
    }

    @Test
    void aFlushEmptiesTheCacheAndTheNodeReRegisters() throws Exception {
        NodeRegistry node = t.started("gw-a", FAST);
        RedisRouteLookup router = nodeWithOneConnectionAndACachingRouter(node);
        assertTrue(router.cachedKeys() > 0);

        t.raw().flushall();

        await(Duration.ofSeconds(3), "the flush to reach the cache",
                () -> meters.get("notify.registry.cache.invalidations").tag("scope", "all").counter().count() >= 1);
        awaitValue(Duration.ofSeconds(5), "the node to re-register after losing its liveness key",
                () -> router.lookup(user, LOOKUP), r -> r.live().size() == 1);
        assertEquals(1L, t.raw().exists(t.keys.connections(user)));
    }

    @Test
    void aRouterStartedWhileRedisIsDownConnectsLater() throws Exception {
        server.stop();
        RedisRouteLookup router = t.router(RegistryTesting.ROUTER, meters);
        NodeRegistry node = t.node("gw-a", FAST);
        CompletableFuture<Void> started = node.start().toCompletableFuture();
        assertFalse(router.lookup(user, LOOKUP).available());
        assertThrows(ExecutionException.class, () -> node.register(user, "c1").toCompletableFuture().get(1, TimeUnit.SECONDS));

        server.start();

        started.get(5, TimeUnit.SECONDS);
        awaitValue(Duration.ofSeconds(5), "the registration made while Redis was down to be routed",
                () -> router.lookup(user, LOOKUP), r -> r.live().size() == 1);
        await(Duration.ofSeconds(3), "caching", router::caching);
    }

    private static Map<String, List<String>> sorted(Map<String, List<String>> byNode) {
        Map<String, List<String>> out = new java.util.TreeMap<>();
        byNode.forEach((k, v) -> out.put(k, v.stream().sorted().toList()));
        return out;
    }
}
