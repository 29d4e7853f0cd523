package io.notify.protocol.frame;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.notify.protocol.stream.Position;
import java.util.Optional;

/**
 * Client to server: join a room ({@code r:<room>}) or the broadcast stream ({@code b:all}), from
 * the position {@code (epoch, seq)} when given (the last event the client processed there), else
 * from the stream's head. The server answers {@code subscribed}, then any replay, then live events;
 * or {@code subscribe_refused}. The stream is kept as text: a name the server cannot take is
 * refused with {@code bad_name}, and the connection stays open.
 *
 * <p>Guarantees: {@code stream} is 1..{@link #MAX_STREAM_CHARS} characters; epoch and seq are both
 * present and form a valid {@link Position}, or both absent.
 */
@JsonPropertyOrder({"stream", "epoch", "seq"})
@JsonInclude(JsonInclude.Include.NON_NULL)
public record SubscribeFrame(String stream, String epoch, Long seq) implements ClientFrame {

    /** Longer than any valid stream id, so a bad name is refused by name, not by length. */
    public static final int MAX_STREAM_CHARS = 256;

    public SubscribeFrame {
        requireStreamText(stream);
        if ((epoch == null) != (seq == null)) {
            throw new IllegalArgumentException("epoch and seq go together: give both to resume, or neither");
        }
        if (epoch != null) {
            new Position(epoch, seq);
        }
    }

    static void requireStreamText(String stream) {
        if (stream == null || stream.isEmpty() || stream.length() > MAX_STREAM_CHARS) {
            throw new IllegalArgumentException("stream must be 1.." + MAX_STREAM_CHARS + " characters");
        }
    }

    public static SubscribeFrame fresh(String stream) {
        return new SubscribeFrame(stream, null, null);
    }

    public static SubscribeFrame from(String stream, Position position) {
        return new SubscribeFrame(stream, position.epoch(), position.seq());
    }

    /** Where the client stands in the stream; empty: start at its head. */
    @JsonIgnore
    public Optional<Position> position() {
        return epoch == null ? Optional.empty() : Optional.of(new Position(epoch, seq));
    }

    @Override
    public FrameType frameType() {
        return FrameType.SUBSCRIBE;
    }
}
