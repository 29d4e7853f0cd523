package io.notify.protocol.frame;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.notify.protocol.stream.Position;
import io.notify.protocol.stream.StreamId;

/**
 * One entry of a {@link ResumeFrame}: the last durable event the client processed in a stream.
 * The server replays from {@code seq + 1}. Guarantees: epoch and seq form a valid {@link Position}.
 */
@JsonPropertyOrder({"stream", "epoch", "seq"})
public record ResumePoint(StreamId stream, String epoch, long seq) {

    public ResumePoint {
        if (stream == null) {
            throw new IllegalArgumentException("stream is required");
        }
        new Position(epoch, seq);
    }

    public static ResumePoint of(StreamId stream, Position position) {
        return new ResumePoint(stream, position.epoch(), position.seq());
    }

    @JsonIgnore
    public Position position() {
        return new Position(epoch, seq);
    }
}
