package io.notify.gateway.support;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.notify.protocol.NotifyJson;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;

/**
 * HTTP calls to a {@link GatewayHarness} node for the inbox tests: every answer of an inbox route
 * is checked against docs/inbox-openapi.yaml ({@link InboxApiDoc}) before the test sees it.
 */
public final class InboxHttp {

    private static final InboxApiDoc DOC = InboxApiDoc.load();

    private final GatewayHarness gateway;

    public InboxHttp(GatewayHarness gateway) {
        this.gateway = gateway;
    }

    public HttpResponse<String> send(String method, String path, Map<String, String> headers, HttpRequest.BodyPublisher body) {
        HttpRequest.Builder b = HttpRequest.newBuilder(gateway.http(path)).method(method, body);
        headers.forEach(b::header);
        HttpResponse<String> response;
        try {
            response = WsClient.HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        if (path.startsWith("/v1/inbox") || path.startsWith("/v1/push")) {
            DOC.check(method, path, response);
        }
        return response;
    }

    /** A GET with a valid token of {@code user}. */
    public HttpResponse<String> get(String path, String user) {
        return send("GET", path, Map.of("Authorization", "Bearer " + gateway.tokens().valid(user)), HttpRequest.BodyPublishers.noBody());
    }

    /** A POST of {@code json} as {@code application/json} with a valid token of {@code user}. */
    public HttpResponse<String> post(String path, String user, String json) {
        return send("POST", path, Map.of("Authorization", "Bearer " + gateway.tokens().valid(user), "Content-Type", "application/json"),
                HttpRequest.BodyPublishers.ofString(json));
    }

    public static JsonNode json(HttpResponse<String> r) {
        try {
            return NotifyJson.mapper().readTree(r.body());
        } catch (Exception e) {
            throw new AssertionError("not JSON: " + r.body(), e);
        }
    }

    /** Asserts a problem answer: status, {@code urn:notify:problem:<slug>}, problem+json; returns its detail. */
    public static String problem(HttpResponse<String> r, int status, String slug) {
        assertEquals(status, r.statusCode(), r.body());
        assertTrue(r.headers().firstValue("Content-Type").orElse("").startsWith("application/problem+json"), r.headers().toString());
        assertEquals("urn:notify:problem:" + slug, json(r).path("type").asText(), r.body());
        return json(r).path("detail").asText();
    }
}
