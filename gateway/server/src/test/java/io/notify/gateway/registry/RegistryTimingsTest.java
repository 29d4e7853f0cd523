package io.notify.gateway.registry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.notify.common.config.ConfigException;
import io.notify.common.config.Settings;
import io.notify.registry.lease.NodeRegistryConfig;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RegistryTimingsTest {

    @Test
    void defaultsAreTheRegistryDefaults() {
        assertEquals(NodeRegistryConfig.defaults(), RegistryTimings.load(Settings.of(Map.of())));
    }

    @Test
    void shorterTimingsAreTaken() {
        NodeRegistryConfig c = RegistryTimings.load(Settings.of(Map.of("notify.registry.lease", "12s",
                "notify.registry.renew-interval", "4s", "notify.registry.alive-ttl", "5s", "notify.registry.alive-refresh", "1s",
                "notify.registry.verify-interval", "2s")));
        assertEquals(Duration.ofSeconds(12), c.lease());
        assertEquals(Duration.ofSeconds(4), c.renewInterval());
        assertEquals(Duration.ofSeconds(5), c.aliveTtl());
        assertEquals(Duration.ofSeconds(1), c.aliveRefresh());
        assertEquals(Duration.ofSeconds(2), c.verifyInterval());
        assertEquals(Duration.ofSeconds(4), RegistryTimings.load(Settings.of(Map.of("notify.registry.lease", "12s",
                "notify.registry.renew-interval", "4s"))).verifyInterval(), "the default check is at most the renewal");
    }

    @Test
    void aRenewalAsLongAsTheLeaseIsRefusedByName() {
        ConfigException e = assertThrows(ConfigException.class, () -> RegistryTimings.load(Settings.of(Map.of(
                "notify.registry.lease", "10s", "notify.registry.renew-interval", "10s"))));
        assertEquals(true, e.getMessage().contains("notify.registry.renew-interval"), e.getMessage());
        assertThrows(ConfigException.class, () -> RegistryTimings.load(Settings.of(Map.of(
                "notify.registry.alive-ttl", "2s", "notify.registry.alive-refresh", "3s"))));
    }
}
