package io.notify.gateway.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.notify.common.config.ConfigException;
import io.notify.common.config.Settings;
import io.notify.gateway.support.TestConfig;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Settings of a node that have rules of their own: the query API's service token, the bounds of a fragmented message. */
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
    void connectTicketsLiveThirtySecondsAndAreBoundedByDefault() {
        GatewayConfig.Tickets tickets = TestConfig.with(Map.of()).tickets();
        assertEquals(Duration.ofSeconds(30), tickets.ttl());
        assertEquals(100_000, tickets.maxHeld());
        GatewayConfig.Tickets set = TestConfig.with(Map.of("notify.gateway.ticket-ttl", "5s", "notify.gateway.max-tickets", "10")).tickets();
        assertEquals(Duration.ofSeconds(5), set.ttl());
        assertEquals(10, set.maxHeld());
    }

    @Test
    void outOfBoundsValuesNameTheirKey() {
        for (Map.Entry<String, String> bad : Map.of(
                "notify.gateway.max-message-frames", "0",
                "notify.gateway.ticket-ttl", "500ms",
                "notify.gateway.max-tickets", "0",
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
        ConfigException ticketTooLong = assertThrows(ConfigException.class, () -> TestConfig.with(Map.of("notify.gateway.ticket-ttl", "6m")));
        assertTrue(ticketTooLong.getMessage().contains("notify.gateway.ticket-ttl"), ticketTooLong.getMessage());
    }
}
