package io.notify.protocol.frame;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.notify.protocol.stream.Position;
import io.notify.protocol.stream.StreamId;

/**
 * Server to client, durable position: while a client catches up (a resume, a subscribe from a
 * position, a gap fill), the events {@code from..to} (inclusive) of {@code stream} were left out
 * because later events of the same backlog carry the same {@code collapseKey} and supersede them
 * (for the event types the gateway collapses; docs/protocol.md, "Collapsed catch-up"). It stands in
 * those seqs: the client takes its position to {@code to} as if it had processed them, and may count
 * {@link #count()} skipped events. Seqs stay gapless: every seq of the stream reaches the client as
 * an event or inside one collapsed frame, in seq order.
 */
@JsonPropertyOrder({"stream", "epoch", "from", "to"})
public record CollapsedFrame(StreamId stream, String epoch, long from, long to) implements ServerFrame {

    public CollapsedFrame {
        if (stream == null) {
            throw new IllegalArgumentException("stream is required");
        }
        Position.of(epoch, Math.max(1, from));
        if (from < 1 || to < from || to > Position.MAX_SEQ) {
            throw new IllegalArgumentException("need 1 <= from <= to <= " + Position.MAX_SEQ + ", got " + from + ".." + to);
        }
    }

    /** How many events it stands in for. */
    @JsonIgnore
    public long count() {
        return to - from + 1;
    }

    /** The position after it: the client's resume point. */
    @JsonIgnore
    public Position position() {
        return Position.of(epoch, to);
    }

    @Override
    public FrameType frameType() {
        return FrameType.COLLAPSED;
    }
}
