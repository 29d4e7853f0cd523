package io.notify.gateway.inbox;

import io.notify.common.http.BodyReader;
import io.notify.common.http.HttpResponses;
import io.notify.common.http.Problem;
import io.notify.common.limits.TokenBucket;
import io.notify.gateway.admission.Cors;
import io.notify.gateway.admission.HandshakeGate;
import io.notify.gateway.auth.AuthResult;
import io.notify.gateway.config.InboxSettings;
import io.notify.gateway.metrics.InboxMetrics;
import io.notify.protocol.stream.StreamId;
import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import io.undertow.server.RequestTooBigException;
import io.undertow.util.Headers;
import io.undertow.util.Methods;
import io.undertow.util.SameThreadExecutor;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What every end-user request of the client port's REST API goes through, in this order, on the I/O
 * thread (the inbox API, push registrations): CORS and the preflight; the method (405); the
 * {@code Origin} and the JWT of {@code Authorization: Bearer} ({@link HandshakeGate#authenticateBearer}:
 * 403, 401, 503 without keys); the node's token bucket (503 {@code overloaded} + Retry-After, taken
 * only by authenticated requests). Then the action runs with the user's own stream {@code u:<sub>}:
 * the stream comes from the token, never from the request. Each refusal is problem+json and counted
 * in {@code inbox_requests_total{endpoint,outcome}}; every answer is {@code Cache-Control: no-store}.
 */
final class UserRequests {

    private static final Logger LOG = LoggerFactory.getLogger(UserRequests.class);
    private static final int UNAVAILABLE_RETRY_AFTER_SECONDS = 1;
    /** Undertow's own bound on a body, above {@link InboxSettings#MAX_BODY_BYTES}: only a backstop, it cuts without an answer. */
    private static final long ENTITY_BACKSTOP_BYTES = 64 * 1024;

    /** What a request does once it passed the checks. */
    @FunctionalInterface
    interface Action {
        void run(HttpServerExchange exchange, StreamId stream, String endpoint, long startNanos);
    }

    /** A body's bytes, once read within the bound. */
    @FunctionalInterface
    interface BodyAction {
        void run(HttpServerExchange exchange, byte[] body);
    }

    /** Turns the query API's 200 body into the user's. */
    @FunctionalInterface
    interface Body {
        byte[] of(byte[] queryApiBody) throws Exception;
    }

    private final HandshakeGate gate;
    private final Cors cors;
    private final TokenBucket requests;
    private final Duration queryDeadline;
    private final InboxMetrics metrics;
    private final String unavailableDetail;

    /** @param unavailableDetail what a 503 tells the user (never the internal reason, which may name hosts) */
    UserRequests(HandshakeGate gate, Cors cors, TokenBucket requests, Duration queryDeadline, InboxMetrics metrics,
                 String unavailableDetail) {
        this.gate = gate;
        this.cors = cors;
        this.requests = requests;
        this.queryDeadline = queryDeadline;
        this.metrics = metrics;
        this.unavailableDetail = unavailableDetail;
    }

    InboxMetrics metrics() {
        return metrics;
    }

    /** The handler of one route: the checks above, then {@code action}; {@code allowed} is what a 405 names. */
    HttpHandler handler(String method, String allowed, String endpoint, Action action) {
        return exchange -> {
            long t0 = System.nanoTime();
            cors.answerHeaders(exchange);
            if (exchange.getRequestMethod().equals(Methods.OPTIONS)) {
                metrics.request("preflight", cors.preflight(exchange, allowed + ", OPTIONS") ? "ok" : "origin", t0);
                return;
            }
            if (!exchange.getRequestMethod().toString().equals(method)) {
                exchange.getResponseHeaders().put(Headers.ALLOW, allowed + ", OPTIONS");
                refuse(exchange, endpoint, t0, "method_not_allowed",
                        Problem.of(405, "method-not-allowed", "Method not allowed", "use " + allowed));
                return;
            }
            exchange.getResponseHeaders().put(Headers.CACHE_CONTROL, "no-store");
            AuthResult.Authenticated user = gate.authenticateBearer(exchange, InboxEndpoints.TRANSPORT);
            if (user == null) { // answered: 403 origin, 401 token, 503 no keys
                int status = exchange.getStatusCode();
                metrics.request(endpoint, status == 403 ? "origin" : status == 401 ? "unauthorized" : "unavailable", t0);
                return;
            }
            // after the origin and the token: a request without them never spends what signed-in users need
            if (!requests.tryTake()) {
                exchange.getResponseHeaders().put(HttpResponses.RETRY_AFTER, Integer.toString(requests.retryAfterSeconds()));
                refuse(exchange, endpoint, t0, "rate_limited", Problem.of(503, "overloaded", "Too many requests",
                        "the node answers a bounded number of these requests per second; retry after the delay, with jitter"));
                return;
            }
            action.run(exchange, StreamId.forUser(user.userId()), endpoint, t0);
        };
    }

