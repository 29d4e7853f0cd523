package io.notify.fanout.inbox;

import io.notify.protocol.stream.StreamId;
import java.time.Duration;

/**
 * The inbox bounds of each kind of stream: a user's own stream, a room, and the broadcast stream
 * each keep at most {@code maxEvents} entries, none older than {@code maxAge}
 * ({@code notify.fanout.inbox.*}, {@code notify.fanout.inbox.room-*}, {@code notify.fanout.inbox.broadcast-*}).
 */
public record InboxLimits(Limit user, Limit room, Limit broadcast) {

    /** One kind's bounds. */
    public record Limit(int maxEvents, Duration maxAge) {
        public Limit {
            if (maxEvents < 1 || maxAge == null || maxAge.isNegative() || maxAge.isZero()) {
                throw new IllegalArgumentException("an inbox keeps at least 1 event for a positive age, got "
                        + maxEvents + " / " + maxAge);
            }
        }
    }

    /** The same bounds for every kind of stream. */
    public static InboxLimits uniform(int maxEvents, Duration maxAge) {
        Limit l = new Limit(maxEvents, maxAge);
        return new InboxLimits(l, l, l);
    }

    public Limit of(StreamId stream) {
        return switch (stream.kind()) {
            case USER -> user;
            case ROOM -> room;
            case BROADCAST -> broadcast;
        };
    }
}
