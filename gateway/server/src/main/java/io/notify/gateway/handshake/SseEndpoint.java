package io.notify.gateway.handshake;

import io.notify.common.http.HttpResponses;
import io.notify.common.http.Problem;
import io.notify.gateway.admission.HandshakeGate;
import io.notify.gateway.auth.AuthResult;
import io.notify.gateway.disconnect.Disconnect;
import io.notify.gateway.session.ConnectionIds;
import io.notify.gateway.session.Session;
import io.notify.gateway.session.SessionContext;
import io.notify.gateway.transport.OutboundQueue;
import io.notify.gateway.transport.SseStart;
import io.notify.gateway.transport.SseTransport;
import io.notify.protocol.event.Recipients;
import io.notify.protocol.stream.StreamId;
import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.Headers;
import io.undertow.util.HttpString;
import io.undertow.util.Methods;
import io.undertow.util.SameThreadExecutor;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * {@code GET /v1/sse}: the same admission, device id ({@link DeviceParam}) and authentication as
 * WebSocket, then an event stream whose position comes from {@code Last-Event-ID} (the header wins)
 * or {@code ?lastEventId=}. Answers: 400 for a malformed position, rooms list or device id,
 * 429 + Retry-After over the per-user connection limit (an
 * SSE response cannot carry a close code), otherwise 200 and an {@link SseTransport} started by its
 * session: the {@code retry:} hint first, then the session's frames.
 */
public final class SseEndpoint implements HttpHandler {

    public static final String LAST_EVENT_ID_PARAM = "lastEventId";
    /** Rooms to subscribe to, comma-separated room names (docs/protocol.md §8, "SSE"). */
    public static final String ROOMS_PARAM = "rooms";
    /** {@code true}: subscribe to {@code b:all} too. */
    public static final String BROADCAST_PARAM = "broadcast";
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
        String device = DeviceParam.admit(exchange, gate, "sse");
        if (device == null) {
            return;
        }
        AuthResult.Authenticated user = gate.authenticate(exchange, "sse");
        if (user == null || !gate.take(exchange, "sse")) {
            return;
        }
        List<StreamId> subscriptions;
        try {
            subscriptions = subscriptions(exchange, ctx.config().rooms().maxSubscriptions());
        } catch (IllegalArgumentException e) {
            gate.refuse(exchange, "sse", "bad_rooms");
            HttpResponses.problem(exchange, Problem.of(400, "bad-rooms", "Bad rooms", e.getMessage()));
            return;
        }
        SseStart start;
        try {
            start = SseStart.of(lastEventId(exchange), StreamId.forUser(user.userId()), subscriptions);
        } catch (IllegalArgumentException e) {
            gate.refuse(exchange, "sse", "bad_last_event_id");
            HttpResponses.problem(exchange, Problem.of(400, "bad-last-event-id", "Bad Last-Event-ID", e.getMessage()));
            return;
        }
        if (!ctx.limiter().tryAcquire(user.userId())) {
            ctx.metrics().limitHit(Disconnect.CONNECTIONS_PER_USER.slug());
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
                ctx.config().sseKeepAlive(), ctx.config().sseRetry(), start);
        // dispatched so the exchange stays open after this handler returns; runs right after it, on this I/O thread
        exchange.dispatch(SameThreadExecutor.INSTANCE,
                () -> new Session(ids.next(), user, DeviceParam.orNull(device), transport, ctx).open());
    }

    /** Last-Event-ID header, else the query parameter; null when absent or blank. */
    static String lastEventId(HttpServerExchange exchange) {
        String value = exchange.getRequestHeaders().getFirst(LAST_EVENT_ID);
        if (value == null) {
            Deque<String> q = exchange.getQueryParameters().get(LAST_EVENT_ID_PARAM);
            value = q == null ? null : q.getFirst();
        }
        return value == null || value.isBlank() ? null : value.trim();
    }

    /**
     * The rooms of {@code ?rooms=a,b} (room names, comma-separated, also over several parameters) and
     * {@code b:all} when {@code ?broadcast=true}: checked as names and against the bound here (400);
     * permission is the session's, answered per room with {@code subscribe_refused}.
     */
    static List<StreamId> subscriptions(HttpServerExchange exchange, int max) {
        List<StreamId> out = new ArrayList<>();
        Deque<String> rooms = exchange.getQueryParameters().get(ROOMS_PARAM);
        if (rooms != null) {
            for (String list : rooms) {
                for (String name : list.split(",", -1)) {
                    if (!Recipients.isRoom(name)) {
                        throw new IllegalArgumentException("rooms: '" + (name.length() > 40 ? name.substring(0, 40) + "…" : name)
                                + "' is not a room name (1..128 chars of [A-Za-z0-9._:-])");
                    }
                    StreamId room = StreamId.forRoom(name);
                    if (!out.contains(room)) {
                        out.add(room);
                    }
                }
            }
        }
        Deque<String> broadcast = exchange.getQueryParameters().get(BROADCAST_PARAM);
        if (broadcast != null && "true".equals(broadcast.getFirst())) {
            out.add(StreamId.BROADCAST);
        }
        if (out.size() > max) {
            throw new IllegalArgumentException(out.size() + " subscriptions; this node allows at most " + max
                    + " per connection (notify.gateway.rooms.max-subscriptions)");
        }
        return out;
    }
}
