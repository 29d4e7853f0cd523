package io.notify.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.notify.common.config.ConfigException;
import io.notify.common.config.Settings;
import io.notify.gateway.config.GatewayConfig;
import io.notify.gateway.registry.InMemoryRegistrar;
import io.notify.gateway.support.TestConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class GatewayServiceTest {

    @Test
    void everyCallerGetsTheRegistryConfigFromSettings() {
        // before GatewayService only GatewayMain read notify.registry.*; the other wirings ran on defaults
        Map<String, String> m = TestConfig.base();
        m.put("notify.registry.alive-ttl", "2s");
        m.put("notify.registry.alive-refresh", "3s");
        ConfigException e = assertThrows(ConfigException.class, () -> GatewayService.fromSettings(Settings.of(m)));
        assertTrue(e.getMessage().contains("notify.registry.alive-refresh"), e.getMessage());
    }

    @Test
    void doublesReplaceTheRealPartsAndAreGivenTheNodesConfig() {
        Map<String, String> m = TestConfig.base();
        m.put("notify.gateway.node-id", "gw-doubles");
        List<GatewayConfig> seen = new ArrayList<>();
        InMemoryRegistrar registrar = new InMemoryRegistrar();
        GatewayServer server = GatewayService.fromSettings(Settings.of(m), new GatewayService.Doubles((config, metrics) -> {
            seen.add(config);
            return registrar;
        }, null, null));
        assertEquals(1, seen.size());
        assertSame(server.config(), seen.get(0));
        assertEquals("gw-doubles", server.config().nodeId());
    }
}
