package io.notify.gateway.delivery;

import io.notify.gateway.transport.OutboundFrame;
import io.notify.gateway.metrics.GatewayMetrics;
import io.notify.gateway.metrics.HopStamps;
import io.notify.gateway.session.Session;
import io.notify.gateway.session.SessionTable;
import io.notify.schemas.stream.DeliveryMessage;
import io.notify.schemas.stream.SequencedEvent;
import io.notify.schemas.stream.StreamEvent;
import java.util.Collection;
import java.util.List;

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
        StreamEvent event = message.event();
        OutboundFrame frame = OutboundFrame.event(event, true, hops);
        if (hops != null) {
            metrics.upstreamHops(hops); // the same for every frame of the fan-out: once per message
        }
        boolean all = message.targetsAllConnections();
        List<String> only = message.connections();
        int matched = 0;
        int sent = 0;
        for (Session s : sessions) {
            if (all || only.contains(s.id())) {
                matched++;
                if (s.deliver(event, frame)) {
                    sent++;
                }
            }
        }
        // one counter update per message, not per frame (a broadcast reaches every local subscriber)
        metrics.deliveredLive(event instanceof SequencedEvent, sent);
        metrics.deliveryMessage(matched > 0 ? "delivered" : "no_connection");
    }
}
