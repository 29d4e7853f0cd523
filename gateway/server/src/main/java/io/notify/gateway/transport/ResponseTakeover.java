package io.notify.gateway.transport;

import io.undertow.server.AbstractServerConnection;
import io.undertow.server.HttpServerExchange;
import io.undertow.server.protocol.http.HttpServerConnection;
import java.lang.reflect.Field;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.xnio.ChannelListener;
import org.xnio.StreamConnection;

/**
 * Takes an HTTP/1.1 response that never ends (an SSE stream) away from Undertow once its status
 * line and headers are on the wire, as the WebSocket upgrade does for a 101: the socket gets back
 * the conduits it had before HTTP wrapped them, Undertow's HTTP connection lets go of it
 * ({@link CloseListeners}), and the exchange — request and response headers, conduits, the HTTP
 * connection and its read listener, about 2.4 KB per idle stream — is garbage. The response must
 * be close-delimited (not persistent, so no chunked framing: Undertow answers it with
 * {@code Connection: close} and writes the body as is), and everything written so far flushed.
 *
 * <p>Undertow has no public way to forget a response in progress: its HTTP connection ends the
 * exchange it holds as current when the socket closes (writing the response's end), so the
 * takeover clears that field first. If a future Undertow has no such field, or the connection is
 * not HTTP/1.1, {@link #detach} says no and the stream stays Undertow's response (correct, only
 * heavier), said once in the log.
 */
final class ResponseTakeover {

    private static final Logger LOG = LoggerFactory.getLogger(ResponseTakeover.class);
    private static final Field CURRENT = PrivateFields.find(AbstractServerConnection.class, "current", HttpServerExchange.class, LOG,
            "each SSE stream keeps its HTTP exchange's objects");

    private ResponseTakeover() {
    }

    /**
     * Detaches {@code exchange}'s socket from Undertow, making {@code closeListener} its only close
     * listener. I/O thread only, with the response flushed. Returns the socket, or null when it
     * cannot be taken over (the exchange then stays as it was).
     */
    static StreamConnection detach(HttpServerExchange exchange, ChannelListener<? super StreamConnection> closeListener) {
        if (CURRENT == null || !(exchange.getConnection() instanceof HttpServerConnection http) || exchange.isPersistent()) {
            return null;
        }
        StreamConnection socket = http.getChannel();
        try {
            CURRENT.set(http, null); // so Undertow's close handling does not end the exchange (write its end)
        } catch (IllegalAccessException | RuntimeException e) {
            return null;
        }
        http.clearChannel(); // the socket's own conduits again, without the response's
        socket.getSourceChannel().setReadListener(null);
        socket.getSinkChannel().setWriteListener(null);
        CloseListeners.takeOver(socket, closeListener);
        return socket;
    }
}
