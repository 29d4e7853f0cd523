package io.notify.client.internal;

import io.notify.client.TransportMode;
import io.notify.client.reconnect.Disconnect;
import io.notify.protocol.frame.ClientFrame;
import io.notify.protocol.frame.FrameCodec;
import io.notify.protocol.frame.WelcomeFrame;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A {@code notify.v1} WebSocket on {@code java.net.http}. Reads one message at a time (the next is
 * requested only when the loop has handled the previous one), serialises sends (java.net.http
 * allows one outstanding send), and maps every way the connection can end to one
 * {@link Disconnect}: a close frame to {@code Closed(code)}, an I/O error to {@code Closed(1006)},
 * a refused handshake to {@code Refused(status, Retry-After)}, a failed connect to
 * {@code Unreachable}. Control pings are answered by java.net.http itself; the application
 * {@code ping} frames by the loop.
 */
public final class WebSocketTransport implements Transport, WebSocket.Listener {

    static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(2);

    private final TransportEvents events;
    private final AtomicBoolean ended = new AtomicBoolean();
    private final StringBuilder partial = new StringBuilder();
    private volatile WebSocket socket;
    private volatile boolean closing;
    private CompletableFuture<?> sends = CompletableFuture.completedFuture(null); // loop thread only

    private WebSocketTransport(TransportEvents events) {
        this.events = events;
    }

    /** Starts the handshake; the outcome arrives through {@code events}. */
    public static WebSocketTransport connect(HttpClient http, URI uri, String token, Duration timeout, TransportEvents events) {
        WebSocketTransport t = new WebSocketTransport(events);
        http.newWebSocketBuilder()
                .subprotocols(WelcomeFrame.PROTOCOL_V1)
                .header("Authorization", "Bearer " + token)
                .connectTimeout(timeout)
                .buildAsync(uri, t)
                .whenComplete((ws, error) -> t.handshakeDone(ws, error));
        return t;
    }

    private void handshakeDone(WebSocket ws, Throwable error) {
        if (error != null) {
            end(Handshakes.classify(error, true));
            return;
        }
        socket = ws;
        if (closing) {
            ws.abort();
        } else if (!WelcomeFrame.PROTOCOL_V1.equals(ws.getSubprotocol())) {
            ws.abort(); // upgraded, but not to notify.v1: something in between speaks WebSocket, not Notify
            end(new Disconnect.Refused(101, java.util.Optional.empty(), true, "subprotocol '" + ws.getSubprotocol() + "'"));
        }
    }

    @Override
    public TransportMode mode() {
        return TransportMode.WEBSOCKET;
    }

    @Override
    public boolean canSend() {
        return true;
    }

    @Override
    public void send(ClientFrame frame) {
        WebSocket ws = socket;
        if (ws == null || closing || ws.isOutputClosed()) {
            return;
        }
        String text = FrameCodec.v1().encode(frame);
        sends = sends.handle((r, e) -> null).thenCompose(x -> ws.sendText(text, true));
    }

    @Override
    public void close() {
        closing = true;
        ended.set(true);
        WebSocket ws = socket;
        if (ws == null) {
            return; // handshakeDone aborts it
        }
        if (ws.isOutputClosed()) {
            ws.abort();
            return;
        }
        sends.handle((r, e) -> null)
                .thenCompose(x -> ws.sendClose(WebSocket.NORMAL_CLOSURE, "client closing"))
                .orTimeout(CLOSE_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
                .whenComplete((r, e) -> ws.abort());
    }

    @Override
    public void onOpen(WebSocket webSocket) {
        socket = webSocket;
        if (WelcomeFrame.PROTOCOL_V1.equals(webSocket.getSubprotocol())) {
            events.opened(); // before the first frame is requested: the loop sees it first
        }
        webSocket.request(1);
    }

    @Override
    public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
        partial.append(data);
        if (partial.length() > FrameCodec.MAX_SERVER_FRAME_CHARS) {
            webSocket.abort();
            end(new Disconnect.BadFrame("frame over " + FrameCodec.MAX_SERVER_FRAME_CHARS + " chars"));
            return null;
        }
        if (!last) {
            webSocket.request(1);
            return null;
        }
        String text = partial.toString();
        partial.setLength(0);
        events.frame(text).whenComplete((v, e) -> webSocket.request(1));
        return null;
    }

    @Override
    public CompletionStage<?> onBinary(WebSocket webSocket, ByteBuffer data, boolean last) {
        webSocket.abort();
        end(new Disconnect.BadFrame("binary frame"));
        return null;
    }

    @Override
    public CompletionStage<?> onClose(WebSocket webSocket, int statusCode, String reason) {
        end(new Disconnect.Closed(statusCode, reason));
        return null; // java.net.http answers the close frame
    }

    @Override
    public void onError(WebSocket webSocket, Throwable error) {
        end(new Disconnect.Closed(1006, Handshakes.rootMessage(error)));
    }

    private void end(Disconnect why) {
        if (ended.compareAndSet(false, true)) {
            events.ended(why);
        }
    }

}
