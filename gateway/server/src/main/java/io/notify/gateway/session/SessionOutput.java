package io.notify.gateway.session;

import io.notify.gateway.disconnect.Disconnect;
import io.notify.gateway.metrics.GatewayMetrics;
import io.notify.gateway.transport.OutboundFrame;
import io.notify.gateway.transport.OutboundQueue;
import io.notify.gateway.transport.Transport;
import io.notify.protocol.frame.PingFrame;
import io.notify.protocol.frame.PongFrame;
import io.notify.protocol.stream.Position;
import io.notify.protocol.stream.StreamId;

/**
 * How a session's frames go out and its disconnects close: the outbound queue's answer counted
 * ({@code queue_overflow_total}) — queued, coalesced or (an ephemeral frame) dropped, the connection
 * goes on; a frame that does not fit closes it with 4008 ({@link Disconnect#SLOW_CONSUMER}), and a
 * connection already closing takes nothing. Used by the session only, under its lock; never blocks
 * (sends only enqueue).
 */
final class SessionOutput {

    static final OutboundFrame PING = OutboundFrame.control(PingFrame.INSTANCE);
    static final OutboundFrame PONG = OutboundFrame.control(PongFrame.INSTANCE);

    private SessionOutput() {
    }

    /**
     * Enqueues {@code frame}; positioned ({@code in} not null: an event, a reset, a {@code subscribed}
     * with a head) it moves the client to {@code at} in {@code in}, and {@code streams} (null: the
     * connection follows its own stream only) says where the client stands in the others, which a
     * transport may write with it (SSE's composite id). False when the connection is closing.
     */
    static boolean send(Transport transport, GatewayMetrics metrics, OutboundFrame frame, Transport.Positions streams,
                        StreamId in, Position at) {
        OutboundQueue.Offer offer = in == null || streams == null ? transport.send(frame) : transport.send(frame, streams, in, at);
        if (accepted(offer, frame, metrics)) {
            return true;
        }
        if (offer == OutboundQueue.Offer.OVERFLOW) {
            disconnect(transport, metrics, Disconnect.SLOW_CONSUMER, null);
        }
        return false;
    }

    /** Counts {@code reason} and closes with its documented answer ({@code detail}: a specific close reason, or null). */
    static void disconnect(Transport transport, GatewayMetrics metrics, Disconnect reason, String detail) {
        metrics.limitHit(reason.slug());
        transport.close(reason.answer(), reason.reason(detail));
    }

    /** True when the connection goes on after {@code frame} was offered with {@code result}; counts an overflow. */
    private static boolean accepted(OutboundQueue.Offer result, OutboundFrame frame, GatewayMetrics metrics) {
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
                return false;
            default:
                return false;
        }
    }
}
