package io.notify.client;

import io.notify.protocol.frame.ResetReason;
import io.notify.protocol.stream.Position;
import io.notify.protocol.stream.StreamId;
import java.util.Optional;

/**
 * What a {@link NotifyClient} tells the application about one room ({@code r:<room>}) or the
 * broadcast stream ({@code b:all}) it subscribed to. Same threading as {@link NotifyListener}: every
 * callback runs on the client's one event thread, one at a time; a callback that throws is reported
 * through {@link NotifyListener#onError} and otherwise ignored.
 */
public interface RoomListener {

    /**
     * One event of the stream: durable ones exactly once and in seq order across reconnects (the
     * position is stored after this method returns, as for the user's stream); ephemeral ones
     * (typing, {@code presence.join}/{@code presence.leave}) at most once.
     */
    void onEvent(ClientEvent event);

    /**
     * The gateway confirmed the subscription; {@code head} is the stream's newest position then
     * (empty: no history yet). Called on every (re)connect, before any replayed event. A client that
     * held no position for the stream adopts {@code head}: it receives the events after it, none
     * before.
     */
    default void onSubscribed(StreamId stream, Optional<Position> head) {
    }

    /**
     * The gateway refused the subscription ({@code forbidden}, {@code limit}, {@code bad_name}); the
     * client dropped it and will not ask again. The connection and other subscriptions go on.
     */
    default void onRefused(StreamId stream, String reason) {
    }

    /** As {@link NotifyListener#onReset}, for this stream: events between the stored position and {@code head} are skipped. */
    default void onReset(StreamId stream, ResetReason reason, Optional<Position> head) {
    }

    /** As {@link NotifyListener#onCollapsed}, for this stream: seqs {@code from..to} count as processed. */
    default void onCollapsed(StreamId stream, long from, long to) {
    }

    /**
     * As {@link NotifyListener#onRecalled}, for this stream: the producer took back the event at {@code seq}. Unless
     * overridden, one without {@code id} (the collapsed seq) calls {@link #onCollapsed}{@code (stream, seq, seq)}.
     */
    default void onRecalled(StreamId stream, long seq, Optional<String> id) {
        if (id.isEmpty()) {
            onCollapsed(stream, seq, seq);
        }
    }

    /**
     * The durable events {@code from..to} of {@code stream} expired before the gateway sent them (docs/protocol.md,
     * "Expiry": a {@code collapsed} frame with reason {@code expired}): their positions came, their content never will.
     * Their seqs count as processed, as for {@link #onCollapsed}, which this calls unless overridden.
     */
    default void onExpired(StreamId stream, long from, long to) {
        onCollapsed(stream, from, to);
    }

    /** The subscription ended at the application's request ({@link NotifyClient#unsubscribe}). */
    default void onUnsubscribed(StreamId stream) {
    }
}
