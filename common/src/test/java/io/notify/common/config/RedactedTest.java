package io.notify.common.config;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

class RedactedTest {

    record Example(String host, String hmacSecret, String queryToken, Map<String, String> apiKeys, String redisUri,
                   Map<String, String> kafkaClient, int port) {
        @Override
        public String toString() {
            return Redacted.toString(this);
        }
    }

    @Test
    void secretsAreMaskedAndEverythingElseShown() {
        String s = new Example("0.0.0.0", "HMAC-SECRET-VALUE", "QUERY-TOKEN-VALUE", Map.of("orders", "PRODUCER-KEY-VALUE"),
                "redis://:REDIS-PASSWORD@r:6379", Map.of("security.protocol", "SASL_SSL",
                        "sasl.jaas.config", "JAAS-WITH-PASSWORD", "ssl.truststore.password", "TRUSTSTORE-PASSWORD"), 8081).toString();
        for (String secret : new String[] {"HMAC-SECRET-VALUE", "QUERY-TOKEN-VALUE", "PRODUCER-KEY-VALUE", "REDIS-PASSWORD",
                "JAAS-WITH-PASSWORD", "TRUSTSTORE-PASSWORD"}) {
            assertFalse(s.contains(secret), secret + " shown in " + s);
        }
        for (String shown : new String[] {"host=0.0.0.0", "port=8081", "security.protocol=SASL_SSL", "hmacSecret=***",
                "sasl.jaas.config=***"}) {
            assertTrue(s.contains(shown), shown + " missing from " + s);
        }
    }

    @Test
    void theServicesConfigsUseIt() {
        PlatformSettings p = PlatformSettings.load(Settings.of(Map.of("notify.redis.uri", "redis://:REDIS-PASSWORD@r:6379",
                "notify.kafka.client.sasl.jaas.config", "JAAS-WITH-PASSWORD")));
        assertFalse(p.toString().contains("REDIS-PASSWORD"), p.toString());
        assertFalse(p.toString().contains("JAAS-WITH-PASSWORD"), p.toString());
        assertTrue(p.toString().startsWith("PlatformSettings["), p.toString());
    }
}
