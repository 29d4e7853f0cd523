package io.notify.protocol.frame;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.annotation.JsonValue;
import io.notify.protocol.stream.Position;
import io.notify.protocol.stream.StreamId;
import io.notify.protocol.text.WireNames;

/**
 * Server to client, durable position: while a client catches up (a resume, a subscribe from a
 * position, a gap fill), the events {@code from..to} (inclusive) of {@code stream} were left out
 * because later events of the same backlog carry the same {@code collapseKey} and supersede them
 * (for the event types the gateway collapses; docs/protocol.md, "Collapsed catch-up"). It stands in
 * those seqs: the client takes its position to {@code to} as if it had processed them, and may count
 * {@link #count()} skipped events. Seqs stay gapless: every seq of the stream reaches the client as
 * an event or inside one collapsed frame, in seq order.
 *
 * <p>{@code reason} says why they were left out: absent, superseded (as above); {@code muted}, the
 * user's preferences turned the live channel off for them (docs/inbox.md, "Preferences"), on any path,
 * live included; {@code expired}, the event expired before it was sent (docs/protocol.md, "Expiry"); {@code recalled},
 * the producer took it back (docs/protocol.md, "Recall"). The
 * client's rules are the same for all.
 */
@JsonPropertyOrder({"stream", "epoch", "from", "to", "reason"})
@JsonInclude(JsonInclude.Include.NON_NULL)
public record CollapsedFrame(StreamId stream, String epoch, long from, long to, Reason reason) implements ServerFrame {

    /** Why seqs were left out; superseded ones carry no reason on the wire. */
    public enum Reason {
        MUTED("muted"), EXPIRED("expired"), RECALLED("recalled");

        private final String wireName;

        Reason(String wireName) {
            this.wireName = wireName;
        }

        @JsonValue
        public String wireName() {
            return wireName;
        }

        @JsonCreator
        public static Reason fromWire(String value) {
            return WireNames.parse(values(), Reason::wireName, value, "reason");
        }
    }

    public CollapsedFrame {
        if (stream == null) {
            throw new IllegalArgumentException("stream is required");
        }
        Position.of(epoch, Math.max(1, from));
        if (from < 1 || to < from || to > Position.MAX_SEQ) {
            throw new IllegalArgumentException("need 1 <= from <= to <= " + Position.MAX_SEQ + ", got " + from + ".." + to);
        }
    }

    /** Seqs superseded during catch-up (no reason on the wire). */
    public CollapsedFrame(StreamId stream, String epoch, long from, long to) {
        this(stream, epoch, from, to, null);
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
