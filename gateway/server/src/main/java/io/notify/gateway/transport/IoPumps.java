package io.notify.gateway.transport;

import java.lang.ref.WeakReference;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.xnio.XnioIoThread;

/**
 * The write pumps due on one I/O thread, run by one task of that thread instead of one task per
 * connection. Two reasons, both measured under a broadcast to 15,000 connections (docs/BENCHMARKS.md,
 * "Rooms and broadcast"):
 * <ul>
 *   <li>XNIO's I/O thread runs every queued task, including those queued while it runs them, before
 *       it selects again. Fed one pump task per connection per event by the delivery thread, it
 *       hardly ever selected: the clients' pongs sat unread in the sockets (300–460 KB of
 *       receive queues across 9,000–15,000 sockets) until every connection was closed for missed pongs. This task takes a
 *       snapshot of what is due and runs only that; what becomes due meanwhile runs after the
 *       selector has had its turn ({@code executeAfter}, 1 ms), so reads are served between batches.</li>
 *   <li>One task (and at most one selector wake-up) per I/O thread per batch, not per connection.</li>
 * </ul>
 * The due transports form an intrusive stack (each transport is in it at most once: only a transport
 * that sets its pumping flag is added), so adding allocates nothing. Thread-safe.
 */
final class IoPumps implements Runnable {

    /** Looked up once per connection; weak: a stopped node's threads (tests start many) are not kept. */
    private static final Map<XnioIoThread, IoPumps> BY_THREAD = new WeakHashMap<>();

    private final WeakReference<XnioIoThread> io; // the transports hold their thread strongly while they live
    private final AtomicReference<QueuedTransport> due = new AtomicReference<>(); // the stack's top, linked by nextDue
    private final AtomicBoolean scheduled = new AtomicBoolean();

    private IoPumps(XnioIoThread io) {
        this.io = new WeakReference<>(io);
    }

    /** The pumps of {@code io} (one per I/O thread, for the thread's life). */
    static IoPumps of(XnioIoThread io) {
        synchronized (BY_THREAD) {
            return BY_THREAD.computeIfAbsent(io, IoPumps::new);
        }
    }

    private XnioIoThread io() {
        XnioIoThread thread = io.get();
        if (thread == null) {
            throw new IllegalStateException("the I/O thread of a live connection is gone");
        }
        return thread;
    }

    /** {@code t} has frames to write: its pump runs in this thread's next batch. */
    void add(QueuedTransport t) {
        QueuedTransport top;
        do {
            top = due.get();
            t.nextDue = top;
        } while (!due.compareAndSet(top, t));
        if (!scheduled.get() && scheduled.compareAndSet(false, true)) {
            io().execute(this);
        }
    }

    @Override
    public void run() {
        QueuedTransport taken = due.getAndSet(null);
        QueuedTransport fifo = null; // the stack reversed: pumps run in the order they became due
        while (taken != null) {
            QueuedTransport next = taken.nextDue;
            taken.nextDue = fifo;
            fifo = taken;
            taken = next;
        }
        while (fifo != null) {
            QueuedTransport t = fifo;
            fifo = t.nextDue;
            t.nextDue = null;
            t.pump();
        }
        if (due.get() != null) {
            io().executeAfter(this, 1, TimeUnit.MILLISECONDS); // more became due meanwhile: after the next select
            return;
        }
        scheduled.set(false);
        if (due.get() != null && scheduled.compareAndSet(false, true)) {
            io().executeAfter(this, 1, TimeUnit.MILLISECONDS); // added between the check and the reset
        }
    }
}
