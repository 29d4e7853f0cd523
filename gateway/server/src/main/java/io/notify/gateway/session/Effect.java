package io.notify.gateway.session;

import io.notify.gateway.disconnect.Disconnect;
import io.notify.gateway.metrics.GatewayMetrics;
import io.notify.gateway.resume.FetchRequest;
import io.notify.gateway.transport.OutboundFrame;
import io.notify.protocol.stream.Position;
import io.notify.protocol.stream.StreamId;

/**
 * What a connection's deciding parts ({@link StreamSync}, {@link Subscriptions}) ask their
 * {@link Session} to do. They decide and never act: the session performs the effects they return in
 * order, under its lock, and drops the rest of them at a send the connection refuses (it is closing).
 * What comes back later — a fetch's answer, a timer, a presence page — reaches the session as an
 * event, which it hands to the part it is for.
 */
sealed interface Effect {

    /** How a sent frame counts in {@code events_delivered_total} once it is queued. */
    enum Count {
        NOT, LIVE, REPLAYED;

        void counted(GatewayMetrics metrics) {
            if (this != NOT) {
                metrics.delivered(true, this == REPLAYED);
            }
        }
    }

    /**
     * Enqueue {@code frame}; positioned ({@code stream} not null) when it moves the client to
     * {@code position} in {@code stream} (the transport may say so: SSE's composite id).
     */
    record Send(OutboundFrame frame, StreamId stream, Position position, Count count) implements Effect {

        static Send plain(OutboundFrame frame) {
            return new Send(frame, null, null, Count.NOT);
        }

        static Send positioned(OutboundFrame frame, StreamId stream, Position position) {
            return new Send(frame, stream, position, Count.NOT);
        }
    }

    /**
     * Ask the query API for {@code request}; its answer goes back to {@code sync}: as the head read
     * before {@code subscribed} when {@code anchor}, else as a page ({@link StreamSync#onFetched}).
     */
    record Fetch(StreamSync sync, FetchRequest request, boolean anchor) implements Effect {
    }

    /** Wake {@code sync} with {@code alarm} in {@code delayMs} ({@link StreamSync#woke}). */
    record Wake(StreamSync sync, StreamSync.Alarm alarm, long delayMs) implements Effect {
    }

    /** Count the disconnect and close with its answer ({@code detail}: a specific reason, or null). */
    record Close(Disconnect reason, String detail) implements Effect {
    }

    /** Join the node's subscribers of {@code stream} (a room or {@code b:all}; {@link RoomMembership}). */
    record Join(StreamId stream) implements Effect {
    }

    /** Leave the node's subscribers of {@code stream}. */
    record Leave(StreamId stream) implements Effect {
    }

    /** Ask the registry for a page of {@code room}'s members, answered to the client as {@code presence_result} for {@code name}. */
    record AskPresence(String name, StreamId room, String after, int limit) implements Effect {
    }
}
