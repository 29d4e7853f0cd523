package io.notify.protocol.frame;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.notify.protocol.stream.Position;
import io.notify.protocol.stream.StreamId;

/**
 * Server to client: the subscription to {@code stream} is on. {@code head} is the stream's newest
 * position when it was made (absent: the stream has no history yet, or the inbox did not answer in
 * time). What follows is the replay from the client's position (when it gave one), then live events;
 * a client that gave no position starts right after {@code head}.
 */
@JsonPropertyOrder({"stream", "head"})
@JsonInclude(JsonInclude.Include.NON_NULL)
public record SubscribedFrame(StreamId stream, Position head) implements ServerFrame {

    public SubscribedFrame {
        if (stream == null || stream.isUser()) {
            throw new IllegalArgumentException("stream must be a room or b:all, got " + stream);
        }
    }

    @Override
    public FrameType frameType() {
        return FrameType.SUBSCRIBED;
    }
}
