package io.notify.client;

import io.notify.protocol.frame.ResetReason;
import io.notify.protocol.stream.Position;
import io.notify.protocol.stream.StreamId;
import java.util.Optional;

/**
 * What a {@link NotifyClient} tells the application. All callbacks run on the client's one event
 * thread, one at a time, in order; while one runs no other frame is processed (and, over
 * WebSocket, no further frame is read: a slow listener slows the connection down, and a very slow
 * one is eventually closed by the gateway with 4008, after which the client resumes — nothing is
 * lost). Do not block for long. A callback that throws is reported through {@link #onError} and
 * otherwise ignored: the event still counts as delivered.
 */
public interface NotifyListener {

    /**
     * One event. A durable event's position is persisted after this method returns, so a process
     * that dies inside it gets the event again after a restart (that is the only way to see a
     * durable event twice); one that returns never sees it again.
     */
    void onEvent(ClientEvent event);

    /**
     * The gateway cannot continue {@code stream} from the stored position (docs/protocol.md §3.3):
     * {@code epoch_mismatch} (the stream's history was reset or the position came from another
     * history), {@code position_too_old} (events after it were trimmed) or {@code unknown_stream}
     * (no history at all). Events between the stored position and {@code head} will not be
     * delivered. Reload the stream's state from the source of truth (the application's own API or
     * the inbox history) here; when this method returns the client stores {@code head} as the
     * stream's position (or forgets the position when {@code head} is empty) and delivers the live
     * events after it.
     */
    default void onReset(StreamId stream, ResetReason reason, Optional<Position> head) {
    }

    /**
     * The gateway left out the durable events {@code from..to} of {@code stream} while the client
     * caught up (a resume after a reconnect): later events of the same backlog carry the same
     * collapse key and supersede them (docs/protocol.md, "Collapsed catch-up"). Their seqs count as
     * processed: when this method returns the client stores {@code to} as the stream's position, and
     * the next event is {@code to + 1}. {@code from} is the first seq the client had not processed
     * yet (a collapsed range overlapping events already delivered is told from there). Nothing to
     * do for most applications; one that shows a history may note that it skipped events (they are
     * still in the inbox, {@link NotifyInbox#page}).
     */
    default void onCollapsed(StreamId stream, long from, long to) {
    }

    /**
     * The user turned live delivery off for the durable events {@code from..to} of their stream (one
     * event per call today; docs/protocol.md, "Events the user muted"; docs/inbox.md, "Preferences"):
     * the gateway sends their positions, not their content. Their seqs count as processed, as for
     * {@link #onCollapsed}; the events are in the inbox ({@link NotifyInbox#page}) for an application
     * that lists them. Nothing to do for most applications.
     */
    default void onMuted(StreamId stream, long from, long to) {
    }

    /**
     * The producer took back the durable event at {@code seq} of the user's stream (docs/protocol.md, "Recall"):
     * stop showing it. {@code id} is the event's id when the gateway had sent it to this client (a {@code recalled}
     * frame; the event's position and the client's stay as they are, nothing is re-sent). It is empty when the
     * client learns of it while catching up (a {@code collapsed} frame with reason {@code recalled}: the event's
     * content never comes; its seq counts as processed, as for {@link #onCollapsed}). A user's unread count drops
     * by the inbox state change that follows ({@link InboxListener}). An application that lists events removes it
     * by {@code id}, or by the seq of {@link ClientEvent#position()}; nothing to do for one that shows none.
     * Unless overridden, one without {@code id} (the collapsed seq) calls {@link #onCollapsed}{@code (stream, seq, seq)},
     * as notify.js reports it and as an application written before this method heard of it.
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

    /** A state change. */
    default void onState(ConnectionState state) {
    }

    /**
     * A problem worth knowing about. {@link NotifyClientException#terminal()} errors stop the
     * client (state {@link ConnectionState#DISCONNECTED}) until {@link NotifyClient#reconnect()};
     * all others are informational and the client carries on by itself.
     */
    default void onError(NotifyClientException error) {
    }
}
