package io.notify.registry.lease;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
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
}
