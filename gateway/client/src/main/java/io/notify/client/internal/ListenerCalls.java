package io.notify.client.internal;

import io.notify.client.ConnectionState;
import io.notify.client.NotifyClientException;
import io.notify.client.NotifyListener;
import io.notify.client.reconnect.Disconnect;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * State changes and errors delivered to the listener: a state is reported only when it changes,
 * and a callback that throws is logged, never allowed to disturb the loop. Loop thread only
 * (the current state is readable from any thread).
 */
final class ListenerCalls {

    private static final Logger LOG = LoggerFactory.getLogger(ListenerCalls.class);

    private final NotifyListener listener;
    private volatile ConnectionState state = ConnectionState.DISCONNECTED;

    ListenerCalls(NotifyListener listener) {
        this.listener = listener;
    }

    ConnectionState currentState() {
        return state;
    }

    void state(ConnectionState next) {
        if (state == next) {
            return;
        }
        state = next;
        try {
            listener.onState(next);
        } catch (RuntimeException e) {
            LOG.warn("onState({}) threw", next, e);
        }
    }

    /**
     * Reports what the application should hear of a disconnect: every close code but the ordinary
     * ones (1001 drain, 1006 drop) and every refused handshake; terminal ones always.
     */
    void disconnected(Disconnect why, boolean terminal) {
        if (why instanceof Disconnect.Closed c && (terminal || (c.code() != 1001 && c.code() != 1006))) {
            error(NotifyClientException.closed(c.code(), c.reason(), terminal));
        } else if (why instanceof Disconnect.Refused r) {
            error(NotifyClientException.refused(r.status(), (r.websocket() ? "WebSocket" : "SSE")
                    + (r.detail() == null || r.detail().isEmpty() ? "" : ", " + r.detail()), terminal));
        }
    }

    void error(NotifyClientException error) {
        if (error.terminal()) {
            LOG.warn("notify client stopped: {}", error.getMessage());
        } else {
            LOG.info("notify client: {}", error.getMessage());
        }
        try {
            listener.onError(error);
        } catch (RuntimeException e) {
            LOG.warn("onError threw", e);
        }
    }
}
