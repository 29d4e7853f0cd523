package io.notify.gateway.inbox;

import io.notify.common.http.BodyReader;
import io.notify.common.http.HttpResponses;
import io.notify.common.http.Problem;
import io.notify.gateway.admission.Cors;
import io.notify.gateway.admission.HandshakeGate;
import io.notify.gateway.admission.TokenBucket;
import io.notify.gateway.auth.AuthResult;
import io.notify.gateway.config.InboxSettings;
import io.notify.gateway.metrics.InboxMetrics;
import io.notify.gateway.receipts.ReceiptSink;
import io.notify.protocol.NotifyJson;
import io.notify.protocol.inbox.Receipt;
import io.notify.protocol.inbox.ReceiptKind;
import io.notify.protocol.stream.StreamId;
import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import io.undertow.server.RequestTooBigException;
import io.undertow.server.RoutingHandler;
import io.undertow.util.Headers;
import io.undertow.util.Methods;
import io.undertow.util.SameThreadExecutor;
import java.nio.ByteBuffer;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The end-user inbox API on the client port (docs/gateway.md, "Inbox API"; docs/inbox-openapi.yaml):
 * {@code GET /v1/inbox} (a page, newest first), {@code GET /v1/inbox/unread} (the counts) and
 * {@code POST /v1/inbox/read|seen|archive} (a mark, written to {@code notify.receipts}) and
 * {@code POST /v1/inbox/ack} (a device's ack, as an {@code ack} frame says it: for SSE clients). A user
 * reaches only their own stream {@code u:<sub>}: the stream comes from the token, never from the
 * request.
 *
 * <p>Checked in this order, on the I/O thread, each refusal answered problem+json and counted in
 * {@code inbox_requests_total{endpoint,outcome}}: the method (405); the {@code Origin} and the JWT of
 * {@code Authorization: Bearer} exactly as {@code POST /v1/tickets} checks them
 * ({@link HandshakeGate#authenticateBearer}: 403, 401, 503 without keys; counted in
 * {@code handshake_rejections_total{transport="inbox"}} too); the node's inbox token bucket
 * ({@code inbox.rate-per-second}, {@code inbox.burst}) → 503 {@code overloaded} + Retry-After, taken
 * only by authenticated requests, so a flood without a token cannot empty it; the parameters (400
 * {@code bad-request}) or, for a mark, the media type (415), the body's size (413, at most
 * {@value InboxSettings#MAX_BODY_BYTES} bytes) and content (400 {@code invalid-body}, the receipt's
 * own message). Nothing blocks: the query API's answer and Kafka's acknowledgement complete the
 * exchange from their own threads. A query API that no instance answers, or a mark Kafka does not
 * acknowledge within {@code inbox.produce-timeout}, is 503 {@code unavailable} + Retry-After; a mark
 * is answered 202 only once Kafka acknowledged it ({@code acks=all}). CORS as for tickets
 * ({@link Cors}); every answer is {@code Cache-Control: no-store}.
 */
public final class InboxEndpoints {

    static final String TRANSPORT = "inbox";
    private static final Logger LOG = LoggerFactory.getLogger(InboxEndpoints.class);
    private static final int UNAVAILABLE_RETRY_AFTER_SECONDS = 1;
    /** Undertow's own bound on a mark's body, above {@link InboxSettings#MAX_BODY_BYTES}: only a backstop, it cuts without an answer. */
    private static final long ENTITY_BACKSTOP_BYTES = 64 * 1024;

    /** The answer to an accepted mark. */
    public record Accepted(String stream, boolean accepted) {
    }

    @FunctionalInterface
    private interface Action {
        void run(HttpServerExchange exchange, StreamId stream, String endpoint, long startNanos);
    }

    private final HandshakeGate gate;
    private final Cors cors;
    private final TokenBucket requests;
    private final InboxSource source;
    private final ReceiptSink receipts;
    private final Duration queryDeadline;
    private final Duration produceDeadline;
    private final Clock clock;
    private final InboxMetrics metrics;

    /**
     * @param requests      the node-wide bucket of inbox requests
     * @param queryDeadline the longest a query API call may take in all (the source's own bound is shorter)
     */
    public InboxEndpoints(HandshakeGate gate, TokenBucket requests, InboxSource source, ReceiptSink receipts,
                          InboxSettings settings, Duration queryDeadline, Clock clock, InboxMetrics metrics) {
        this.gate = gate;
        this.cors = new Cors(gate, TRANSPORT, "GET, POST", "Authorization, Content-Type");
        this.requests = requests;
        this.source = source;
        this.receipts = receipts;
        this.queryDeadline = queryDeadline;
        this.produceDeadline = settings.produceTimeout().multipliedBy(2); // the producer's blocking and delivery timeouts
        this.clock = clock;
        this.metrics = metrics;
    }

    /** Adds the six routes; each also answers its CORS preflight and, with 405, the other of GET and POST. */
    public void addTo(RoutingHandler routes) {
        add(routes, "/v1/inbox", "GET", handler("GET", "inbox", this::page));
        add(routes, "/v1/inbox/unread", "GET", handler("GET", "unread", this::unread));
        // ack: what an ack frame says, for clients that cannot send frames (SSE), and their re-ack after a resume
        for (ReceiptKind kind : List.of(ReceiptKind.READ, ReceiptKind.SEEN, ReceiptKind.ARCHIVE, ReceiptKind.ACK)) {
            add(routes, "/v1/inbox/" + kind.wireName(), "POST",
                    handler("POST", kind.wireName(), (ex, stream, endpoint, t0) -> mark(ex, stream, kind, endpoint, t0)));
        }
    }

    private static void add(RoutingHandler routes, String path, String method, HttpHandler handler) {
        routes.add(method, path, handler).add("OPTIONS", path, handler).add(method.equals("GET") ? "POST" : "GET", path, handler);
    }

    private HttpHandler handler(String method, String endpoint, Action action) {
        return exchange -> {
            long t0 = System.nanoTime();
            cors.answerHeaders(exchange);
            if (exchange.getRequestMethod().equals(Methods.OPTIONS)) {
                metrics.request("preflight", cors.preflight(exchange, method + ", OPTIONS") ? "ok" : "origin", t0);
                return;
            }
            if (!exchange.getRequestMethod().toString().equals(method)) {
                exchange.getResponseHeaders().put(Headers.ALLOW, method + ", OPTIONS");
                refuse(exchange, endpoint, t0, "method_not_allowed",
                        Problem.of(405, "method-not-allowed", "Method not allowed", "use " + method));
                return;
            }
            exchange.getResponseHeaders().put(Headers.CACHE_CONTROL, "no-store");
            AuthResult.Authenticated user = gate.authenticateBearer(exchange, TRANSPORT);
            if (user == null) { // answered: 403 origin, 401 token, 503 no keys
                int status = exchange.getStatusCode();
                metrics.request(endpoint, status == 403 ? "origin" : status == 401 ? "unauthorized" : "unavailable", t0);
                return;
            }
            // after the origin and the token: a request without them never spends what signed-in users need
            if (!requests.tryTake()) {
                exchange.getResponseHeaders().put(HttpResponses.RETRY_AFTER, Integer.toString(requests.retryAfterSeconds()));
                refuse(exchange, endpoint, t0, "rate_limited", Problem.of(503, "overloaded", "Too many inbox requests",
                        "the node answers a bounded number of inbox requests per second; retry after the delay, with jitter"));
                return;
            }
            action.run(exchange, StreamId.forUser(user.userId()), endpoint, t0);
        };
    }

    private void page(HttpServerExchange exchange, StreamId stream, String endpoint, long t0) {
        InboxQuery query;
        try {
            query = InboxQuery.parse(exchange.getQueryParameters());
        } catch (IllegalArgumentException e) {
            refuse(exchange, endpoint, t0, "bad_request", Problem.of(400, "bad-request", "Bad request", e.getMessage()));
            return;
        }
        ask(exchange, endpoint, t0, () -> source.page(stream, query), ClientInboxPage::of);
    }

    private void unread(HttpServerExchange exchange, StreamId stream, String endpoint, long t0) {
        ask(exchange, endpoint, t0, () -> source.state(stream),
                body -> NotifyJson.mapper().writeValueAsBytes(InboxCounts.of(NotifyJson.mapper().readTree(body))));
    }

    @FunctionalInterface
    private interface Body {
        byte[] of(byte[] queryApiBody) throws Exception;
    }

    /**
     * Asks the query API once this handler has returned, and answers from its answer: a 200 as
     * {@code body} makes it, a 400 as it is, anything else 503.
     */
    private void ask(HttpServerExchange exchange, String endpoint, long t0, Supplier<CompletionStage<InboxSource.Answer>> call,
                     Body body) {
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

    private void mark(HttpServerExchange exchange, StreamId stream, ReceiptKind kind, String endpoint, long t0) {
        String contentType = exchange.getRequestHeaders().getFirst(Headers.CONTENT_TYPE);
        if (!isJson(contentType)) {
            refuse(exchange, endpoint, t0, "unsupported_media_type", Problem.of(415, "unsupported-media-type",
                    "Unsupported media type", "Content-Type must be application/json"));
            return;
        }
        // Undertow's own bound (it cuts a body past it without an answer) sits above the one BodyReader answers 413 at;
        // the node-wide MAX_ENTITY_SIZE of 0 is no bound at all in Undertow 2.4
        exchange.setMaxEntitySize((long) InboxSettings.MAX_BODY_BYTES * BodyReader.DRAIN_FACTOR + ENTITY_BACKSTOP_BYTES);
        BodyReader.read(exchange, InboxSettings.MAX_BODY_BYTES,
                (ex, body) -> marked(ex, stream, kind, body, endpoint, t0),
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

    private void marked(HttpServerExchange exchange, StreamId stream, ReceiptKind kind, byte[] body, String endpoint, long t0) {
        Receipt receipt;
        try {
            receipt = MarkRequest.receipt(stream, kind, body, clock.millis());
        } catch (IllegalArgumentException e) {
            refuse(exchange, endpoint, t0, "bad_request", Problem.of(400, "invalid-body", "Invalid body", e.getMessage()));
            return;
        }
        exchange.dispatch(SameThreadExecutor.INSTANCE, () -> receipts.send(receipt).toCompletableFuture()
                .orTimeout(produceDeadline.toMillis(), TimeUnit.MILLISECONDS)
                .whenComplete((ok, error) -> {
                    metrics.receipt(kind.wireName(), error == null ? "produced" : "failed", 1);
                    if (error != null) {
                        unavailable(exchange, endpoint, t0, "the receipt was not acknowledged: " + error);
                        return;
                    }
                    metrics.request(endpoint, "ok", t0);
                    HttpResponses.json(exchange, 202, new Accepted(stream.value(), true));
                }));
    }

    private void tooLarge(HttpServerExchange exchange, String endpoint, long t0) {
        refuse(exchange, endpoint, t0, "body_too_large", Problem.of(413, "body-too-large", "Body too large",
                "a mark's body may be at most " + InboxSettings.MAX_BODY_BYTES + " bytes"));
    }

    /** 503 + Retry-After; {@code why} goes to the debug log only (it may name internal hosts). */
    private void unavailable(HttpServerExchange exchange, String endpoint, long t0, String why) {
        LOG.debug("inbox {} answered 503: {}", endpoint, why);
        exchange.getResponseHeaders().put(HttpResponses.RETRY_AFTER, Integer.toString(UNAVAILABLE_RETRY_AFTER_SECONDS));
        refuse(exchange, endpoint, t0, "unavailable", Problem.of(503, "unavailable", "Service unavailable",
                "the inbox cannot be reached right now; retry after the delay (a mark may be sent again: marks are idempotent)"));
    }

    private void refuse(HttpServerExchange exchange, String endpoint, long t0, String outcome, Problem problem) {
        metrics.request(endpoint, outcome, t0);
        HttpResponses.problem(exchange, problem);
    }

    private static void send(HttpServerExchange exchange, int status, String contentType, byte[] body) {
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
