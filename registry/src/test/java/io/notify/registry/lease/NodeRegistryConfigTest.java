package io.notify.registry.lease;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.notify.common.config.ConfigException;
import io.notify.common.config.Settings;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class NodeRegistryConfigTest {

    @Test
    void defaultsFollowTheArchitecture() {
        NodeRegistryConfig node = NodeRegistryConfig.defaults();
        assertEquals(Duration.ofMinutes(30), node.lease());
        assertEquals(Duration.ofMinutes(10), node.renewInterval());
        assertEquals(Duration.ofSeconds(15), node.verifyInterval());
        assertEquals(Duration.ofSeconds(4), node.aliveTtl());
        assertEquals(Duration.ofSeconds(1), node.aliveRefresh());
        assertEquals(Duration.ofMinutes(60), node.connectionsKeyTtl());
        assertEquals(Duration.ofSeconds(1), node.tick());
        NodeRegistryConfig fast = node.withTimings(Duration.ofSeconds(2), Duration.ofMillis(500), Duration.ofSeconds(1),
                Duration.ofMillis(600));
        assertEquals(Duration.ofMillis(500), fast.verifyInterval(), "a check never waits longer than a renewal");
        assertEquals(Duration.ofMillis(500), fast.tick());
    }

    @Test
    void errorsNameTheSetting() {
        var e = assertThrows(IllegalArgumentException.class, () -> NodeRegistryConfig.defaults()
                .withTimings(Duration.ofSeconds(10), Duration.ofSeconds(10), Duration.ofSeconds(5), Duration.ofSeconds(1)));
        assertTrue(e.getMessage().contains("renewInterval"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> NodeRegistryConfig.defaults()
                .withTimings(Duration.ofSeconds(10), Duration.ofSeconds(1), Duration.ofSeconds(1), Duration.ofSeconds(1)));
        assertTrue(e.getMessage().contains("aliveRefresh"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> NodeRegistryConfig.defaults().withBatchCommands(0));
        assertTrue(e.getMessage().contains("batchCommands"), e.getMessage());
    }

    @Test
    void loadedWithoutSettingsItIsTheDefaults() {
        assertEquals(NodeRegistryConfig.defaults(), NodeRegistryConfig.load(Settings.of(Map.of())));
    }

    @Test
    void shorterTimingsAreTaken() {
        NodeRegistryConfig c = NodeRegistryConfig.load(Settings.of(Map.of("notify.registry.lease", "12s",
                "notify.registry.renew-interval", "4s", "notify.registry.alive-ttl", "5s", "notify.registry.alive-refresh", "1s",
                "notify.registry.verify-interval", "2s")));
        assertEquals(Duration.ofSeconds(12), c.lease());
        assertEquals(Duration.ofSeconds(4), c.renewInterval());
        assertEquals(Duration.ofSeconds(5), c.aliveTtl());
        assertEquals(Duration.ofSeconds(1), c.aliveRefresh());
        assertEquals(Duration.ofSeconds(2), c.verifyInterval());
        assertEquals(Duration.ofSeconds(4), NodeRegistryConfig.load(Settings.of(Map.of("notify.registry.lease", "12s",
                "notify.registry.renew-interval", "4s"))).verifyInterval(), "the default check is at most the renewal");
    }

    @Test
    void aRenewalAsLongAsTheLeaseIsRefusedByName() {
        ConfigException e = assertThrows(ConfigException.class, () -> NodeRegistryConfig.load(Settings.of(Map.of(
                "notify.registry.lease", "10s", "notify.registry.renew-interval", "10s"))));
        assertEquals(true, e.getMessage().contains("notify.registry.renew-interval"), e.getMessage());
        assertThrows(ConfigException.class, () -> NodeRegistryConfig.load(Settings.of(Map.of(
                "notify.registry.alive-ttl", "2s", "notify.registry.alive-refresh", "3s"))));
    }
}
