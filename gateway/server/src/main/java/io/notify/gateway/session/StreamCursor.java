package io.notify.gateway.session;

import io.notify.protocol.stream.Position;
import io.notify.protocol.stream.SequencedEvent;
import io.notify.protocol.stream.StreamId;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/**
 * What one connection has been sent of one stream, and the merge of live and fetched events.
 * Pure state, no I/O: its {@link StreamSync} feeds it events and fetch results and turns the returned
 * {@link Step}s into the session's effects. Not thread-safe (the session serializes calls).
 *
 * <p>Guarantees, within one epoch: the events it returns to send have consecutive seqs starting at
 * the position's seq + 1; a seq is returned at most once (≤ the position is a duplicate); a live
 * event after a gap is held back, and a fetch of the missing range is requested, until the gap is
 * filled or a reset moves the position. While held ("syncing": before the client said where it
 * stands, or while a fetch is in flight) live events wait in a buffer bounded by {@code maxPending};
 * events beyond it are discarded and fetched again afterwards, so the bound costs time, never events.
 * At most one fetch is requested at a time: {@code fetch} is returned only when none is outstanding.
 *
 * <p>A client without a position starts fresh ({@link #startFresh}) at the anchor read before its
 * {@code welcome} ({@link #presetAnchor}: the stream's head then, or just before the first live
 * event already held, if earlier), so every event sequenced after the client was welcomed is
 * delivered, also one that was never routed here — a registration not yet visible to the router,
 * Redis down, a lookup timeout. A stream with no history at the anchor starts at seq 1. Without an
 * anchor (the query API did not answer) the first live event is the start. {@link #recheck} asks
 * the inbox again later, which catches such events even when no later live event reveals the gap.
 */
public final class StreamCursor {

    /**
     * What the session does next.
     *
     * @param send       durable events to send, in this order
     * @param duplicates events dropped because they were already sent
     * @param fetch      start a fetch after {@link #position()} (none is in flight)
     * @param gap        a live gap was found (metric)
     * @param progress   the last fetch result moved the position (false: retry later, with backoff)
     * @param fetched    how many of the first events of {@code send} came from the fetched page; the
     *                   rest are live events that were held meanwhile
     */
    public record Step(List<SequencedEvent> send, int duplicates, boolean fetch, boolean gap, boolean progress, int fetched) {
        static final Step NONE = new Step(List.of(), 0, false, false, true);

        /** A step whose events (if any) all came live. */
        public Step(List<SequencedEvent> send, int duplicates, boolean fetch, boolean gap, boolean progress) {
            this(send, duplicates, fetch, gap, progress, 0);
        }
    }

    private final StreamId stream;
    private final int maxPending;
    private TreeMap<Long, SequencedEvent> pending; // null while nothing is held (most of a connection's life)
    private Position position;
    private boolean syncing = true;
    private boolean pendingOverflowed;
    private boolean anchorKnown;
    private Position anchorHead;
    private boolean fromStart;
    private Position leftToLive; // the newest event the last recheck left to the live path; null: none

    /** A cursor that holds live events until {@link #resumeFrom} or {@link #startLive}. */
    public StreamCursor(StreamId stream, int maxPending) {
        this.stream = stream;
        this.maxPending = maxPending;
    }

    public StreamId stream() {
        return stream;
    }

    /** The last position sent (or adopted from the client or a reset); null when none yet. */
    public Position position() {
        return position;
    }

    public boolean syncing() {
        return syncing;
    }

    public int pendingCount() {
        return pending == null ? 0 : pending.size();
    }

    /** The client processed up to {@code from}: fetch what follows it. */
    public Step resumeFrom(Position from) {
        position = from;
        syncing = true;
        return new Step(List.of(), 0, true, false, true);
    }

    /** The client has no position: deliver live from now on (held events first), the first event being the start. */
    public Step startLive() {
        return release(new Acc());
    }

    /** The stream's head read before the client was welcomed (null: no history yet). */
    public void presetAnchor(Position head) {
        anchorKnown = true;
        anchorHead = head;
    }

    /** The preset anchor: the head read before welcome or subscribe (null: none, or no history). */
    public Position anchorHead() {
        return anchorHead;
    }

    /** The client has no position: start at the preset anchor (see the class comment), else live. */
    public Step startFresh() {
        return anchorKnown ? anchor(anchorHead) : startLive();
    }

    /**
     * A safety net against events that never reached this node: unless a fetch is outstanding, ask
     * the inbox what follows the position ({@link Step#fetch}); nothing to do while the cursor has
     * no anchor to ask from.
     */
    public Step recheck() {
        if (syncing || (position == null && !fromStart)) {
            return Step.NONE;
        }
        syncing = true;
        return new Step(List.of(), 0, true, false, true);
    }

    /**
     * The common case of a live durable event, decided without building a {@link Step}: when the
     * cursor is live (not syncing) and {@code e} is the next seq of the position's epoch, the
     * position moves to it and the caller sends it; otherwise nothing changes and the caller hands
     * it to {@link #offerLive}. Same outcome as {@link #offerLive} returning {@code e} alone.
     */
    public boolean advanceLive(SequencedEvent e) {
        if (syncing || position == null || e.seq() != position.seq() + 1 || !e.epoch().equals(position.epoch())) {
            return false;
        }
        position = e.position();
        return true;
    }

