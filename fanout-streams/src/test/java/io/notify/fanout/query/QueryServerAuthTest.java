package io.notify.fanout.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.notify.common.auth.BearerKeys;
import io.notify.common.auth.ServiceToken;
import io.notify.protocol.NotifyJson;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The query API's gate, on a real listener without Kafka (a server not yet attached to its app
 * answers every admitted query 503): what a caller without a valid service token gets, what a
 * rotated pair lets in, and what stays open.
 */
class QueryServerAuthTest {

    private static final String OLD = "old-query-token-0123456789";
    private static final String NEW = "new-query-token-0123456789";
    private static final String BATCH = "{\"requests\":[{\"stream\":\"u:other\",\"after\":0}]}";

    private final PrometheusMeterRegistry meters = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final QueryServer server = new QueryServer("127.0.0.1", 0, "127.0.0.1", "127.0.0.1", 0,
            BearerKeys.numbered(List.of(new ServiceToken(OLD), new ServiceToken(NEW))), meters);
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @AfterEach
    void stop() {
        server.close();
    }

    private HttpResponse<String> get(String path, String authorization) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path))
                .timeout(Duration.ofSeconds(5));
        if (authorization != null) {
            b.header("Authorization", authorization);
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> batch(String authorization) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/v1/streams:events"))
                .timeout(Duration.ofSeconds(5)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(BATCH));
        if (authorization != null) {
            b.header("Authorization", authorization);
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void withoutAValidServiceTokenEveryQueryIsA401Problem() throws Exception {
        for (String authorization : new String[] {null, "Bearer wrong-query-token-0123456789", "Basic b2xkOnRva2Vu", OLD,
                "Bearer " + OLD + "x", "Bearer " + OLD.substring(1)}) {
            for (HttpResponse<String> r : List.of(get("/v1/streams/u:other/events?after=0", authorization),
                    get("/v1/streams/u:other", authorization), batch(authorization))) {
                String what = r.request().method() + " " + r.request().uri().getPath() + " with " + authorization;
                assertEquals(401, r.statusCode(), what);
                assertEquals("Bearer", r.headers().firstValue("WWW-Authenticate").orElse(null), what);
                assertEquals("application/problem+json", r.headers().firstValue("Content-Type").orElse(null), what);
                JsonNode problem = NotifyJson.mapper().readTree(r.body());
                assertEquals("urn:notify:problem:unauthorized", problem.get("type").asText(), what);
                assertEquals("Unauthorized", problem.get("title").asText(), what);
                assertEquals(401, problem.get("status").asInt(), what);
                assertFalse(r.body().contains("query-token"), "no token is echoed: " + r.body());
            }
        }
        assertEquals(6, refused("events"));
        assertEquals(6, refused("head"));
        assertEquals(6, refused("batch"));
        assertEquals(0, meters.find("notify.fanout.query.token.uses").counters().size(), "nothing was let in");
    }

    @Test
    void bothTokensOfARotationAreLetInAndCountedByPosition() throws Exception {
        // Past the gate, a server not attached to a running app answers 503: the request reached the handlers.
        assertEquals(503, get("/v1/streams/u:other/events?after=0", "Bearer " + OLD).statusCode());
        assertEquals(503, get("/v1/streams/u:other", "bearer " + NEW).statusCode());
        HttpResponse<String> b = batch("Bearer " + NEW);
        assertEquals(200, b.statusCode(), b.body());
        assertEquals(503, NotifyJson.mapper().readTree(b.body()).get("results").get(0).get("error").get("status").asInt());
        assertEquals(1.0, meters.get("notify.fanout.query.token.uses").tag("token", "1").counter().count());
        assertEquals(2.0, meters.get("notify.fanout.query.token.uses").tag("token", "2").counter().count());
        assertEquals(0, refused("events") + refused("head") + refused("batch"));
        assertFalse(meters.scrape().contains("query-token"), "no token in the metrics");
    }

    @Test
    void healthReadinessAndMetricsNeedNoTokenAndMetricsAreOnlyOnTheManagementPort() throws Exception {
        assertEquals(200, get("/healthz", null).statusCode());
        assertEquals(503, get("/readyz", null).statusCode(), "not ready (no app attached), but not refused");
        assertEquals(404, get("/metrics", null).statusCode(), "the query port does not show /metrics");
        HttpResponse<String> metrics = http.send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + server.managementPort() + "/metrics")).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, metrics.statusCode());
        assertEquals(404, get("/v1/nothing", null).statusCode());
    }

    private long refused(String kind) {
        return meters.find("notify.fanout.query.requests").tag("kind", kind).tag("outcome", "unauthorized").timers().stream()
                .mapToLong(t -> t.count()).sum();
    }

    @Test
    void aConnectionThatSendsNoRequestIsClosedAfterTheIdleTimeout() throws Exception {
        try (QueryServer quick = new QueryServer("127.0.0.1", 0, "127.0.0.1", "127.0.0.1", 0,
                BearerKeys.numbered(List.of(new ServiceToken(OLD))), meters, null, Duration.ofMillis(500));
             java.net.Socket idle = new java.net.Socket("127.0.0.1", quick.port())) {
            idle.setSoTimeout(10_000);
            long opened = System.nanoTime();
            assertEquals(-1, idle.getInputStream().read(), "closed by the server without a word");
            long heldMs = (System.nanoTime() - opened) / 1_000_000;
            assertTrue(heldMs < 5_000, "held " + heldMs + " ms with a 500 ms idle timeout");
        }
    }
}
