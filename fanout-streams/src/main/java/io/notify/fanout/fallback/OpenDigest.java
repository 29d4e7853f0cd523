package io.notify.fanout.fallback;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.notify.protocol.stream.SequencedEvent;
import io.notify.schemas.serde.JsonSerde;
import java.util.ArrayList;
import java.util.List;

/**
 * A digest that is still collecting (value of the {@value FallbackDigests#STORE} store, key: the user's
 * stream and the digest key): its {@code first} event, which holds the one pending fallback entry, due
 * at {@code dueAt}; the {@code last} folded in; how many were folded ({@code count}) and the seqs of the
 * first {@value #MAX_SEQS} of them, which the decision checks against acks and reads (any beyond are
 * counted as unread). Events sequenced before {@code dueAt} fold in; the digest fires at {@code dueAt}.
 * Internal to fanout-streams.
 */
@JsonPropertyOrder({"first", "last", "count", "seqs", "dueAt"})
record OpenDigest(SequencedEvent first, SequencedEvent last, long count, List<Long> seqs, long dueAt) {

    static final int MAX_SEQS = 1000;
    private static final JsonSerde<OpenDigest> SERDE = JsonSerde.of(OpenDigest.class);

    OpenDigest {
        seqs = seqs == null ? List.of() : List.copyOf(seqs);
    }

    static JsonSerde<OpenDigest> serde() {
        return SERDE;
    }

    static OpenDigest open(SequencedEvent first, long dueAt) {
        return new OpenDigest(first, first, 1, List.of(first.seq()), dueAt);
    }

    /** Whether {@code e} folds into this digest: the same history, sequenced before it fires. */
    boolean takes(SequencedEvent e) {
        return e.epoch().equals(first.epoch()) && e.seq() > last.seq() && e.sequencedAt() < dueAt;
    }

    OpenDigest with(SequencedEvent e) {
        List<Long> next = seqs;
        if (seqs.size() < MAX_SEQS) {
            next = new ArrayList<>(seqs);
            next.add(e.seq());
        }
        return new OpenDigest(first, e, count + 1, next, dueAt);
    }

    OpenDigest dueAt(long newDueAt) {
        return new OpenDigest(first, last, count, seqs, newDueAt);
    }

    /** The pending entry's key. */
    FallbackKey pendingKey() {
        return new FallbackKey(dueAt, first.stream(), first.seq());
    }
}
