package io.notify.protocol.stream;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.notify.protocol.event.Recipients;

/**
 * The value of {@code notify.undelivered}: an event that reached no live connection of a user,
 * for push/e-mail hooks. Durable events stay in the inbox regardless; this is a hint to reach
 * the user another way, not the event's only copy. Guarantees: the event belongs to
 * {@code stream}; for a user stream, {@code userId} is that stream's user.
 */
@JsonPropertyOrder({"stream", "userId", "event", "reason", "at"})
public record UndeliveredEvent(StreamId stream, String userId, StreamEvent event, UndeliveredReason reason, long at) {

    public UndeliveredEvent {
        if (stream == null || event == null || reason == null) {
            throw new IllegalArgumentException((stream == null ? "stream" : event == null ? "event" : "reason") + " is required");
        }
        if (userId == null || !Recipients.USER_ID.matcher(userId).matches()) {
            throw new IllegalArgumentException("userId must be 1..128 chars of [A-Za-z0-9._:@-], got '" + Texts.clip(userId) + "'");
        }
        if (!event.stream().equals(stream)) {
            throw new IllegalArgumentException("event belongs to " + event.stream() + ", not to " + stream);
        }
        if (stream.isUser() && !stream.userId().equals(userId)) {
            throw new IllegalArgumentException("userId " + userId + " does not own stream " + stream);
        }
        EventFields.checkMillis("at", at);
    }

    /** For a user stream: the user is the stream's owner. */
    public static UndeliveredEvent of(StreamEvent event, UndeliveredReason reason, long at) {
        return new UndeliveredEvent(event.stream(), event.stream().userId(), event, reason, at);
    }
}
