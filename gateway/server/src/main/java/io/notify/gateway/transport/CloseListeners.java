package io.notify.gateway.transport;

import java.lang.reflect.Field;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.xnio.ChannelListener;
import org.xnio.StreamConnection;

/**
 * Replaces an upgraded socket's close listener instead of adding to it. XNIO's
 * {@link StreamConnection#setCloseListener} merges the new listener with the old one, and the old
 * one is Undertow's HTTP connection (its close setter), which would then stay reachable for the
 * WebSocket's whole life: about 0.7 KB of HTTP objects per idle connection (docs/gateway.md,
 * "Where an idle connection's bytes go"). XNIO has no public way to replace it, so this swaps the
 * listener in XNIO's private field; if a future XNIO has no such field, it falls back to the
 * merge (correct, only heavier) and says so once.
 */
final class CloseListeners {

    private static final Logger LOG = LoggerFactory.getLogger(CloseListeners.class);
    private static final Field FIELD = field();

    private CloseListeners() {
    }

    private static Field field() {
        try {
            Field f = StreamConnection.class.getDeclaredField("closeListener");
            f.setAccessible(true);
            if (f.getType() != AtomicReference.class) {
                throw new NoSuchFieldException("closeListener is a " + f.getType());
            }
            return f;
        } catch (ReflectiveOperationException | RuntimeException e) {
            LOG.warn("cannot replace XNIO close listeners ({}); each WebSocket keeps its HTTP connection's objects", e.toString());
            return null;
        }
    }

    /**
     * Makes {@code listener} the only close listener of {@code connection} (it runs once, on close),
     * dropping the ones set before it (Undertow's).
     */
    @SuppressWarnings("unchecked")
    static void replace(StreamConnection connection, ChannelListener<? super StreamConnection> listener) {
        if (FIELD != null) {
            try {
                AtomicReference<ChannelListener<? super StreamConnection>> ref =
                        (AtomicReference<ChannelListener<? super StreamConnection>>) FIELD.get(connection);
                ChannelListener<? super StreamConnection> current = ref.get();
                // once closed, XNIO swaps in its "invoked" marker, so the CAS fails and the merge below runs the listener
                if (connection.isOpen() && ref.compareAndSet(current, listener)) {
                    return;
                }
            } catch (IllegalAccessException | RuntimeException e) {
                // fall through to the merge
            }
        }
        connection.setCloseListener(listener); // merges; if already closed, XNIO invokes the listener at once
    }
}
