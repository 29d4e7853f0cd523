package io.notify.registry;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class RegistryClientsTest {

    @Test
    void aCommandTimeoutMustBePositive() {
        var e = assertThrows(IllegalArgumentException.class, () -> RegistryClients.options(Duration.ZERO));
        assertTrue(e.getMessage().contains("timeout"), e.getMessage());
    }

    @Test
    void severalServersNeedClusterModeAndEverySeedMustBeGiven() {
        var standalone = assertThrows(IllegalArgumentException.class,
                () -> RegistryClients.create("redis://a:6379,redis://b:6379", false, Duration.ofSeconds(1)));
        assertTrue(standalone.getMessage().contains("notify.redis.cluster=true"), standalone.getMessage());
        var blank = assertThrows(IllegalArgumentException.class,
                () -> RegistryClients.create("redis://a:6379,,redis://b:6379", true, Duration.ofSeconds(1)));
        assertTrue(blank.getMessage().contains("empty seed node"), blank.getMessage());
    }

    @Test
    void aClusterClientFollowsFailoversQuickly() {
        var refresh = RegistryClients.TOPOLOGY_REFRESH;
        assertTrue(refresh.isPeriodicRefreshEnabled());
        assertTrue(refresh.getAdaptiveRefreshTimeout().compareTo(Duration.ofSeconds(1)) <= 0);
        assertTrue(refresh.getAdaptiveRefreshTriggers().containsAll(java.util.EnumSet.allOf(
                io.lettuce.core.cluster.ClusterTopologyRefreshOptions.RefreshTrigger.class)));
        try (RegistryRedis redis = RegistryClients.create("redis://127.0.0.1:1,redis://127.0.0.1:2", true, Duration.ofSeconds(1))) {
            assertTrue(redis.cluster(), "no connection is opened before connect()");
            // a command in flight at a disconnect is failed, never sent again after the reconnect
            assertTrue(redis.options().getReplayFilter().test(null), "the cluster client keeps the replay filter");
        }
        try (RegistryRedis redis = RegistryClients.create("redis://127.0.0.1:1", false, Duration.ofSeconds(1))) {
            assertTrue(redis.options().getReplayFilter().test(null), "so does the standalone one");
        }
    }
}
