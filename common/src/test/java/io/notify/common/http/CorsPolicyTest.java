package io.notify.common.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class CorsPolicyTest {

    private final CorsPolicy policy = new CorsPolicy(Set.of("https://app.example")::contains, "GET, POST",
            "Authorization, Content-Type", "Retry-After");

    @Test
    void anAllowedOriginIsEchoedExactlyWithTheHeadersItMayRead() {
        assertEquals(CorsPolicy.Verdict.ALLOWED, policy.verdict("https://app.example"));
        assertEquals(Map.of("Vary", "Origin", "Access-Control-Allow-Origin", "https://app.example",
                "Access-Control-Expose-Headers", "Retry-After"), policy.answerHeaders("https://app.example"));
        assertEquals(Map.of("Access-Control-Allow-Methods", "GET, POST", "Access-Control-Allow-Headers", "Authorization, Content-Type",
                "Access-Control-Max-Age", "600"), policy.preflightHeaders());
    }

    @Test
    void anyOtherOriginGetsOnlyVary() {
        for (String origin : new String[] {"https://app.example:443", "http://app.example", "https://app.example/", "null", "https://evil.example"}) {
            assertEquals(CorsPolicy.Verdict.REFUSED, policy.verdict(origin), origin);
            assertEquals(Map.of("Vary", "Origin"), policy.answerHeaders(origin), origin);
        }
        assertEquals(CorsPolicy.Verdict.NO_ORIGIN, policy.verdict(null));
        assertEquals(Map.of("Vary", "Origin"), policy.answerHeaders(null));
    }

    @Test
    void aPreflightIsAnOptionsThatNamesTheMethodItWillUse() {
        assertTrue(CorsPolicy.isPreflight("OPTIONS", "POST"));
        assertFalse(CorsPolicy.isPreflight("OPTIONS", null));
        assertFalse(CorsPolicy.isPreflight("POST", "POST"));
    }
}
