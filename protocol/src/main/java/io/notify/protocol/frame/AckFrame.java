package io.notify.protocol.frame;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.notify.protocol.stream.Position;
import io.notify.protocol.stream.StreamId;

/**
 * Client to server, optional and cumulative: the client has processed every durable event of
 * {@code stream} up to {@code seq}. Used for delivery metrics and to hold back fallback
 * notifications; it never changes what is replayed (the client owns its resume position).
 */
@JsonPropertyOrder({"stream", "seq"})
public record AckFrame(StreamId stream, long seq) implements ClientFrame {

    public AckFrame {
        if (stream == null) {
            throw new IllegalArgumentException("stream is required");
        }
        if (seq < 1 || seq > Position.MAX_SEQ) {
            throw new IllegalArgumentException("seq must be from 1 to " + Position.MAX_SEQ + ", got " + seq);
        }
    }

    @Override
    public FrameType frameType() {
        return FrameType.ACK;
    }
}
