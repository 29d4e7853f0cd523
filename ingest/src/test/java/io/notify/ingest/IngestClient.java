package io.notify.ingest;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** A small HTTP client for ingest ITs that checks every response against the OpenAPI contract. */
final class IngestClient {

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final String base;
    private final OpenApiContract contract;

    IngestClient(int port, OpenApiContract contract) {
        this.base = "http://127.0.0.1:" + port;
        this.contract = contract;
    }

    HttpResponse<String> post(String authorization, String contentType, String body) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + "/v1/events"))
                .timeout(Duration.ofSeconds(30))
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (authorization != null) {
            b.header("Authorization", authorization);
        }
        if (contentType != null) {
            b.header("Content-Type", contentType);
        }
        return send(b.build(), "post", "/v1/events");
    }

    /** {@code DELETE /v1/events/{id}} with a JSON body (checked against the path template). */
    HttpResponse<String> recallEvent(String authorization, String id, String body) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + "/v1/events/" + id)).timeout(Duration.ofSeconds(30))
                .method("DELETE", HttpRequest.BodyPublishers.ofString(body)).header("Content-Type", "application/json");
        if (authorization != null) {
            b.header("Authorization", authorization);
        }
        return send(b.build(), "delete", "/v1/events/{id}");
    }

    /** {@code POST /v1/recalls}. */
    HttpResponse<String> recall(String authorization, String body) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + "/v1/recalls")).timeout(Duration.ofSeconds(30))
                .POST(HttpRequest.BodyPublishers.ofString(body)).header("Content-Type", "application/json");
        if (authorization != null) {
            b.header("Authorization", authorization);
        }
        return send(b.build(), "post", "/v1/recalls");
    }

    HttpResponse<String> get(String path) {
        return send(HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(10)).GET().build(),
                "get", path);
    }

    private HttpResponse<String> send(HttpRequest request, String method, String path) {
        try {
            HttpResponse<String> r = http.send(request, HttpResponse.BodyHandlers.ofString());
            contract.check(method, path, r);
            return r;
        } catch (IOException e) {
            throw new AssertionError("request failed: " + request, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }
}
