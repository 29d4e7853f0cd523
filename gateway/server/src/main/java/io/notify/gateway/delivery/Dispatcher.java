package io.notify.gateway.delivery;

import io.notify.common.logging.LogFields;
import io.notify.gateway.metrics.GatewayMetrics;
import io.notify.gateway.metrics.HopStamps;
import io.notify.gateway.session.Session;
import io.notify.gateway.session.SessionTable;
import io.notify.gateway.transport.OutboundFrame;
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
 * telling them apart costs an ordinary durable event one type check.
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
        if (!(event instanceof SequencedEvent) && StateFrame.carriedBy((LiveEvent) event)) {
            dispatchState(message, (LiveEvent) event, sessions);
            return;
        }
        if (!(event instanceof SequencedEvent) && RecalledFrame.carriedBy((LiveEvent) event)) {
            dispatchRecalled(message, (LiveEvent) event, sessions);
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
     * A {@code state} frame for the user's sessions, which fanout-streams carries as an ephemeral
     * event of the reserved type {@link StateFrame#EVENT_TYPE}: delivered as that frame, its own
     * variant ({@link Session#deliverState}), not as an {@code event} (and not counted as one),
     * ephemeral (a full queue keeps only the newest state frame of the stream). One that cannot be
     * read is counted as {@code delivery_messages_total{outcome="poison"}}.
     */
    private void dispatchState(DeliveryMessage message, LiveEvent event, Collection<Session> sessions) {
        StateFrame state;
        try {
            state = StateFrame.fromLiveEvent(event);
        } catch (IllegalArgumentException e) {
            poison("state", event, e);
            return;
        }
        OutboundFrame frame = OutboundFrame.state(state);
        metrics.inbox().stateFrames(deliver(message, sessions, s -> s.deliverState(state.stream(), frame)));
    }

    /**
     * A {@code recalled} frame (docs/protocol.md, "Recall"), which fanout-streams carries as an ephemeral
     * event of the reserved type {@link RecalledFrame#EVENT_TYPE}: delivered as that frame, like a state
     * frame ({@link Session#deliverRecalled}: no position, no cursor move, not counted as an event), to
     * the sessions that were sent the event; counted in {@code recalled_frames_total}. One that cannot
     * be read is counted as {@code delivery_messages_total{outcome="poison"}}.
     */
    private void dispatchRecalled(DeliveryMessage message, LiveEvent event, Collection<Session> sessions) {
        RecalledFrame recalled;
        try {
            recalled = RecalledFrame.fromLiveEvent(event);
        } catch (IllegalArgumentException e) {
            poison("recalled", event, e);
            return;
        }
        OutboundFrame frame = OutboundFrame.recalled(recalled);
        Position at = new Position(recalled.epoch(), recalled.seq());
        metrics.recalledFrames(deliver(message, sessions, s -> s.deliverRecalled(recalled.stream(), at, frame)));
    }

    private void poison(String what, LiveEvent event, IllegalArgumentException e) {
        try (LogFields f = LogFields.of(LogFields.STREAM, event.stream().value())) {
            LOG.warn("unreadable {} frame in event {} of {}: {}", what, event.id(), event.stream(), e.getMessage());
        }
        metrics.deliveryMessage("poison");
    }
}
