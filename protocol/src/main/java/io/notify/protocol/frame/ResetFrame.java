package io.notify.protocol.frame;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.notify.protocol.stream.Position;
import io.notify.protocol.stream.StreamId;

/**
 * Server to client: the client's position in {@code stream} cannot be continued, so no replay
 * follows; the client reloads its state from the source of truth, takes {@code head} as its new
 * position, and keeps receiving live events after it. Guarantees: {@code head} and
 * {@code firstSeq} are both present unless the reason is {@code unknown_stream}, where both are
 * absent; {@code 1 <= firstSeq <= head.seq + 1} ({@code head.seq + 1} means the inbox holds nothing).
 */
@JsonPropertyOrder({"stream", "reason", "head", "firstSeq"})
public record ResetFrame(StreamId stream, ResetReason reason, Position head, Long firstSeq) implements ServerFrame {

    public ResetFrame {
        if (stream == null) {
            throw new IllegalArgumentException("stream is required");
        }
        if (reason == null) {
            throw new IllegalArgumentException("reason is required");
        }
        if (reason == ResetReason.UNKNOWN_STREAM) {
            if (head != null || firstSeq != null) {
                throw new IllegalArgumentException("an unknown_stream reset has no head and no firstSeq");
            }
        } else {
            if (head == null || firstSeq == null) {
                throw new IllegalArgumentException("a " + reason.wireName() + " reset needs " + (head == null ? "head" : "firstSeq"));
            }
            if (firstSeq < 1 || firstSeq > Position.MAX_SEQ || firstSeq > head.seq() + 1) {
                throw new IllegalArgumentException("firstSeq must be from 1 to head.seq + 1 (" + (head.seq() + 1) + "), got " + firstSeq);
            }
        }
    }

    public static ResetFrame epochMismatch(StreamId stream, Position head, long firstSeq) {
        return new ResetFrame(stream, ResetReason.EPOCH_MISMATCH, head, firstSeq);
    }

    public static ResetFrame positionTooOld(StreamId stream, Position head, long firstSeq) {
        return new ResetFrame(stream, ResetReason.POSITION_TOO_OLD, head, firstSeq);
    }

    public static ResetFrame unknownStream(StreamId stream) {
        return new ResetFrame(stream, ResetReason.UNKNOWN_STREAM, null, null);
    }

    @Override
    public FrameType frameType() {
        return FrameType.RESET;
    }
}
