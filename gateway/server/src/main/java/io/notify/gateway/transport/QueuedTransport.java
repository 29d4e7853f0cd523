package io.notify.gateway.transport;

import io.notify.protocol.frame.CloseCode;
import java.util.List;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
import org.xnio.XnioIoThread;

/**
 * The write pump shared by both transports: frames go into a bounded {@link OutboundQueue} from
 * any thread; one pump on the connection's I/O thread writes them one write at a time (a write
 * takes up to {@link #maxGather()} queued frames, gathered), each write completing (possibly
 * synchronously) before the next starts; frames being written count against the queue's bound until
 * they are written, so the socket layer never holds more than the bound. Subclasses write frames and close the
 * underlying channel; they must call {@link #closedBy()} when the channel is gone, and
 * {@link #closeSeen} when a close went over the wire.
 *
 * <p>The code a connection is reported closed with ({@link Listener#closed}) is the one its client
 * saw: the first close on the wire — the node's close frame (SSE: the end of the stream) once it is
 * completely written, or the client's close frame when that came first — and 1006 when the
 * connection ended before either. A close the node decided but could not deliver (the client had
 * gone, or never read what was before it) is therefore 1006, not the code that was decided.
 */
public abstract class QueuedTransport implements Transport {

    /** Completion of one write. */
    protected interface WriteCallback {
        void done();

        void failed(Throwable error);
    }

    /** Bytes one gathered write takes at most (beyond its first frame, which always goes). */
    static final long MAX_GATHER_BYTES = 64 * 1024;
    private static final int PUMPING = 1;
    private static final int CLOSING = 2;
    private static final int CLOSED = 4;
    private static final AtomicIntegerFieldUpdater<QueuedTransport> FLAGS =
            AtomicIntegerFieldUpdater.newUpdater(QueuedTransport.class, "flags");

    private final OutboundQueue queue;
    /** The connection's I/O thread: the pump, closes and the subclasses' timers run on it. */
    protected final XnioIoThread io;
    private final IoPumps pumps; // the I/O thread's batch of due pumps
    QueuedTransport nextDue; // the next transport in the pumps' stack of due transports (IoPumps only)
    private volatile int flags; // PUMPING | CLOSING | CLOSED, one word for the three (an idle connection is mostly fields)
    private volatile Listener listener;
    private volatile int closeCode = 1006; // the first close on the wire (closeSeen); 1006 until there is one
    // touched only on the I/O thread, inside pump()
    private boolean inWrite;
    private boolean completedInWrite;

    protected QueuedTransport(OutboundQueue queue, XnioIoThread io) {
        this.queue = queue;
        this.io = io;
        this.pumps = IoPumps.of(io);
    }

    @Override
    public void listener(Listener listener) {
        this.listener = listener;
    }

    /** The connection's listener; null until one is set. */
    protected final Listener listener() {
        return listener;
    }

    @Override
    public OutboundQueue.Offer send(OutboundFrame frame) {
        if (closing()) {
            return OutboundQueue.Offer.CLOSED;
        }
        OutboundQueue.Offer result = queue.offer(frame);
        if (result == OutboundQueue.Offer.QUEUED) {
            kick();
        }
        return result;
    }

    private void kick() {
        if (setFlag(PUMPING)) {
            pumps.add(this); // runs pump() on the I/O thread, with the other connections due there (IoPumps)
        }
    }

    /** Writes what is queued; on the I/O thread only (IoPumps, or a write's completion). */
    void pump() {
        while (true) {
            List<OutboundFrame> next = closing() ? List.of() : queue.pollUpTo(maxGather(), MAX_GATHER_BYTES);
            if (next.isEmpty()) {
                clearFlag(PUMPING);
                if (!closing() && !queue.isEmpty()) {
                    kick(); // a frame arrived between poll() and set(false)
                }
                return;
            }
            inWrite = true;
            completedInWrite = false;
            write(next, new WriteCallback() {
                @Override
                public void done() {
                    queue.written(next);
                    Listener l = listener;
                    if (l != null) {
                        for (int i = 0; i < next.size(); i++) {
                            l.written(next.get(i));
                        }
                    }
                    if (inWrite) {
                        completedInWrite = true;
                    } else {
                        pump();
                    }
                }

                @Override
                public void failed(Throwable error) {
                    queue.written(next);
                    clearFlag(PUMPING);
                    abort();
                }
            });
            inWrite = false;
            if (!completedInWrite) {
                return; // the callback continues the pump
            }
        }
    }

    @Override
    public void close(CloseCode code) {
        close(code, code.reason());
    }

    @Override
    public void close(CloseCode code, String reason) {
        if (setFlag(CLOSING)) {
            queue.close();
            String clipped = clip(reason == null ? code.reason() : reason);
            io.execute(() -> closeChannel(code, clipped));
        }
    }

    /** A close reason is at most 123 bytes of UTF-8 (RFC 6455 §5.5). */
    static String clip(String reason) {
        byte[] bytes = reason.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        if (bytes.length <= 123) {
            return reason;
        }
        String cut = new String(bytes, 0, 120, java.nio.charset.StandardCharsets.UTF_8);
        if (!cut.isEmpty() && cut.charAt(cut.length() - 1) == '\uFFFD') {
            cut = cut.substring(0, cut.length() - 1);
        }
        return cut + "...";
    }

    @Override
    public boolean isOpen() {
        return !closing();
    }

    private boolean closing() {
        return (flags & CLOSING) != 0;
    }

    /** Sets {@code flag}; false when it was set already. */
    private boolean setFlag(int flag) {
        while (true) {
            int now = flags;
            if ((now & flag) != 0) {
                return false;
            }
            if (FLAGS.compareAndSet(this, now, now | flag)) {
                return true;
            }
        }
    }

    private void clearFlag(int flag) {
        while (true) {
            int now = flags;
            if (FLAGS.compareAndSet(this, now, now & ~flag)) {
                return;
            }
        }
    }

    /** Called by subclasses when the channel is gone; the first call wins and reports the close seen, else 1006. */
    protected final void closedBy() {
        if (setFlag(CLOSED)) {
            setFlag(CLOSING);
            queue.close();
            Listener l = listener;
            if (l != null) {
                l.closed(closeCode);
            }
        }
    }

    /** Marks the connection as closing because the client sent a close frame with {@code code}. */
    protected final void peerClosing(int code) {
        if (setFlag(CLOSING)) {
            queue.close();
        }
        closeSeen(code);
    }

    /**
     * A close went over the wire: the node's, completely written, or the client's, received. The
     * first one is the code the connection is reported with. I/O thread only.
     */
    protected final void closeSeen(int code) {
        if (closeCode == 1006) {
            closeCode = code;
        }
    }

    /**
     * Writes {@code frames} (at most {@link #maxGather()} of them, in queue order) as one write and
     * calls {@code callback} once they are all written; a frame that has nothing to write on this
     * transport (an SSE id update on a WebSocket) is skipped.
     */
    protected abstract void write(List<OutboundFrame> frames, WriteCallback callback);

    /**
     * How many queued frames one write may take; 1 by default. A connection that fell behind then
     * catches up with one system call for many frames instead of one each, so a node under a
     * broadcast spends less per frame exactly when it is behind (docs/gateway.md, "Connect, resume and live delivery").
     */
    protected int maxGather() {
        return 1;
    }

    /** Ends the connection gracefully with {@code code}; runs on the I/O thread. */
    protected abstract void closeChannel(CloseCode code, String reason);

    /** Ends the connection at once (write failure, close timeout). */
    protected abstract void abort();
}
