package io.notify.ingest.http;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.notify.ingest.http.CorsHandler.Verdict;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class CorsHandlerTest {

    private final CorsHandler cors = new CorsHandler(Set.of("http://localhost:8081", "http://127.0.0.1:8082"), ex -> { });

    @Test
    void allowedOriginIsEchoedExactlyAndItsPreflightAnsweredHere() {
        assertEquals(Verdict.ANNOTATE, cors.verdict("POST", "http://localhost:8081", null));
        assertEquals(Map.of("Access-Control-Allow-Origin", "http://localhost:8081", "Vary", "Origin",
                        "Access-Control-Expose-Headers", "Retry-After"),
                CorsHandler.headers(Verdict.ANNOTATE, "http://localhost:8081"));

        assertEquals(Verdict.PREFLIGHT, cors.verdict("OPTIONS", "http://127.0.0.1:8082", "POST"));
        assertEquals(Map.of("Access-Control-Allow-Origin", "http://127.0.0.1:8082", "Vary", "Origin",
                        "Access-Control-Allow-Methods", "POST",
                        "Access-Control-Allow-Headers", "Authorization, Content-Type",
                        "Access-Control-Max-Age", "600"),
                CorsHandler.headers(Verdict.PREFLIGHT, "http://127.0.0.1:8082"));
    }

    @Test
    void otherOriginsGetNoCorsHeadersAndTheirPreflightIsRefused() {
        // exact match only: another port, scheme or host is another origin
        for (String origin : new String[] {"http://localhost:8082", "https://localhost:8081", "http://localhost:8081/",
                "http://evil.example", "null"}) {
            assertEquals(Verdict.PASS, cors.verdict("POST", origin, null), origin);
            assertEquals(Verdict.REFUSE_PREFLIGHT, cors.verdict("OPTIONS", origin, "POST"), origin);
        }
        assertEquals(Map.of(), CorsHandler.headers(Verdict.PASS, "http://evil.example"));
        assertEquals(Map.of(), CorsHandler.headers(Verdict.REFUSE_PREFLIGHT, "http://evil.example"));
    }

    @Test
    void requestsWithoutOriginAndPlainOptionsPassThrough() {
        assertEquals(Verdict.PASS, cors.verdict("POST", null, null)); // curl, services
        assertEquals(Verdict.PASS, cors.verdict("OPTIONS", null, "POST"));
        assertEquals(Verdict.ANNOTATE, cors.verdict("OPTIONS", "http://localhost:8081", null)); // not a preflight
    }
}
