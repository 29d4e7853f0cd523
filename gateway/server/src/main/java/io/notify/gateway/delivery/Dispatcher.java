package io.notify.gateway.delivery;

import io.notify.common.logging.LogFields;
import io.notify.gateway.metrics.GatewayMetrics;
import io.notify.gateway.metrics.HopStamps;
import io.notify.gateway.session.Session;
import io.notify.gateway.session.SessionTable;
import io.notify.gateway.transport.OutboundFrame;
import io.notify.protocol.event.EventEnvelope;
import io.notify.protocol.frame.RecalledFrame;
import io.notify.protocol.frame.StateFrame;
import io.notify.protocol.stream.DeliveryMessage;
import io.notify.protocol.stream.LiveEvent;
import io.notify.protocol.stream.Position;
import io.notify.protocol.stream.SequencedEvent;
import io.notify.protocol.stream.StreamEvent;
import java.util.Collection;
import java.util.List;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hands one {@link DeliveryMessage} to the local connections it is for: every connection of the
 * stream's user, or only the named ones; for a room or {@code b:all}, every local subscriber. The frame is encoded once and shared. Never blocks: each
 * session only enqueues (or holds the event while it syncs). An ephemeral event of the reserved type
 * {@link StateFrame#EVENT_TYPE} goes to the user's sessions as the {@code state} frame it carries
 * ({@link Session#deliverState}), not as an {@code event}, and one of the reserved type
 * {@link RecalledFrame#EVENT_TYPE} as the {@code recalled} frame it carries ({@link Session#deliverRecalled});
 * telling them apart costs an ordinary ephemeral event one prefix check, a durable one a type check.
 */
public final class Dispatcher {

    private static final Logger LOG = LoggerFactory.getLogger(Dispatcher.class);

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
        if (event instanceof LiveEvent live && live.type().startsWith(EventEnvelope.RESERVED_TYPE_PREFIX)) {
            dispatchCarried(message, live, sessions); // one check on the path of every other ephemeral event
            return;
        }
        if (!event.isDurable() && event.expiredAt(System.currentTimeMillis())) { // a durable one goes as its position (OutboundFrame)
            metrics.deliveryMessage("expired");
            return;
        }
        OutboundFrame frame = OutboundFrame.event(event, true, hops);
        if (hops != null) {
            metrics.upstreamHops(hops); // the same for every frame of the fan-out: once per message
        }
        int sent = deliver(message, sessions, s -> s.deliver(event, frame));
        // one counter update per message, not per frame (a broadcast reaches every local subscriber)
        metrics.deliveredLive(event instanceof SequencedEvent, sent);
    }

    /** Hands the message to the sessions it targets ({@code handOver}: true when queued); counts it, returns the frames queued. */
    private int deliver(DeliveryMessage message, Collection<Session> sessions, Predicate<Session> handOver) {
        boolean all = message.targetsAllConnections();
        List<String> only = message.connections();
        int matched = 0;
        int sent = 0;
        for (Session s : sessions) {
            if (all || only.contains(s.id())) {
                matched++;
                if (handOver.test(s)) {
                    sent++;
                }
            }
        }
        metrics.deliveryMessage(matched > 0 ? "delivered" : "no_connection");
        return sent;
    }

    /**
     * A frame fanout-streams carries as an ephemeral event of a reserved type (Notify's own, never a producer's),
     * delivered as that frame through its own session variant, not as an {@code event} (and not counted as one):
     * <ul>
     *   <li>{@link StateFrame#EVENT_TYPE}: the {@code state} frame to the user's sessions ({@link Session#deliverState};
     *       ephemeral: a full queue keeps only the newest state frame of the stream);</li>
     *   <li>{@link RecalledFrame#EVENT_TYPE}: the {@code recalled} frame (docs/protocol.md, "Recall") to the sessions
     *       that were sent the event ({@link Session#deliverRecalled}: no position, no cursor move), counted in
     *       {@code recalled_frames_total}.</li>
     * </ul>
     * One that cannot be read, or of another reserved type, is counted as {@code delivery_messages_total{outcome="poison"}}.
     */
    private void dispatchCarried(DeliveryMessage message, LiveEvent event, Collection<Session> sessions) {
        try {
            if (StateFrame.carriedBy(event)) {
                StateFrame state = StateFrame.fromLiveEvent(event);
                OutboundFrame frame = OutboundFrame.state(state);
                metrics.inbox().stateFrames(deliver(message, sessions, s -> s.deliverState(state.stream(), frame)));
            } else {
                RecalledFrame recalled = RecalledFrame.fromLiveEvent(event); // throws for any other type
                OutboundFrame frame = OutboundFrame.recalled(recalled);
                Position at = new Position(recalled.epoch(), recalled.seq());
                metrics.recalledFrames(deliver(message, sessions, s -> s.deliverRecalled(recalled.stream(), at, frame)));
            }
        } catch (IllegalArgumentException e) {
            poison(event, e);
        }
    }

    private void poison(LiveEvent event, IllegalArgumentException e) {
        try (LogFields f = LogFields.of(LogFields.STREAM, event.stream().value())) {
            LOG.warn("unreadable carried frame in event {} of {}: {}", event.id(), event.stream(), e.getMessage());
        }
        metrics.deliveryMessage("poison");
    }
}