    /** A live durable event from the node topic. */
    public Step offerLive(SequencedEvent e) {
        Acc acc = new Acc();
        offer(e, acc);
        return acc.step(true);
    }

    /**
     * A page of the inbox after {@link #position()} (from its oldest event when there is none);
     * {@code more}: the inbox holds more after it.
     */
    public Step applyPage(List<SequencedEvent> events, boolean more) {
        Acc acc = new Acc();
        boolean progress = false;
        for (SequencedEvent e : events) {
            if (position == null) {
                acc.send.add(e); // asked from the oldest event held: it is the stream's start
                position = e.position();
                progress = true;
            } else if (!e.epoch().equals(position.epoch()) || e.seq() <= position.seq()) {
                acc.duplicates++;
            } else if (e.seq() == position.seq() + 1) {
                acc.send.add(e);
                position = e.position();
                progress = true;
            } else {
                more = true; // not contiguous (the inbox changed under us): ask again from where we are
                break;
            }
        }
        int fetched = acc.send.size();
        if (more) {
            return new Step(List.copyOf(acc.send), acc.duplicates, true, false, progress, fetched);
        }
        Step released = release(acc);
        return new Step(released.send, released.duplicates, released.fetch, released.gap, progress || !released.fetch, fetched);
    }

    /**
     * A recheck's page: as {@link #applyPage}, except that events sequenced after
     * {@code notSequencedAfterMs} are left to the live path, which may simply not have brought them
     * yet (the inbox is readable before the node-topic record is consumed). They are neither sent
     * nor counted; {@link #youngLeft()} then says a follow-up recheck is due once they are old enough,
     * and {@link #awaitingLive()} whether it is still needed then.
     */
    public Step applyRecheckPage(List<SequencedEvent> events, boolean more, long notSequencedAfterMs) {
        int old = 0;
        while (old < events.size() && events.get(old).sequencedAt() <= notSequencedAfterMs) {
            old++;
        }
        leftToLive = old < events.size() ? events.get(events.size() - 1).position() : null;
        return applyPage(events.subList(0, old), more && leftToLive == null);
    }

    /** Whether the last {@link #applyRecheckPage} left events to the live path. */
    public boolean youngLeft() {
        return leftToLive != null;
    }

    /** Whether events the last recheck left to the live path have still not all been sent. */
    public boolean awaitingLive() {
        return leftToLive != null && (position == null || !position.epoch().equals(leftToLive.epoch())
                || position.seq() < leftToLive.seq());
    }

    private Step anchor(Position head) {
        position = head;
        fromStart = head == null;
        if (head != null && pending != null && !pending.isEmpty()) {
            SequencedEvent first = pending.firstEntry().getValue();
            if (first.epoch().equals(head.epoch()) && first.seq() <= head.seq()) {
                position = new Position(head.epoch(), first.seq() - 1); // held live events are delivered, not skipped
            }
        }
        return release(new Acc());
    }

    /** The position cannot be continued: adopt {@code head} (null: the stream has no history). */
    public Step applyReset(Position head) {
        position = head;
        return release(new Acc());
    }

    private Step release(Acc acc) {
        syncing = false;
        List<SequencedEvent> held = pending == null ? List.of() : new ArrayList<>(pending.values());
        pending = null;
        for (SequencedEvent e : held) {
            offer(e, acc);
        }
        if (pendingOverflowed && !syncing) {
            pendingOverflowed = false;
            syncing = true;
            acc.fetch = position != null || fromStart;
            if (!acc.fetch) {
                syncing = false; // nothing to fetch from: start at the next live event
            }
        }
        return acc.step(true);
    }

    private void offer(SequencedEvent e, Acc acc) {
        if (syncing) {
            if (position != null && e.epoch().equals(position.epoch()) && e.seq() <= position.seq()) {
                acc.duplicates++;
            } else if (pending != null && pending.size() >= maxPending && !pending.containsKey(e.seq())) {
                pendingOverflowed = true;
            } else {
                hold(e);
            }
            return;
        }
        if (position == null) {
            if (fromStart && e.seq() != 1) {
                syncing = true; // the stream began after the anchor: fetch it from its first event
                hold(e);
                acc.fetch = true;
                acc.gap = true;
                return;
            }
            acc.send.add(e); // no position: the first event seen is the start (protocol §3.2)
            position = e.position();
            return;
        }
        if (e.epoch().equals(position.epoch()) && e.seq() <= position.seq()) {
            acc.duplicates++;
        } else if (e.epoch().equals(position.epoch()) && e.seq() == position.seq() + 1) {
            acc.send.add(e);
            position = e.position();
        } else {
            // a gap, or a new epoch: hold it and ask the inbox (which answers events or a reset)
            syncing = true;
            hold(e);
            acc.fetch = true;
            acc.gap = true;
        }
    }

    private void hold(SequencedEvent e) {
        if (pending == null) {
            pending = new TreeMap<>();
        }
        pending.put(e.seq(), e);
    }

    private static final class Acc {
        final List<SequencedEvent> send = new ArrayList<>();
        int duplicates;
        boolean fetch;
        boolean gap;

        Step step(boolean progress) {
            return send.isEmpty() && duplicates == 0 && !fetch && !gap ? Step.NONE
                    : new Step(List.copyOf(send), duplicates, fetch, gap, progress);
        }
    }
}
