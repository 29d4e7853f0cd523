package io.notify.gateway.handshake;

import io.notify.common.http.HttpResponses;
import io.notify.common.http.Problem;
import io.notify.common.limits.TokenBucket;
import io.notify.gateway.admission.HandshakeGate;
import io.notify.gateway.auth.AuthResult;
import io.notify.gateway.config.GatewayConfig;
import io.notify.gateway.disconnect.Disconnect;
import io.notify.gateway.session.ConnectionIds;
import io.notify.gateway.session.Session;
import io.notify.gateway.session.SessionContext;
import io.notify.gateway.transport.OutboundQueue;
import io.notify.gateway.transport.WebSocketTransport;
import io.notify.gateway.transport.WsCodec;
import io.notify.protocol.frame.CloseCode;
import io.notify.protocol.frame.WelcomeFrame;
import io.undertow.connector.PooledByteBuffer;
import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import io.undertow.server.HttpUpgradeListener;
import io.undertow.server.protocol.http.HttpServerConnection;
import io.undertow.util.AttachmentKey;
import io.undertow.util.Headers;
import io.undertow.util.Methods;
import io.undertow.websockets.WebSocketProtocolHandshakeHandler;
import io.undertow.websockets.core.protocol.Handshake;
import io.undertow.websockets.core.protocol.version13.Hybi13Handshake;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import org.xnio.StreamConnection;

/**
 * {@code GET /v1/ws}: admission and authentication at the handshake (before the upgrade), then
 * the upgrade with subprotocol {@code notify.v1} and no extensions (so no permessage-deflate and
 * no inflation bomb), then a {@link Session} of the device named by {@code ?device=} ({@link DeviceParam}).
 * Refusals before the upgrade are HTTP statuses (400 without the subprotocol or with a malformed
 * device id, 401, 403, 503); the per-user connection limit is answered after the upgrade with close
 * 4009, as docs/protocol.md documents.
 *
 * <p>The upgrade goes through one shared {@link HttpUpgradeListener}, and the socket it hands
 * over is framed by {@link WebSocketTransport} itself: Undertow's callback path registers a fresh
 * listener per handshake that captures the exchange, and its WebSocket channel keeps the HTTP
 * connection (through the socket's close listener), two blocking deques, locks and a buffer view
 * per connection; none of that outlives the upgrade here (docs/gateway.md, "Where an idle
 * connection's bytes go"). Undertow still does the handshake itself (key, accept, subprotocol).
 */
public final class WebSocketEndpoint implements HttpHandler {

    private static final AttachmentKey<AuthResult.Authenticated> USER = AttachmentKey.create(AuthResult.Authenticated.class);
    private static final AttachmentKey<String> DEVICE = AttachmentKey.create(String.class);

    private final HandshakeGate gate;
    private final SessionContext ctx;
    private final ConnectionIds ids;
    private final Handshake handshake = new Hybi13Handshake(Set.of(WelcomeFrame.PROTOCOL_V1), false);
    private final WebSocketProtocolHandshakeHandler upgrade;
    private final WsCodec codec;
    private final Consumer<Disconnect> limitHit;

    public WebSocketEndpoint(HandshakeGate gate, SessionContext ctx, ConnectionIds ids) {
        this.gate = gate;
        this.ctx = ctx;
        this.ids = ids;
        this.upgrade = new WebSocketProtocolHandshakeHandler(List.of(handshake), (HttpUpgradeListener) this::upgraded);
        GatewayConfig.Limits limits = ctx.config().limits();
        this.codec = new WsCodec(limits.maxFrameBytes(), limits.maxMessageFrames(), limits.messageTimeout());
        this.limitHit = limit -> ctx.metrics().limitHit(limit.slug());
    }

    @Override
    public void handleRequest(HttpServerExchange exchange) throws Exception {
        if (!exchange.getRequestMethod().equals(Methods.GET)) {
            HttpResponses.problem(exchange, Problem.of(405, "method-not-allowed", "Method not allowed", "use GET"));
            return;
        }
        if (!gate.admit(exchange, "ws")) {
            return;
        }
        String upgradeHeader = exchange.getRequestHeaders().getFirst(Headers.UPGRADE);
        if (upgradeHeader == null || !upgradeHeader.equalsIgnoreCase("websocket")) {
            gate.refuse(exchange, "ws", "not_websocket");
            HttpResponses.problem(exchange, Problem.of(400, "not-websocket", "WebSocket upgrade expected",
                    "GET /v1/ws must be a WebSocket handshake"));
            return;
        }
        if (!offersSubprotocol(exchange.getRequestHeaders().get(Headers.SEC_WEB_SOCKET_PROTOCOL))) {
            gate.refuse(exchange, "ws", "subprotocol");
            HttpResponses.problem(exchange, Problem.of(400, "subprotocol-required", "Subprotocol required",
                    "offer Sec-WebSocket-Protocol: " + WelcomeFrame.PROTOCOL_V1));
            return;
        }
        String device = DeviceParam.admit(exchange, gate, "ws");
        if (device == null) {
            return;
        }
        AuthResult.Authenticated user = gate.authenticate(exchange, "ws");
        if (user == null || !gate.take(exchange, "ws")) {
            return;
        }
        exchange.putAttachment(USER, user);
        exchange.putAttachment(DEVICE, device);
        upgrade.handleRequest(exchange);
    }

    private static boolean offersSubprotocol(Iterable<String> headerValues) {
        if (headerValues == null) {
            return false;
        }
        for (String value : headerValues) {
            for (String p : value.split(",")) {
                if (p.trim().equals(WelcomeFrame.PROTOCOL_V1)) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * The one upgrade listener of every connection: nothing of the exchange or of the HTTP
     * connection outlives this call. Bytes the client sent right behind its handshake (Undertow
     * read them with the request) go to the transport, and the socket gets back the conduits it
     * had before HTTP wrapped them, so no wrapper keeps the HTTP connection reachable.
     */
    private void upgraded(StreamConnection connection, HttpServerExchange exchange) {
        AuthResult.Authenticated user = exchange.getAttachment(USER);
        String device = exchange.getAttachment(DEVICE);
        byte[] early = null;
        if (exchange.getConnection() instanceof HttpServerConnection http) {
            PooledByteBuffer extra = http.getExtraBytes();
            if (extra != null) {
                ByteBuffer b = extra.getBuffer();
                early = new byte[b.remaining()];
                b.get(early);
                extra.close();
                http.setExtraBytes(null);
            }
            connection.getSourceChannel().setConduit(http.getOriginalSourceConduit());
            connection.getSinkChannel().setConduit(http.getOriginalSinkConduit());
        }
        GatewayConfig.Limits limits = ctx.config().limits();
        WebSocketTransport transport = new WebSocketTransport(connection,
                new OutboundQueue(limits.queueMaxMessages(), limits.queueMaxBytes()), codec,
                TokenBucket.system(limits.inboundRatePerSecond(), limits.inboundBurst()), limitHit, early);
        if (user == null) { // cannot happen: handleRequest attaches it before upgrading
            transport.start(); // no listener: what the client sends is read and ignored
            transport.close(CloseCode.POLICY_VIOLATION);
            return;
        }
        if (!ctx.limiter().tryAcquire(user.userId())) {
            ctx.metrics().limitHit(Disconnect.CONNECTIONS_PER_USER.slug());
            ctx.metrics().handshakeRejected("ws", "too_many_connections");
            transport.start();
            transport.close(Disconnect.CONNECTIONS_PER_USER.answer());
            return;
        }
        new Session(ids.next(), user, DeviceParam.orNull(device), transport, ctx).open(); // starts the transport's reads
    }
}
