package io.notify.gateway.support;

import io.notify.common.config.Settings;
import io.notify.gateway.config.GatewayConfig;
import java.util.HashMap;
import java.util.Map;

/** Gateway configurations for tests: defaults plus overrides, through the real loader. */
public final class TestConfig {

    public static final String ISSUER = "https://auth.test";
    public static final String AUDIENCE = "notify-test";
    /** The query API service token the test gateways send, and {@link QueryApiStub} requires. */
    public static final String QUERY_TOKEN = "test-query-token-0123456789";

    private TestConfig() {
    }

    public static Map<String, String> base() {
        Map<String, String> m = new HashMap<>();
        m.put("notify.gateway.node-id", "gw-test");
        m.put("notify.gateway.port", "0");
        m.put("notify.gateway.host", "127.0.0.1");
        m.put("notify.gateway.io-threads", "2");
        m.put("notify.gateway.jwt.hmac-secret", "0123456789abcdef0123456789abcdef");
        m.put("notify.gateway.jwt.issuer", ISSUER);
        m.put("notify.gateway.jwt.audience", AUDIENCE);
        m.put("notify.gateway.query-url", "http://127.0.0.1:9");
        m.put("notify.gateway.query-token", QUERY_TOKEN);
        m.put("notify.gateway.sweep-interval", "20ms");
        return m;
    }

    public static GatewayConfig with(Map<String, String> overrides) {
        Map<String, String> m = base();
        m.putAll(overrides);
        return GatewayConfig.load(Settings.of(m));
    }
}
