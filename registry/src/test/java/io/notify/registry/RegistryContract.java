package io.notify.registry;

import static io.notify.registry.RegistryTesting.FAST;
import static io.notify.registry.RegistryTesting.await;
import static io.notify.registry.RegistryTesting.awaitValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

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

/**
 * What the registry promises, whatever Redis it runs on: gateway nodes and the router against a real
 * Redis: leases, liveness, exact removal. {@link RegistryIT} runs it on the shared standalone Redis,
 * {@link RegistryClusterIT} on a 3-master Redis Cluster.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
interface RegistryContract {

    Duration LOOKUP = Duration.ofMillis(500);
    Duration WAIT = Duration.ofSeconds(5);
    StreamId USER = StreamId.forUser("42");

    /** The Redis under test, with this test's key prefix. */
    RegistryTesting t();

    @Test
    default void twoNodesRegisterAndTheLookupSeesBothGroupedByNode() throws Exception {
        NodeRegistry a = started("gw-a");
        NodeRegistry c = started("gw-c");
        a.register(USER, "c1").toCompletableFuture().get(2, TimeUnit.SECONDS);
        a.register(USER, "c2").toCompletableFuture().get(2, TimeUnit.SECONDS);
        c.register(USER, "c3").toCompletableFuture().get(2, TimeUnit.SECONDS);

        Routes routes = t().router().lookup(USER, LOOKUP);

        assertTrue(routes.available());
        Map<String, List<String>> byNode = routes.connectionsByNode();
        assertEquals(List.of("gw-a", "gw-c"), List.copyOf(byNode.keySet()));
        assertEquals(List.of("c1", "c2"), byNode.get("gw-a").stream().sorted().toList());
        assertEquals(List.of("c3"), byNode.get("gw-c"));
        assertEquals(List.of(), routes.stale());
        assertTrue(t().raw().pttl(t().keys.connections(USER)) > FAST.lease().toMillis(), "set TTL covers the lease");
    }

    @Test
    default void concurrentRegistrationsFromManyThreadsAreAllWrittenAndRemoved() throws Exception {
        NodeRegistry a = started("gw-a");
        int threads = 4;
        int each = 500;
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(threads);
        try {
            List<java.util.concurrent.Future<List<java.util.concurrent.CompletableFuture<Void>>>> submitted = new java.util.ArrayList<>();
            for (int th = 0; th < threads; th++) {
                int first = th * each;
                submitted.add(pool.submit(() -> java.util.stream.IntStream.range(first, first + each)
                        .mapToObj(i -> a.register(StreamId.forUser("m" + i), "c" + i).toCompletableFuture()).toList()));
            }
            for (var f : submitted) {
                java.util.concurrent.CompletableFuture.allOf(f.get().toArray(java.util.concurrent.CompletableFuture[]::new))
                        .get(10, TimeUnit.SECONDS);
            }
            for (int i = 0; i < threads * each; i += 97) {
                assertEquals(List.of("gw-a|" + a.incarnation() + "|c" + i),
                        t().raw().zrange(t().keys.connections(StreamId.forUser("m" + i)), 0, -1));
            }
            java.util.concurrent.CompletableFuture.allOf(java.util.stream.IntStream.range(0, threads * each)
                    .mapToObj(i -> a.unregister(StreamId.forUser("m" + i), "c" + i).toCompletableFuture())
                    .toArray(java.util.concurrent.CompletableFuture[]::new)).get(10, TimeUnit.SECONDS);
            assertEquals(0, a.registeredConnections());
            assertEquals(0L, t().raw().exists(t().keys.connections(StreamId.forUser("m0")), t().keys.connections(StreamId.forUser("m1999"))));
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    default void aLateUnregisterOnNodeANeverRemovesNodeCsFreshRegistration() throws Exception {
        NodeRegistry a = started("gw-a");
        NodeRegistry c = started("gw-c");
        a.register(USER, "phone").toCompletableFuture().get(2, TimeUnit.SECONDS);
        c.register(USER, "phone").toCompletableFuture().get(2, TimeUnit.SECONDS); // the phone reconnected to C

        a.unregister(USER, "phone").toCompletableFuture().get(2, TimeUnit.SECONDS);

        assertEquals(List.of("gw-c|" + c.incarnation() + "|phone"), t().raw().zrange(t().keys.connections(USER), 0, -1));
        RedisRouteLookup router = t().router();
        assertEquals(Map.of("gw-c", List.of("phone")), router.lookup(USER, LOOKUP).connectionsByNode());
        assertEquals(0, a.registeredConnections());
    }

    @Test
    default void aDeadNodesMembersAreStaleNotRoutedAndRemoved() throws Exception {
        NodeRegistry a = started("gw-a");
        NodeRegistry b = started("gw-b");
        a.register(USER, "c1").toCompletableFuture().get(2, TimeUnit.SECONDS);
        b.register(USER, "c2").toCompletableFuture().get(2, TimeUnit.SECONDS);
        RedisRouteLookup router = t().router();
        assertEquals(2, router.lookup(USER, LOOKUP).live().size());

        LeaseTesting.haltHeartbeat(b); // b "crashes": its liveness key expires within aliveTtl, its leases would last longer
        Routes routes = awaitValue(WAIT, "gw-b's members to turn stale",
                () -> router.lookup(USER, LOOKUP), r -> r.stale().size() == 1);

        assertEquals(Map.of("gw-a", List.of("c1")), routes.connectionsByNode());
        ConnectionRef dead = routes.stale().get(0);
        assertEquals("gw-b", dead.nodeId());
        assertEquals(1L, router.removeStaleAsync(USER, routes.stale()).toCompletableFuture().get(2, TimeUnit.SECONDS));
        assertNull(t().raw().zscore(t().keys.connections(USER), dead.member()));
        assertEquals(List.of(), awaitValue(WAIT, "the removal to reach the cache",
                () -> router.lookup(USER, LOOKUP), r -> r.stale().isEmpty()).stale());
    }

    @Test
    default void aRestartedNodesOldIncarnationIsStaleAndItsNewOneLive() throws Exception {
        NodeRegistry before = started("gw-a");
        before.register(USER, "c1").toCompletableFuture().get(2, TimeUnit.SECONDS);
        LeaseTesting.haltHeartbeat(before);
        NodeRegistry after = started("gw-a"); // same node id, fresh incarnation
        after.register(USER, "c2").toCompletableFuture().get(2, TimeUnit.SECONDS);

        RedisRouteLookup router = t().router();
        Routes routes = router.lookup(USER, LOOKUP);

        assertEquals(List.of(new ConnectionRef("gw-a", after.incarnation(), "c2")), routes.live());
        assertEquals(List.of(new ConnectionRef("gw-a", before.incarnation(), "c1")), routes.stale());
        assertEquals(1L, router.removeStaleAsync(USER, routes.stale()).toCompletableFuture().get(2, TimeUnit.SECONDS));
        assertEquals(List.of("gw-a|" + after.incarnation() + "|c2"), t().raw().zrange(t().keys.connections(USER), 0, -1));
    }

    @Test
    default void aLeaseThatWasNotRenewedExpiresAndIsRemovedOnlyIfStillExpired() throws Exception {
        NodeRegistry a = started("gw-a");
        a.register(USER, "c1").toCompletableFuture().get(2, TimeUnit.SECONDS);
        a.register(USER, "c2").toCompletableFuture().get(2, TimeUnit.SECONDS);
        LeaseTesting.haltHeartbeat(a);
        t().raw().set(t().keys.alive("gw-a"), a.incarnation()); // node alive (no TTL), but renewing nothing
        RedisRouteLookup router = t().router();

        Routes expired = awaitValue(WAIT, "both leases to expire",
                () -> router.lookup(USER, LOOKUP), r -> r.stale().size() == 2);
        assertEquals(List.of(), expired.live());
        // a heartbeat renews c2 between the router's reading and its removal
        ConnectionRef c2 = new ConnectionRef("gw-a", a.incarnation(), "c2");
        t().raw().zadd(t().keys.connections(USER), t().clock.millis() + 60_000, c2.member());

        assertEquals(1L, router.removeStaleAsync(USER, expired.stale()).toCompletableFuture().get(2, TimeUnit.SECONDS));
        assertEquals(List.of(c2.member()), t().raw().zrange(t().keys.connections(USER), 0, -1));
        assertEquals(List.of(c2), awaitValue(WAIT, "the renewed lease to be routed",
                () -> router.lookup(USER, LOOKUP), r -> r.live().size() == 1).live());
    }

    @Test
    default void theHeartbeatRenewsLeasesBeyondTheirFirstExpiry() throws Exception {
        NodeRegistry a = started("gw-a");
        a.register(USER, "c1").toCompletableFuture().get(2, TimeUnit.SECONDS);
        String key = t().keys.connections(USER);
        String member = "gw-a|" + a.incarnation() + "|c1";
        double firstExpiry = t().raw().zscore(key, member);
        RedisRouteLookup router = t().router();

        await(WAIT, "a renewal of the lease", () -> t().raw().zscore(key, member) > firstExpiry);
        await(WAIT, "the first lease to run out", () -> t().clock.millis() > (long) firstExpiry + 100);

        Routes routes = router.lookup(USER, LOOKUP);
        assertEquals(List.of("c1"), routes.connectionsByNode().get("gw-a"));
        assertEquals(List.of(), routes.stale());
    }

    @Test
    default void checksBetweenRenewalsRewriteNothingAndRestoreOnlyTheMemberRedisLost() throws Exception {
        NodeRegistryConfig config = FAST.withTimings(Duration.ofSeconds(60), Duration.ofSeconds(30), Duration.ofSeconds(2),
                Duration.ofMillis(250)).withVerifyInterval(Duration.ofMillis(200));
        io.micrometer.core.instrument.simple.SimpleMeterRegistry meters = new io.micrometer.core.instrument.simple.SimpleMeterRegistry();
        NodeRegistry a = t().node("gw-a", config, meters);
        a.start().toCompletableFuture().get(5, TimeUnit.SECONDS);
        StreamId other = StreamId.forUser("u-other");
        a.register(USER, "c1").toCompletableFuture().get(2, TimeUnit.SECONDS);
        a.register(other, "c2").toCompletableFuture().get(2, TimeUnit.SECONDS);
        String key = t().keys.connections(USER);
        String member = "gw-a|" + a.incarnation() + "|c1";
        String otherKey = t().keys.connections(other);
        String otherMember = "gw-a|" + a.incarnation() + "|c2";
        double score = t().raw().zscore(key, member);
        double otherScore = t().raw().zscore(otherKey, otherMember);
        long ttl = t().raw().pttl(key);
        io.micrometer.core.instrument.Timer checks = meters.get("notify.registry.renew.latency").tag("mode", "verify").timer();
        long checksBefore = checks.count();

        await(WAIT, "three read-only checks", () -> checks.count() >= checksBefore + 3);
        assertEquals(score, t().raw().zscore(key, member), "a check leaves the score (and so every router's cached copy) alone");
        assertTrue(t().raw().pttl(key) < ttl, "a check does not refresh the key's TTL either");
        assertEquals(0L, meters.get("notify.registry.renew.latency").tag("mode", "renew").timer().count(), "no renewal yet");

        t().raw().zrem(key, member); // lost behind the node's back (a failover, or a router's stale removal)
        await(WAIT, "the check to notice and write it again", () -> t().raw().zscore(key, member) != null);
        assertTrue(t().raw().zscore(key, member) > score);
        assertEquals(otherScore, t().raw().zscore(otherKey, otherMember), "only the missing member is written, not all");
        assertEquals(1.0, meters.get("notify.registry.verify.missing").counter().count());
        assertEquals(1L, meters.get("notify.registry.renew.latency").tag("mode", "reregister").timer().count(),
                "no re-registration beyond the first one at start");
    }

    @Test
    default void stopWithManyFlushesDoesNotSetTheLivenessKeyAgain() throws Exception {
        // a refresh is due 1 ms after the last, so every flush of the stop batch finds one due
        NodeRegistryConfig config = FAST.withTimings(Duration.ofMillis(2500), Duration.ofMillis(500), Duration.ofMillis(2000),
                Duration.ofMillis(1)).withBatchCommands(2);
        NodeRegistry a = t().node("gw-a", config);
        a.start().toCompletableFuture().get(5, TimeUnit.SECONDS);
        for (int i = 0; i < 400; i++) {
            a.register(StreamId.forUser("s" + i), "c" + i).toCompletableFuture().get(2, TimeUnit.SECONDS);
        }

        a.stop(); // 1 DEL + 400 ZREM, 2 per flush: 200 chances to set again a key that must stay gone

        assertEquals(0L, t().raw().exists(t().keys.alive("gw-a")));
        assertEquals(0L, t().raw().exists(t().keys.connections(StreamId.forUser("s399"))));
    }

    @Test
    default void stopDeletesTheLivenessKeyAndAllMembers() throws Exception {
        NodeRegistry a = started("gw-a");
        NodeRegistry c = started("gw-c");
        for (int i = 0; i < 50; i++) {
            a.register(StreamId.forUser("u" + i), "c" + i).toCompletableFuture().get(2, TimeUnit.SECONDS);
        }
        c.register(StreamId.forUser("u0"), "other").toCompletableFuture().get(2, TimeUnit.SECONDS);

        a.stop();

        assertEquals(0L, t().raw().exists(t().keys.alive("gw-a")));
        assertEquals(List.of("gw-c|" + c.incarnation() + "|other"), t().raw().zrange(t().keys.connections(StreamId.forUser("u0")), 0, -1));
        assertEquals(0L, t().raw().exists(t().keys.connections(StreamId.forUser("u1"))));
        assertEquals(0, a.registeredConnections());
    }

    @Test
    default void aRenewalOf20kConnectionsIsOnePipelinedBatch() throws Exception {
        NodeRegistryConfig config = NodeRegistryConfig.defaults().withTimings(Duration.ofSeconds(60),
                Duration.ofSeconds(2), Duration.ofSeconds(10), Duration.ofMillis(500));
        io.micrometer.core.instrument.simple.SimpleMeterRegistry meters = new io.micrometer.core.instrument.simple.SimpleMeterRegistry();
        NodeRegistry a = new NodeRegistry("gw-big", NodeRegistry.newIncarnation(), config, t().keys, t().client(), t().clock, meters);
        try {
            a.start().toCompletableFuture().get(5, TimeUnit.SECONDS);
            int n = 20_000;
            long begin = System.nanoTime();
            List<java.util.concurrent.CompletableFuture<Void>> chunk = new java.util.ArrayList<>();
            for (int i = 0; i < n; i++) {
                chunk.add(a.register(StreamId.forUser("big" + i), "c" + i).toCompletableFuture());
                if (chunk.size() == 1000) {
                    java.util.concurrent.CompletableFuture.allOf(chunk.toArray(java.util.concurrent.CompletableFuture[]::new)).get(10, TimeUnit.SECONDS);
                    chunk.clear();
                }
            }
            long registerMs = (System.nanoTime() - begin) / 1_000_000;
            double before = t().raw().zscore(t().keys.connections(StreamId.forUser("big" + (n - 1))), "gw-big|" + a.incarnation() + "|c" + (n - 1));
            io.micrometer.core.instrument.Timer renew = meters.get("notify.registry.renew.latency").tag("mode", "renew").timer();
            await(Duration.ofSeconds(10), "a renewal batch after the registrations",
                    () -> t().raw().zscore(t().keys.connections(StreamId.forUser("big" + (n - 1))),
                            "gw-big|" + a.incarnation() + "|c" + (n - 1)) > before && renew.count() > 0);
            assertEquals(n, a.registeredConnections());
            System.out.printf("registry: %d registrations in %d ms; renewal batch of %d leases (%d commands): max %.0f ms%n",
                    n, registerMs, n, 2 * n, renew.max(TimeUnit.MILLISECONDS));
        } finally {
            a.stop();
        }
        assertEquals(0L, t().raw().exists(t().keys.connections(StreamId.forUser("big7"))));
    }

    private NodeRegistry started(String nodeId) throws Exception {
        return t().started(nodeId, FAST);
    }
}
