package io.notify.gateway.delivery;

import io.notify.gateway.transport.OutboundFrame;
import io.notify.gateway.metrics.GatewayMetrics;
import io.notify.gateway.metrics.HopStamps;
import io.notify.gateway.session.Session;
import io.notify.gateway.session.SessionTable;
import io.notify.schemas.stream.DeliveryMessage;
import java.util.Collection;

/**
 * Hands one {@link DeliveryMessage} to the local connections it is for: every connection of the
 * stream's user, or only the named ones; for a room or {@code b:all}, every local subscriber. The frame is encoded once and shared. Never blocks: each
 * session only enqueues (or holds the event while it syncs).
 */
public final class Dispatcher {

    private final SessionTable table;
    private final GatewayMetrics metrics;

    public Dispatcher(SessionTable table, GatewayMetrics metrics) {
        this.table = table;
        this.metrics = metrics;
    }

    public void dispatch(DeliveryMessage message) {
        dispatch(message, null);
    }

    /** As {@link #dispatch(DeliveryMessage)}, with the record's hop stamps for the hop latency metric. */
    public void dispatch(DeliveryMessage message, HopStamps hops) {
        Collection<Session> sessions = message.stream().isUser() ? table.ofUser(message.stream().userId())
                : table.subscribers(message.stream());
        if (sessions.isEmpty()) {
            metrics.deliveryMessage("no_connection");
            return;
        }
        OutboundFrame frame = OutboundFrame.event(message.event(), true, hops);
        int delivered = 0;
        for (Session s : sessions) {
            if (message.targetsAllConnections() || message.connections().contains(s.id())) {
                s.deliver(message.event(), frame);
                delivered++;
            }
        }
        metrics.deliveryMessage(delivered > 0 ? "delivered" : "no_connection");
    }
}
