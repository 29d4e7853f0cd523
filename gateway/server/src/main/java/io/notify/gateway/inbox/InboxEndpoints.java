package io.notify.gateway.inbox;

import io.notify.common.http.HttpResponses;
import io.notify.common.http.Problem;
import io.notify.common.limits.TokenBucket;
import io.notify.gateway.admission.Cors;
import io.notify.gateway.admission.HandshakeGate;
import io.notify.gateway.config.InboxSettings;
import io.notify.gateway.metrics.InboxMetrics;
import io.notify.gateway.receipts.ReceiptSink;
import io.notify.protocol.NotifyJson;
import io.notify.protocol.inbox.Receipt;
import io.notify.protocol.inbox.ReceiptKind;
import io.notify.protocol.stream.StreamId;
import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import io.undertow.server.RoutingHandler;
import io.undertow.util.SameThreadExecutor;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

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
 * ({@link Cors}); every answer is {@code Cache-Control: no-store}. The checks common to every user
 * request are {@link UserRequests}.
 */
public final class InboxEndpoints {

    static final String TRANSPORT = "inbox";

    /** The answer to an accepted mark. */
    public record Accepted(String stream, boolean accepted) {
    }

    private final UserRequests requests;
    private final InboxSource source;
    private final ReceiptSink receipts;
    private final Duration produceDeadline;
    private final Clock clock;
    private final InboxMetrics metrics;

    /**
     * @param requests      the node-wide bucket of inbox requests
     * @param queryDeadline the longest a query API call may take in all (the source's own bound is shorter)
     */
    public InboxEndpoints(HandshakeGate gate, TokenBucket requests, InboxSource source, ReceiptSink receipts,
                          InboxSettings settings, Duration queryDeadline, Clock clock, InboxMetrics metrics) {
        this.requests = new UserRequests(gate, new Cors(gate, TRANSPORT, "GET, POST", "Authorization, Content-Type"), requests,
                queryDeadline, metrics,
                "the inbox cannot be reached right now; retry after the delay (a mark may be sent again: marks are idempotent)");
        this.source = source;
        this.receipts = receipts;
        this.produceDeadline = settings.produceTimeout().multipliedBy(2); // the producer's blocking and delivery timeouts
        this.clock = clock;
        this.metrics = metrics;
    }

    /** Adds the six routes; each also answers its CORS preflight and, with 405, the other of GET and POST. */
    public void addTo(RoutingHandler routes) {
        add(routes, "/v1/inbox", "GET", "inbox", this::page);
        add(routes, "/v1/inbox/unread", "GET", "unread", this::unread);
        // ack: what an ack frame says, for clients that cannot send frames (SSE), and their re-ack after a resume
        for (ReceiptKind kind : List.of(ReceiptKind.READ, ReceiptKind.SEEN, ReceiptKind.ARCHIVE, ReceiptKind.ACK)) {
            add(routes, "/v1/inbox/" + kind.wireName(), "POST", kind.wireName(),
                    (ex, stream, endpoint, t0) -> mark(ex, stream, kind, endpoint, t0));
        }
    }

    private void add(RoutingHandler routes, String path, String method, String endpoint, UserRequests.Action action) {
        HttpHandler handler = requests.handler(method, method, endpoint, action);
        routes.add(method, path, handler).add("OPTIONS", path, handler).add(method.equals("GET") ? "POST" : "GET", path, handler);
    }

    private void page(HttpServerExchange exchange, StreamId stream, String endpoint, long t0) {
        InboxQuery query;
        try {
            query = InboxQuery.parse(exchange.getQueryParameters());
        } catch (IllegalArgumentException e) {
            requests.refuse(exchange, endpoint, t0, "bad_request", Problem.of(400, "bad-request", "Bad request", e.getMessage()));
            return;
        }
        requests.ask(exchange, endpoint, t0, () -> source.page(stream, query), ClientInboxPage::of);
    }

    private void unread(HttpServerExchange exchange, StreamId stream, String endpoint, long t0) {
        requests.ask(exchange, endpoint, t0, () -> source.state(stream),
                body -> NotifyJson.mapper().writeValueAsBytes(InboxCounts.of(NotifyJson.mapper().readTree(body))));
    }

    private void mark(HttpServerExchange exchange, StreamId stream, ReceiptKind kind, String endpoint, long t0) {
        requests.jsonBody(exchange, endpoint, t0, (ex, body) -> marked(ex, stream, kind, body, endpoint, t0));
    }

    private void marked(HttpServerExchange exchange, StreamId stream, ReceiptKind kind, byte[] body, String endpoint, long t0) {
        Receipt receipt;
        try {
            receipt = MarkRequest.receipt(stream, kind, body, clock.millis());
        } catch (IllegalArgumentException e) {
            requests.refuse(exchange, endpoint, t0, "bad_request", Problem.of(400, "invalid-body", "Invalid body", e.getMessage()));
            return;
        }
        exchange.dispatch(SameThreadExecutor.INSTANCE, () -> receipts.send(receipt).toCompletableFuture()
                .orTimeout(produceDeadline.toMillis(), TimeUnit.MILLISECONDS)
                .whenComplete((ok, error) -> {
                    metrics.receipt(kind.wireName(), error == null ? "produced" : "failed", 1);
                    if (error != null) {
                        requests.unavailable(exchange, endpoint, t0, "the receipt was not acknowledged: " + error);
                        return;
                    }
                    metrics.request(endpoint, "ok", t0);
                    HttpResponses.json(exchange, 202, new Accepted(stream.value(), true));
                }));
    }
}
