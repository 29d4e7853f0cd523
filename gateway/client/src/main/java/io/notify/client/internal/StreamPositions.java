package io.notify.client.internal;

import io.notify.client.store.PositionStore;
import io.notify.protocol.stream.Position;
import io.notify.protocol.stream.StreamId;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The dedup gate: per stream, the position of the last durable event delivered to the listener
 * (loaded from the {@link PositionStore} on first use, written back through it), and the verdict
 * on each new durable event (docs/protocol.md §3.2). Within an epoch an event at or below the last
 * position is a duplicate, the next seq is delivered, a larger one is a gap; an event of another
 * epoch is never compared and never delivered (only a {@code reset} moves a stream to a new epoch).
 * A stream with no position takes its first durable event as its start.
 *
 * <p>Memory leads the store: {@link #delivered} updates memory first, so even when the store
 * fails the listener never sees the event twice in this process. Confined to the client's event
 * thread.
 */
public final class StreamPositions {

    /** What to do with a durable event. */
    public enum Verdict {
        /** The next event of the stream (or the first one the client sees): deliver it. */
        DELIVER,
        /** At or below the last delivered position: drop it. */
        DUPLICATE,
        /** Another epoch than the stored one: drop it and resynchronise. */
        OTHER_EPOCH,
        /** Seqs are missing before it: drop it and resume from the last delivered position. */
        GAP
    }

    private final PositionStore store;
    private final Map<StreamId, Optional<Position>> last = new HashMap<>();

    public StreamPositions(PositionStore store) {
        this.store = store;
    }

    /** The last delivered position of {@code stream}, from memory or else the store. */
    public Optional<Position> last(StreamId stream) {
        Optional<Position> known = last.get(stream);
        if (known == null) {
            known = store.load(stream);
            last.put(stream, known);
        }
        return known;
    }

    public Verdict check(StreamId stream, Position position) {
        return check(stream, position.epoch(), position.seq(), position.seq());
    }

    /**
     * The verdict on the seqs {@code from..to} of {@code epoch} arriving as one (a {@code collapsed}
     * frame; an event is the range of its one seq): DELIVER when they continue the stream (the next
     * seq is among them, so a range overlapping what was delivered is taken for its new part),
     * DUPLICATE when all are at or below the last position, GAP when seqs are missing before them.
     */
    public Verdict check(StreamId stream, String epoch, long from, long to) {
        Optional<Position> previous = last(stream);
        if (previous.isEmpty()) {
            return Verdict.DELIVER;
        }
        Position p = previous.get();
        if (!p.epoch().equals(epoch)) {
            return Verdict.OTHER_EPOCH;
        }
        if (to <= p.seq()) {
            return Verdict.DUPLICATE;
        }
        return from <= p.seq() + 1 ? Verdict.DELIVER : Verdict.GAP;
    }

    /**
     * Records that the listener processed the event at {@code position}: memory first, then the
     * store (whose failure is thrown to the caller after memory moved on).
     */
    public void delivered(StreamId stream, Position position) {
        last.put(stream, Optional.of(position));
        store.save(stream, position);
    }

    /** A reset: {@code head} becomes the stream's position; none forgets it ({@code unknown_stream}). */
    public void adopt(StreamId stream, Optional<Position> head) {
        last.put(stream, head);
        if (head.isPresent()) {
            store.save(stream, head.get());
        } else {
            store.remove(stream);
        }
    }

    /** Every position the store holds (for choosing an SSE resume position before a welcome). */
    public Map<StreamId, Position> stored() {
        return store.loadAll();
    }
}
