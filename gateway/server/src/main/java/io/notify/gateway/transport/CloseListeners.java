package io.notify.gateway.transport;

import java.lang.reflect.Field;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.xnio.ChannelListener;
import org.xnio.StreamConnection;

/**
 * Hands an upgraded socket's close handling over to its new owner. The socket's close listener is
 * Undertow's HTTP connection (its close setter): it takes the connection out of the server's
 * open-connection set and cancels its timers. Left in place it keeps the HTTP connection and
 * everything it holds reachable for the WebSocket's whole life, about 0.7 KB per idle connection
 * (docs/gateway.md, "Where an idle connection's bytes go"). So the takeover runs that cleanup at
 * once — the socket stays open; Undertow's HTTP side is simply done with it — and makes the new
 * owner the only close listener. XNIO's {@link StreamConnection#setCloseListener} only merges, and
 * has no public way to replace, so the swap is done in XNIO's private field; if a future XNIO has
 * no such field, it falls back to the merge (correct, only heavier) and says so once. Upgraded
 * sockets are then closed by their owner, and by the XNIO worker when the server stops.
 */
final class CloseListeners {

    private static final Logger LOG = LoggerFactory.getLogger(CloseListeners.class);
    private static final Field FIELD = PrivateFields.find(StreamConnection.class, "closeListener", AtomicReference.class, LOG,
            "each WebSocket keeps its HTTP connection's objects");

    private CloseListeners() {
    }

    /**
     * Runs the close handling set before on {@code connection} (Undertow's HTTP connection lets go of
     * the socket) and makes {@code listener} its only close listener, run once when it closes.
     */
    @SuppressWarnings("unchecked")
    static void takeOver(StreamConnection connection, ChannelListener<? super StreamConnection> listener) {
        if (FIELD != null) {
            try {
                AtomicReference<ChannelListener<? super StreamConnection>> ref =
                        (AtomicReference<ChannelListener<? super StreamConnection>>) FIELD.get(connection);
                ChannelListener<? super StreamConnection> previous = ref.get();
                // once closed, XNIO swaps in its "invoked" marker, so the CAS fails and the merge below runs the listener
                if (connection.isOpen() && ref.compareAndSet(previous, listener)) {
                    if (previous != null) {
                        previous.handleEvent(connection);
                    }
                    return;
                }
            } catch (IllegalAccessException | RuntimeException e) {
                // fall through to the merge
            }
        }
        connection.setCloseListener(listener); // merges; if already closed, XNIO invokes the listener at once
    }
}
