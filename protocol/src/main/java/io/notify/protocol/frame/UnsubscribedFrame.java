package io.notify.protocol.frame;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.notify.protocol.stream.StreamId;

/** Server to client: nothing more of {@code stream} follows on this connection. */
@JsonPropertyOrder({"stream"})
public record UnsubscribedFrame(StreamId stream) implements ServerFrame {

    public UnsubscribedFrame {
        if (stream == null || stream.isUser()) {
            throw new IllegalArgumentException("stream must be a room or b:all, got " + stream);
        }
    }

    @Override
    public FrameType frameType() {
        return FrameType.UNSUBSCRIBED;
    }
}
