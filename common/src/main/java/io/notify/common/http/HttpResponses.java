package io.notify.common.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.notify.protocol.NotifyJson;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.Headers;
import io.undertow.util.HttpString;
import java.nio.ByteBuffer;

/**
 * Writes JSON and problem+json answers with Undertow's asynchronous sender, so it is safe from
 * I/O threads, worker threads and Kafka callback threads alike. Every answer ends the exchange.
 */
public final class HttpResponses {

    public static final HttpString RETRY_AFTER = new HttpString("Retry-After");

    private HttpResponses() {
    }

    public static void json(HttpServerExchange exchange, int status, Object body) {
        send(exchange, status, "application/json", body);
    }

    public static void problem(HttpServerExchange exchange, Problem problem) {
        send(exchange, problem.status(), Problem.CONTENT_TYPE, problem);
    }

    /** A 503 (or 429) that tells the client when to come back. */
    public static void retryLater(HttpServerExchange exchange, Problem problem, int retryAfterSeconds) {
        exchange.getResponseHeaders().put(RETRY_AFTER, Integer.toString(retryAfterSeconds));
        problem(exchange, problem);
    }

    public static void text(HttpServerExchange exchange, int status, String contentType, String body) {
        exchange.setStatusCode(status);
        exchange.getResponseHeaders().put(Headers.CONTENT_TYPE, contentType);
        exchange.getResponseSender().send(body);
    }

    private static void send(HttpServerExchange exchange, int status, String contentType, Object body) {
        byte[] bytes;
        try {
            // The wire contract's mapper: java.time values, NON_NULL — the same JSON as on the topics.
            bytes = NotifyJson.mapper().writeValueAsBytes(body);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot serialize response body " + body.getClass().getName(), e);
        }
        exchange.setStatusCode(status);
        exchange.getResponseHeaders().put(Headers.CONTENT_TYPE, contentType);
        exchange.getResponseHeaders().put(Headers.CONTENT_LENGTH, bytes.length);
        exchange.getResponseSender().send(ByteBuffer.wrap(bytes));
    }
}
