package io.notify.gateway.transport;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * A connection's outbound queue, bounded in frames and in bytes (the frames being written count
 * until they are written). On overflow: an ephemeral frame replaces a queued ephemeral frame with the
 * same collapse key (latest wins, in the older one's place) or is dropped; a durable or control
 * frame is refused with {@link Offer#OVERFLOW}, on which the session closes the connection as a
 * slow consumer (4008) — durable events are never dropped silently. Thread-safe.
 */
public final class OutboundQueue {

    /** What happened to an offered frame. */
    public enum Offer {
        QUEUED, COALESCED, DROPPED, OVERFLOW, CLOSED
    }

    private final int maxFrames;
    private final long maxBytes;
    private ArrayDeque<OutboundFrame> queued; // null while empty: an idle connection holds no deque
    private long bytes;
    private int inFlightCount;
    private long inFlightBytes;
    private boolean closed;

    public OutboundQueue(int maxFrames, long maxBytes) {
        this.maxFrames = maxFrames;
        this.maxBytes = maxBytes;
    }

    public synchronized Offer offer(OutboundFrame frame) {
        if (closed) {
            return Offer.CLOSED;
        }
        if (fits(frame.size(), 1)) {
            if (queued == null) {
                queued = new ArrayDeque<>(4);
            }
            queued.addLast(frame);
            bytes += frame.size();
            return Offer.QUEUED;
        }
        if (!frame.droppable()) {
            return Offer.OVERFLOW;
        }
        if (frame.collapseKey() != null && coalesce(frame)) {
            return Offer.COALESCED;
        }
        return Offer.DROPPED;
    }

    private boolean fits(long size, int frames) {
        return queuedCount() + inFlightCount + frames <= maxFrames && bytes + inFlightBytes + size <= maxBytes;
    }

    private int queuedCount() {
        return queued == null ? 0 : queued.size();
    }

    private boolean coalesce(OutboundFrame frame) {
        if (queued == null) {
            return false;
        }
        // rebuild in place: ArrayDeque has no set(i); the queue is bounded, so the copy is too
        ArrayDeque<OutboundFrame> copy = new ArrayDeque<>(queued.size());
        boolean replaced = false;
        for (Iterator<OutboundFrame> it = queued.iterator(); it.hasNext(); ) {
            OutboundFrame f = it.next();
            if (!replaced && f.kind() == frame.kind() && frame.collapseKey().equals(f.collapseKey())
                    && bytes - f.size() + frame.size() + inFlightBytes <= maxBytes) {
                bytes += frame.size() - f.size();
                copy.addLast(frame);
                replaced = true;
            } else {
                copy.addLast(f);
            }
        }
        if (replaced) {
            queued.clear();
            queued.addAll(copy);
        }
        return replaced;
    }

    /** The next frame to write, now counted as in flight until {@link #written}; null when empty. */
    public synchronized OutboundFrame poll() {
        OutboundFrame f = queued == null ? null : queued.pollFirst();
        if (f != null && queued.isEmpty()) {
            queued = null;
        }
        if (f != null) {
            bytes -= f.size();
            inFlightCount++;
            inFlightBytes += f.size();
        }
        return f;
    }

    /**
     * The next frames to write as one (a gathered write): the first always, then more while there are
     * at most {@code max} and at most {@code maxBytes} in all; each counted as in flight until
     * {@link #written(List)}. Empty when nothing waits.
     */
    public synchronized List<OutboundFrame> pollUpTo(int max, long maxBytes) {
        if (queued == null) {
            return List.of();
        }
        OutboundFrame first = queued.pollFirst();
        long size = first.size();
        List<OutboundFrame> out;
        if (max <= 1 || queued.isEmpty() || size + queued.peekFirst().size() > maxBytes) {
            out = List.of(first);
        } else {
            out = new ArrayList<>(Math.min(max, queued.size() + 1));
            out.add(first);
            while (out.size() < max && !queued.isEmpty() && size + queued.peekFirst().size() <= maxBytes) {
                OutboundFrame f = queued.pollFirst();
                size += f.size();
                out.add(f);
            }
        }
        if (queued.isEmpty()) {
            queued = null;
        }
        bytes -= size;
        inFlightCount += out.size();
        inFlightBytes += size;
        return out;
    }

    public synchronized void written(OutboundFrame frame) {
        inFlightCount--;
        inFlightBytes -= frame.size();
    }

    /** Frames of one {@link #pollUpTo} are written (or failed): no longer in flight. */
    public synchronized void written(List<OutboundFrame> frames) {
        for (OutboundFrame f : frames) {
            inFlightCount--;
            inFlightBytes -= f.size();
        }
    }

    /** Refuses further frames and discards the queued ones (the client resumes; nothing durable is lost). */
    public synchronized void close() {
        closed = true;
        queued = null;
        bytes = 0;
    }

    public synchronized boolean isEmpty() {
        return queued == null;
    }

    public synchronized int frames() {
        return queuedCount() + inFlightCount;
    }

    public synchronized long bytes() {
        return bytes + inFlightBytes;
    }
}
