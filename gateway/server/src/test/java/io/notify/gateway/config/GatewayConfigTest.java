package io.notify.gateway.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.notify.common.config.ConfigException;
import io.notify.common.config.Settings;
import io.notify.gateway.support.TestConfig;
import java.time.Duration;
import java.util.List;
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
    void collapseIsOffByDefaultAndTakesUpTo64TypePatterns() {
        CollapseSettings off = TestConfig.with(Map.of()).collapse();
        assertFalse(off.on());
        assertFalse(off.collapses("order.status"));
        CollapseSettings on = TestConfig.with(Map.of(CollapseSettings.KEY, "order.status, *.progress")).collapse();
        assertEquals(List.of("order.status", "*.progress"), on.types());
        assertTrue(on.collapses("order.status"));
        assertTrue(on.collapses("upload.progress"));
        assertTrue(on.collapses(".progress"), "the star takes the empty run too");
        assertFalse(on.collapses("order.status.v2"), "anchored at both ends");
        assertFalse(on.collapses("order.shipped"));

        String many = String.join(",", java.util.Collections.nCopies(CollapseSettings.MAX_PATTERNS, "a.*"));
        assertEquals(CollapseSettings.MAX_PATTERNS, TestConfig.with(Map.of(CollapseSettings.KEY, many)).collapse().types().size());
        for (String bad : List.of(many + ",b.*", "order status", "order/status", "x".repeat(CollapseSettings.MAX_PATTERN_CHARS + 1))) {
            ConfigException e = assertThrows(ConfigException.class, () -> TestConfig.with(Map.of(CollapseSettings.KEY, bad)));
            assertTrue(e.getMessage().startsWith(CollapseSettings.KEY + ":"), e.getMessage());
        }
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
