package io.notify.client.internal;

import io.notify.client.NotifyListener;
import io.notify.client.RoomListener;
import io.notify.protocol.frame.CollapsedFrame;
import io.notify.protocol.frame.RecalledFrame;
import io.notify.protocol.stream.StreamId;
import java.util.Optional;

/**
 * Which listener callback hears of what the gateway did not send as an event (docs/protocol.md §3.4 to
 * "Recall"): a {@code collapsed} range goes to {@code onCollapsed}, or for the user's stream to
 * {@code onMuted} (reason {@code muted}), {@code onExpired} (reason {@code expired}); a recalled seq ({@code collapsed} with reason {@code recalled}, or a
 * {@code recalled} frame) to {@code onRecalled}, of the user's listener or the stream's {@link RoomListener}.
 * Called by {@link FrameHandler} inside its guard against throwing callbacks; stateless.
 */
final class WithheldCalls {

    private WithheldCalls() {
    }

    /** Seqs {@code first..c.to()} of a {@code collapsed} frame, from the first one the client lacked. */
    static void collapsed(NotifyListener listener, RoomListener room, CollapsedFrame c, long first) {
        if (c.reason() == CollapsedFrame.Reason.RECALLED) {
            for (long seq = first; seq <= c.to(); seq++) { // one seq per frame today
                recalled(listener, room, c.stream(), seq, Optional.empty());
            }
        } else if (c.reason() == CollapsedFrame.Reason.MUTED && c.stream().isUser()) {
            listener.onMuted(c.stream(), first, c.to());
        } else if (c.reason() == CollapsedFrame.Reason.EXPIRED) {
            if (c.stream().isUser()) {
                listener.onExpired(c.stream(), first, c.to());
            } else {
                room.onExpired(c.stream(), first, c.to());
            }
        } else if (c.stream().isUser()) {
            listener.onCollapsed(c.stream(), first, c.to());
        } else {
            room.onCollapsed(c.stream(), first, c.to());
        }
    }

    /** A {@code recalled} frame: the producer took back an event the client was sent. */
    static void recalled(NotifyListener listener, RoomListener room, RecalledFrame r) {
        recalled(listener, room, r.stream(), r.seq(), Optional.of(r.id()));
    }

    private static void recalled(NotifyListener listener, RoomListener room, StreamId stream, long seq, Optional<String> id) {
        if (stream.isUser()) {
            listener.onRecalled(stream, seq, id);
        } else {
            room.onRecalled(stream, seq, id);
        }
    }
}
