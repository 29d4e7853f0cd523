package io.notify.registry.route;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class RouteLookupConfigTest {

    @Test
    void defaultsFollowTheArchitecture() {
        assertEquals(100_000, RouteLookupConfig.defaults().maxCachedKeys());
    }

    @Test
    void errorsNameTheSetting() {
        var e = assertThrows(IllegalArgumentException.class, () -> RouteLookupConfig.defaults().withMaxCachedKeys(0));
        assertTrue(e.getMessage().contains("maxCachedKeys"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> RouteLookupConfig.defaults().withChecks(Duration.ZERO, Duration.ofSeconds(1)));
        assertTrue(e.getMessage().contains("checkInterval"), e.getMessage());
    }
}
