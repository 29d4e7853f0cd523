package io.notify.client.internal;

import io.notify.client.InboxChange;
import io.notify.client.InboxCounts;
import io.notify.client.InboxListener;
import io.notify.client.NotifyClientException.Kind;
import io.notify.client.NotifyClientException;
import io.notify.protocol.frame.StateFrame;
import io.notify.protocol.stream.Position;
import io.notify.protocol.stream.StreamId;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The client's unread estimate of the user's inbox (docs/inbox.md, "Cross-device sync"), kept when
 * the application registered an {@link InboxListener}: the counts of the newest read state the
 * client knows — a {@code state} frame, or the counts read after a (re)connect — computed up to a
 * head seq, plus the durable events of the user's stream processed beyond that head (every seq
 * above it is unread and unseen: no mark covers it yet; seqs a {@code collapsed} frame covers are
 * in the inbox too, so they count). A read state older than the one applied (a lower
 * {@code version}) is ignored. The position counted is the user stream's last processed one, so
 * dedup, gaps and resets need no separate bookkeeping here.
 *
 * <p>Confined to the client's event thread, which also runs the listener; {@link #current()} may be
 * read from any thread.
 */
public final class InboxTracker {

    /** A read state: its counts up to {@code head} (null: the stream had no durable event then). */
    private record Base(long unread, long unseen, long version, Position head) {
    }

    private final InboxListener listener;
    private final String device;
    private final Consumer<NotifyClientException> errors;
    private Base base;
    private Position own; // the user stream's last processed position
    private volatile InboxCounts estimate;

    /**
     * @param listener null: no estimate is kept and state frames are ignored
     * @param device   this client's device id (to tell its own changes)
     */
    public InboxTracker(InboxListener listener, String device, Consumer<NotifyClientException> errors) {
        this.listener = listener;
        this.device = device;
        this.errors = errors;
    }

    /** A tracker that keeps nothing. */
    public static InboxTracker off() {
        return new InboxTracker(null, null, e -> { });
    }

    /** Whether the application asked for the inbox's state (then the client reads the counts after each welcome). */
    public boolean on() {
        return listener != null;
    }

    public Optional<InboxCounts> current() {
        return Optional.ofNullable(estimate);
    }

    /** A {@code state} frame: applied unless older than the state applied; the listener hears of it, then of the estimate. */
    public void state(StateFrame f) {
        if (!on() || !apply(new Base(f.unread(), f.unseen(), f.version(), f.head() == 0 ? null : Position.of(f.epoch(), f.head())))) {
            return;
        }
        call("onState", () -> listener.onState(InboxChange.of(f, device)));
        published();
    }

    /** The counts read from the gateway ({@code GET /v1/inbox/unread}): applied unless older than the state applied. */
    public void counts(InboxCounts c) {
        if (on() && apply(new Base(c.unread(), c.unseen(), c.version(), c.head().orElse(null)))) {
            published();
        }
    }

    /** The last processed position of {@code stream} moved (an event, a collapsed range, a reset, a welcome's stored one). */
    public void moved(StreamId stream, Optional<Position> position) {
        if (on() && stream.isUser()) {
            own = position.orElse(null);
            published();
        }
    }

    private boolean apply(Base next) {
        if (base != null && next.version() < base.version()) {
            return false; // stale: a newer state was applied already
        }
        base = next;
        return true;
    }

    /** Recomputes the estimate and tells the listener when it changed. */
    private void published() {
        InboxCounts next = compute();
        if (next == null || next.equals(estimate)) {
            return;
        }
        estimate = next;
        call("onUnread", () -> listener.onUnread(next));
    }

    private InboxCounts compute() {
        if (base == null) {
            return null;
        }
        Position head = base.head();
        long counted = head == null ? 0 : head.seq();
        long beyond = 0;
        if (own != null && (head == null || own.sameEpoch(head)) && own.seq() > counted) {
            beyond = own.seq() - counted;
            head = own;
        }
        return new InboxCounts(base.unread() + beyond, base.unseen() + beyond, base.version(), Optional.ofNullable(head));
    }

    private void call(String what, Runnable callback) {
        try {
            callback.run();
        } catch (RuntimeException ex) {
            errors.accept(NotifyClientException.of(Kind.LISTENER, what + " threw", ex));
        }
    }
}
