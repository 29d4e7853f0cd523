package io.notify.registry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lettuce.core.cluster.api.sync.RedisAdvancedClusterCommands;
import io.notify.devstack.Infra;
import io.notify.devstack.NotifyInfraExtension;
import io.notify.devstack.RedisCluster;
import io.notify.protocol.stream.StreamId;
import io.notify.registry.lease.NodeRegistry;
import io.notify.registry.route.RedisRouteLookup;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@link RegistryContract} on a real 3-master Redis Cluster (six redis-server processes from
 * devstack, one cluster for the class, a key prefix per test), plus what only a cluster shows: the
 * registry's keys of many users spread over all three masters, and every operation still exact there.
 */
@ExtendWith(NotifyInfraExtension.class)
class RegistryClusterIT implements RegistryContract {

    private static RedisCluster cluster;
    private RegistryTesting t;

    @BeforeAll
    static void startCluster() {
        cluster = RedisCluster.start();
    }

    @AfterAll
    static void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @BeforeEach
    void openRegistry(Infra infra) {
        t = new RegistryTesting(cluster.uris(), true, infra.prefix());
    }

    @AfterEach
    void closeRegistry() {
        t.close();
    }

    @Override
    public RegistryTesting t() {
        return t;
    }

    @Test
    void usersOnAllThreeMastersAreRegisteredRoutedFencedAndRemoved() throws Exception {
        NodeRegistry a = t.started("gw-a", RegistryTesting.FAST);
        NodeRegistry b = t.started("gw-b", RegistryTesting.FAST);
        int users = 300;
        List<CompletableFuture<Void>> writes = new ArrayList<>();
        for (int i = 0; i < users; i++) {
            writes.add(a.register(StreamId.forUser("cu" + i), "ca" + i).toCompletableFuture());
            writes.add(b.register(StreamId.forUser("cu" + i), "cb" + i).toCompletableFuture());
        }
        CompletableFuture.allOf(writes.toArray(CompletableFuture[]::new)).get(10, TimeUnit.SECONDS);
        RedisAdvancedClusterCommands<String, String> raw = (RedisAdvancedClusterCommands<String, String>) t.raw();
        for (int port : cluster.masterPorts()) {
            long held = raw.getConnection("127.0.0.1", port).keys(t.keys.prefix() + "nf:conns:*").size();
            assertTrue(held > users / 10, "master " + port + " holds a share of the " + users + " users' sets, held " + held);
        }

        RedisRouteLookup router = t.router();
        for (int i = 0; i < users; i++) {
            Routes routes = router.lookup(StreamId.forUser("cu" + i), Duration.ofSeconds(1));
            assertEquals(Map.of("gw-a", List.of("ca" + i), "gw-b", List.of("cb" + i)), routes.connectionsByNode(), "user cu" + i);
        }

        io.notify.registry.lease.LeaseTesting.haltHeartbeat(b); // b dies: its members turn stale on every master
        Routes stale = RegistryTesting.awaitValue(Duration.ofSeconds(5), "gw-b's members to turn stale",
                () -> router.lookup(StreamId.forUser("cu0"), Duration.ofSeconds(1)), r -> r.stale().size() == 1);
        assertEquals(Map.of("gw-a", List.of("ca0")), stale.connectionsByNode());
        for (int i = 0; i < users; i++) {
            StreamId user = StreamId.forUser("cu" + i);
            Routes routes = router.lookup(user, Duration.ofSeconds(1));
            assertEquals(List.of(new ConnectionRef("gw-b", b.incarnation(), "cb" + i)), routes.stale(), "user cu" + i);
            assertEquals(1L, router.removeStaleAsync(user, routes.stale()).toCompletableFuture().get(2, TimeUnit.SECONDS));
        }

        a.stop();
        for (int i = 0; i < users; i += 7) {
            assertEquals(0L, raw.exists(t.keys.connections(StreamId.forUser("cu" + i))), "user cu" + i);
        }
    }
}
