package io.notify.gateway.handshake;

import io.notify.gateway.transport.SseFraming;
import io.notify.gateway.transport.SseTransport;
import io.notify.common.http.HttpResponses;
import io.notify.common.http.Problem;
import io.notify.gateway.admission.HandshakeGate;
import io.notify.gateway.admission.Limit;
import io.notify.gateway.auth.AuthResult;
import io.notify.gateway.transport.OutboundFrame;
import io.notify.gateway.transport.OutboundQueue;
import io.notify.gateway.session.ConnectionIds;
import io.notify.gateway.session.Session;
import io.notify.gateway.session.SessionContext;
import io.notify.schemas.stream.Position;
import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.Headers;
import io.undertow.util.HttpString;
import io.undertow.util.Methods;
import io.undertow.util.SameThreadExecutor;
import java.util.Deque;

/**
 * {@code GET /v1/sse}: the same admission and authentication as WebSocket, then an event stream
 * whose position comes from {@code Last-Event-ID} (the header wins) or {@code ?lastEventId=}.
 * Answers: 400 for a malformed position, 429 + Retry-After over the per-user connection limit (an
 * SSE response cannot carry a close code), otherwise 200 and {@code retry:} first, then the
 * session's frames.
 */
public final class SseEndpoint implements HttpHandler {

    public static final String LAST_EVENT_ID_PARAM = "lastEventId";
    private static final HttpString LAST_EVENT_ID = new HttpString("Last-Event-ID");
    private static final int TOO_MANY_RETRY_AFTER_SECONDS = 5;

    private final HandshakeGate gate;
    private final SessionContext ctx;
    private final ConnectionIds ids;

    public SseEndpoint(HandshakeGate gate, SessionContext ctx, ConnectionIds ids) {
        this.gate = gate;
        this.ctx = ctx;
        this.ids = ids;
    }

    @Override
    public void handleRequest(HttpServerExchange exchange) {
        if (!exchange.getRequestMethod().equals(Methods.GET)) {
            HttpResponses.problem(exchange, Problem.of(405, "method-not-allowed", "Method not allowed", "use GET"));
            return;
        }
        if (!gate.admit(exchange, "sse")) {
            return;
        }
        AuthResult.Authenticated user = gate.authenticate(exchange, "sse");
        if (user == null) {
            return;
        }
        Position position;
        try {
            position = position(exchange);
        } catch (IllegalArgumentException e) {
            gate.refuse(exchange, "sse", "bad_last_event_id");
            HttpResponses.problem(exchange, Problem.of(400, "bad-last-event-id", "Bad Last-Event-ID", e.getMessage()));
            return;
        }
        if (!ctx.limiter().tryAcquire(user.userId())) {
            ctx.metrics().limitHit(Limit.CONNECTIONS_PER_USER.slug());
            gate.refuse(exchange, "sse", "too_many_connections");
            HttpResponses.retryLater(exchange, Problem.of(429, "too-many-connections", "Too many connections",
                    "this user holds the maximum number of connections on this node"), TOO_MANY_RETRY_AFTER_SECONDS);
            return;
        }
        String origin = exchange.getRequestHeaders().getFirst(Headers.ORIGIN);
        if (origin != null) { // allowed, or the gate would have refused it
            exchange.getResponseHeaders().put(new HttpString("Access-Control-Allow-Origin"), origin);
            exchange.getResponseHeaders().put(Headers.VARY, "Origin");
        }
        exchange.setStatusCode(200);
        exchange.getResponseHeaders().put(Headers.CONTENT_TYPE, "text/event-stream; charset=UTF-8");
        exchange.getResponseHeaders().put(Headers.CACHE_CONTROL, "no-cache");
        exchange.getResponseHeaders().put(new HttpString("X-Accel-Buffering"), "no");
        exchange.setPersistent(false);
        // the stream lives for hours: it keeps no request headers, query string (the token, if sent as
        // ?access_token=) or parameters, which nothing reads after this point
        exchange.getRequestHeaders().clear();
        exchange.getQueryParameters().clear();
        exchange.setQueryString("");
        SseTransport transport = new SseTransport(exchange,
                new OutboundQueue(ctx.config().limits().queueMaxMessages(), ctx.config().limits().queueMaxBytes()),
                ctx.config().sseKeepAlive());
        // dispatched so the exchange stays open after this handler returns; runs right after it, on this I/O thread
        exchange.dispatch(SameThreadExecutor.INSTANCE, () -> {
            transport.send(OutboundFrame.sseMeta(SseFraming.retry(ctx.config().sseRetry().toMillis()), null));
            new Session(ids.next(), user, transport, ctx).open(position);
        });
    }

    /** The client's position: Last-Event-ID header, else the query parameter; null when absent or empty. */
    static Position position(HttpServerExchange exchange) {
        String value = exchange.getRequestHeaders().getFirst(LAST_EVENT_ID);
        if (value == null) {
            Deque<String> q = exchange.getQueryParameters().get(LAST_EVENT_ID_PARAM);
            value = q == null ? null : q.getFirst();
        }
        return value == null || value.isBlank() ? null : Position.parse(value.trim());
    }
}
