package io.notify.gateway.session;

import io.notify.gateway.metrics.GatewayMetrics;
import io.notify.gateway.transport.OutboundFrame;
import io.notify.gateway.transport.OutboundQueue;
import io.notify.gateway.transport.Transport;
import io.notify.protocol.frame.PingFrame;
import io.notify.protocol.frame.PongFrame;
import io.notify.protocol.stream.Position;
import io.notify.protocol.stream.SequencedEvent;
import io.notify.protocol.stream.StreamId;

/**
 * How one session's frames go out: the outbound queue's answer counted ({@code queue_overflow_total}),
 * a frame that does not fit closing the connection (the {@code overflow} action: 4008), and on an SSE
 * connection with subscriptions the composite cursor of every stream as the frame's {@code id:}
 * ({@link Subscriptions#cursor}), so the browser's Last-Event-ID resumes them all. Used under the
 * session's lock; never blocks (sends only enqueue).
 */
final class SessionOutput {

    static final OutboundFrame PING = OutboundFrame.control(PingFrame.INSTANCE);
    static final OutboundFrame PONG = OutboundFrame.control(PongFrame.INSTANCE);

    private final Transport transport;
    private final StreamId own;
    private final GatewayMetrics metrics;
    private final Runnable overflow;

    SessionOutput(Transport transport, StreamId own, GatewayMetrics metrics, Runnable overflow) {
        this.transport = transport;
        this.own = own;
        this.metrics = metrics;
        this.overflow = overflow;
    }

    /**
     * Enqueues a frame that moves the client to {@code position} in {@code positioned} (an event, a reset,
     * a {@code subscribed} with a head; {@code position} null: a reset to no history), with the composite
     * cursor where the connection needs one; {@code subscriptions} may be null (none yet).
     */
    boolean send(OutboundFrame frame, Subscriptions subscriptions, Position ownPosition, StreamId positioned, Position position) {
        if (subscriptions == null || subscriptions.isEmpty() || transport.bidirectional()) {
            return send(frame);
        }
        return send(frame.withSseId(subscriptions.cursor(own, ownPosition, positioned, position)));
    }

    /** Enqueues the frame of a durable event, positioned at it; without subscriptions the event's position is not built. */
    boolean send(OutboundFrame frame, Subscriptions subscriptions, Position ownPosition, SequencedEvent event) {
        if (subscriptions == null || transport.bidirectional()) {
            return send(frame);
        }
        return send(frame, subscriptions, ownPosition, event.stream(), event.position());
    }

    /** Enqueues a frame; false when the connection is closing (including because this frame overflowed). */
    boolean send(OutboundFrame frame) {
        OutboundQueue.Offer result = transport.send(frame);
        switch (result) {
            case QUEUED:
                return true;
            case COALESCED:
                metrics.queueOverflow("coalesced");
                return true;
            case DROPPED:
                if (frame.kind() != OutboundFrame.Kind.SSE_META) {
                    metrics.queueOverflow("dropped");
                }
                return true;
            case OVERFLOW:
                metrics.queueOverflow("closed");
                overflow.run();
                return false;
            default:
                return false;
        }
    }
}
