package io.notify.fanout.inbox;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.notify.protocol.stream.Position;
import org.apache.kafka.common.serialization.Serde;

/**
 * The head of one stream's history, the value of the {@code stream-heads} store: its epoch, the
 * last seq assigned ({@code lastSeq}) and the first seq the inbox still holds ({@code firstSeq}).
 * The inbox holds exactly seqs {@code firstSeq..lastSeq}; {@code firstSeq == lastSeq + 1} means it
 * holds none (everything was trimmed). Guarantees: epoch valid; {@code 1 <= firstSeq <= lastSeq + 1};
 * {@code lastSeq >= 1} (a head exists only once its first event was sequenced).
 *
 * <p>{@code ageCheckAt} (epoch ms) lets the age bound skip reading the oldest entry on every
 * append: before that moment no entry can be past the inbox's max age (it is the oldest entry's
 * {@code sequencedAt + maxAge + 1}, or earlier, since entries are trimmed oldest first); 0 means
 * unknown (a head written before the field existed, or a new history): check at the next append.
 */
@JsonPropertyOrder({"epoch", "firstSeq", "lastSeq", "ageCheckAt"})
public record StreamHead(String epoch, long firstSeq, long lastSeq, long ageCheckAt) {

    private static final Serde<StreamHead> SERDE = new StreamHeadSerde();

    public StreamHead {
        Position.of(epoch, Math.max(1, lastSeq)); // validates the epoch and the seq range
        if (lastSeq < 1 || firstSeq < 1 || firstSeq > lastSeq + 1) {
            throw new IllegalArgumentException("stream head needs 1 <= firstSeq <= lastSeq + 1 and lastSeq >= 1, got firstSeq="
                    + firstSeq + " lastSeq=" + lastSeq);
        }
        ageCheckAt = Math.max(0, ageCheckAt);
    }

    /** A head whose age check is due at the next append. */
    public StreamHead(String epoch, long firstSeq, long lastSeq) {
        this(epoch, firstSeq, lastSeq, 0);
    }

    /** Binary, reading heads written as JSON too ({@link StreamHeadSerde}). */
    public static Serde<StreamHead> serde() {
        return SERDE;
    }

    /** The head of a brand-new history holding its first event at seq 1. */
    public static StreamHead first(String epoch) {
        return new StreamHead(epoch, 1, 1);
    }

    /** The head after appending one more event. */
    public StreamHead next() {
        return new StreamHead(epoch, firstSeq, lastSeq + 1, ageCheckAt);
    }

    public StreamHead withFirstSeq(long newFirstSeq) {
        return new StreamHead(epoch, newFirstSeq, lastSeq, ageCheckAt);
    }

    public StreamHead withAgeCheckAt(long at) {
        return new StreamHead(epoch, firstSeq, lastSeq, at);
    }

    /** Position of the newest event. */
    @JsonIgnore
    public Position position() {
        return Position.of(epoch, lastSeq);
    }

    /** How many events the inbox holds for this stream. */
    @JsonIgnore
    public long size() {
        return lastSeq - firstSeq + 1;
    }

    @JsonIgnore
    public boolean isEmpty() {
        return size() == 0;
    }
}