    /**
     * Reads a JSON body of at most {@link InboxSettings#MAX_BODY_BYTES} bytes, then {@code then}: 415
     * for another media type, 413 past the bound (after reading it, so the client reads the answer).
     */
    void jsonBody(HttpServerExchange exchange, String endpoint, long t0, BodyAction then) {
        if (!isJson(exchange.getRequestHeaders().getFirst(Headers.CONTENT_TYPE))) {
            refuse(exchange, endpoint, t0, "unsupported_media_type", Problem.of(415, "unsupported-media-type",
                    "Unsupported media type", "Content-Type must be application/json"));
            return;
        }
        // Undertow's own bound (it cuts a body past it without an answer) sits above the one BodyReader answers 413 at;
        // the node-wide MAX_ENTITY_SIZE of 0 is no bound at all in Undertow 2.4
        exchange.setMaxEntitySize((long) InboxSettings.MAX_BODY_BYTES * BodyReader.DRAIN_FACTOR + ENTITY_BACKSTOP_BYTES);
        BodyReader.read(exchange, InboxSettings.MAX_BODY_BYTES, then::run,
                ex -> tooLarge(ex, endpoint, t0),
                (ex, error) -> {
                    if (error instanceof RequestTooBigException) {
                        tooLarge(ex, endpoint, t0);
                    } else { // the client went away mid-body: nothing written, nobody to answer
                        metrics.request(endpoint, "client_gone", t0);
                        ex.endExchange();
                    }
                });
    }

    /**
     * Asks the query API once this handler has returned, and answers from its answer: a 200 as
     * {@code body} makes it, a 400 as it is, anything else 503.
     */
    void ask(HttpServerExchange exchange, String endpoint, long t0, Supplier<CompletionStage<InboxSource.Answer>> call, Body body) {
        exchange.dispatch(SameThreadExecutor.INSTANCE, () -> call.get().toCompletableFuture()
                .orTimeout(queryDeadline.toMillis(), TimeUnit.MILLISECONDS)
                .whenComplete((answer, error) -> {
                    if (answer instanceof InboxSource.Answer.Json json && json.status() == 200) {
                        byte[] out;
                        try {
                            out = body.of(json.body());
                        } catch (Exception e) {
                            unavailable(exchange, endpoint, t0, "unreadable query API answer: " + e.getMessage());
                            return;
                        }
                        metrics.request(endpoint, "ok", t0);
                        send(exchange, 200, "application/json", out);
                    } else if (answer instanceof InboxSource.Answer.Json json) {
                        metrics.request(endpoint, "bad_request", t0);
                        send(exchange, json.status(), Problem.CONTENT_TYPE, json.body());
                    } else {
                        unavailable(exchange, endpoint, t0, answer instanceof InboxSource.Answer.Unavailable u ? u.detail()
                                : "no answer: " + error);
                    }
                }));
    }

    /**
     * Runs {@code answer} once Kafka acknowledged the record {@code send} hands to a producer, within {@code deadline}
     * (503 otherwise; {@code send} null: the node has no producer for it). The exchange is already dispatched: the
     * answer comes from the producer's thread.
     */
    void afterWrite(HttpServerExchange exchange, String endpoint, long t0, Supplier<CompletionStage<Void>> send, Duration deadline,
                    Runnable answer) {
        if (send == null) {
            unavailable(exchange, endpoint, t0, "this node has no producer for " + endpoint);
            return;
        }
        send.get().toCompletableFuture()
                .orTimeout(deadline.toMillis(), TimeUnit.MILLISECONDS)
                .whenComplete((ok, error) -> {
                    if (error != null) {
                        unavailable(exchange, endpoint, t0, "the record was not acknowledged: " + error);
                        return;
                    }
                    metrics.request(endpoint, "ok", t0);
                    answer.run();
                });
    }

    private void tooLarge(HttpServerExchange exchange, String endpoint, long t0) {
        refuse(exchange, endpoint, t0, "body_too_large", Problem.of(413, "body-too-large", "Body too large",
                "a body may be at most " + InboxSettings.MAX_BODY_BYTES + " bytes"));
    }

    /** 503 + Retry-After; {@code why} goes to the debug log only (it may name internal hosts). */
    void unavailable(HttpServerExchange exchange, String endpoint, long t0, String why) {
        LOG.debug("{} answered 503: {}", endpoint, why);
        exchange.getResponseHeaders().put(HttpResponses.RETRY_AFTER, Integer.toString(UNAVAILABLE_RETRY_AFTER_SECONDS));
        refuse(exchange, endpoint, t0, "unavailable", Problem.of(503, "unavailable", "Service unavailable", unavailableDetail));
    }

    void refuse(HttpServerExchange exchange, String endpoint, long t0, String outcome, Problem problem) {
        metrics.request(endpoint, outcome, t0);
        HttpResponses.problem(exchange, problem);
    }

    static void send(HttpServerExchange exchange, int status, String contentType, byte[] body) {
        exchange.setStatusCode(status);
        exchange.getResponseHeaders().put(Headers.CONTENT_TYPE, contentType);
        exchange.getResponseHeaders().put(Headers.CONTENT_LENGTH, body.length);
        exchange.getResponseSender().send(ByteBuffer.wrap(body));
    }

    static boolean isJson(String contentType) {
        if (contentType == null) {
            return false;
        }
        int semi = contentType.indexOf(';');
        return (semi < 0 ? contentType : contentType.substring(0, semi)).trim().toLowerCase(Locale.ROOT).equals("application/json");
    }
}
