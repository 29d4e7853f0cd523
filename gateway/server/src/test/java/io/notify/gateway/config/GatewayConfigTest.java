package io.notify.gateway.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.notify.common.config.ConfigException;
import io.notify.common.config.Settings;
import io.notify.gateway.support.TestConfig;
import java.util.Map;
import org.junit.jupiter.api.Test;

class GatewayConfigTest {

    @Test
    void theQueryApiServiceTokenIsRequiredAndSentAsABearerCredential() {
        GatewayConfig c = TestConfig.with(Map.of());
        assertEquals("Bearer " + TestConfig.QUERY_TOKEN, c.queryToken().authorization());
        assertFalse(c.toString().contains(TestConfig.QUERY_TOKEN), "a logged config shows no token");

        Map<String, String> without = TestConfig.base();
        without.remove(GatewayConfig.QUERY_TOKEN);
        assertEquals("notify.gateway.query-token: is required (or set NOTIFY_GATEWAY_QUERY_TOKEN)",
                assertThrows(ConfigException.class, () -> GatewayConfig.load(Settings.of(without))).getMessage());
        ConfigException tooShort = assertThrows(ConfigException.class,
                () -> TestConfig.with(Map.of(GatewayConfig.QUERY_TOKEN, "short-secret")));
        assertEquals("notify.gateway.query-token", tooShort.getMessage().substring(0, tooShort.getMessage().indexOf(':')));
        assertFalse(tooShort.getMessage().contains("short-secret"), "the error never shows the value");
    }
}
