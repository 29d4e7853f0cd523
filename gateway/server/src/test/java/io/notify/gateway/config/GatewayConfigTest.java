package io.notify.gateway.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.notify.common.config.ConfigException;
import io.notify.gateway.support.TestConfig;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The bounds of a fragmented inbound message: defaults, and errors that name their key. */
class GatewayConfigTest {

    @Test
    void aFragmentedMessageIsBoundedByDefault() {
        GatewayConfig.Limits limits = TestConfig.with(Map.of()).limits();
        assertEquals(16, limits.maxMessageFrames());
        assertEquals(Duration.ofSeconds(10), limits.messageTimeout());
        GatewayConfig.Limits set = TestConfig.with(Map.of("notify.gateway.max-message-frames", "1",
                "notify.gateway.message-timeout", "250ms")).limits();
        assertEquals(1, set.maxMessageFrames());
        assertEquals(Duration.ofMillis(250), set.messageTimeout());
    }

    @Test
    void outOfBoundsValuesNameTheirKey() {
        for (Map.Entry<String, String> bad : Map.of(
                "notify.gateway.max-message-frames", "0",
                "notify.gateway.message-timeout", "10ms").entrySet()) {
            ConfigException e = assertThrows(ConfigException.class, () -> TestConfig.with(Map.of(bad.getKey(), bad.getValue())));
            assertTrue(e.getMessage().contains(bad.getKey()), e.getMessage());
        }
        ConfigException unbounded = assertThrows(ConfigException.class,
                () -> TestConfig.with(Map.of("notify.gateway.max-message-frames", "1025")));
        assertTrue(unbounded.getMessage().contains("notify.gateway.max-message-frames"), unbounded.getMessage());
        ConfigException tooLong = assertThrows(ConfigException.class,
                () -> TestConfig.with(Map.of("notify.gateway.message-timeout", "6m")));
        assertTrue(tooLong.getMessage().contains("notify.gateway.message-timeout"), tooLong.getMessage());
    }
}
