package io.notify.client.internal;

import io.notify.client.ClientEvent;
import io.notify.client.NotifyClientException.Kind;
import io.notify.client.NotifyClientException;
import io.notify.client.NotifyListener;
import io.notify.client.RoomListener;
import io.notify.protocol.frame.AckFrame;
import io.notify.protocol.frame.CollapsedFrame;
import io.notify.protocol.frame.EventFrame;
import io.notify.protocol.frame.PingFrame;
import io.notify.protocol.frame.PongFrame;
import io.notify.protocol.frame.RecalledFrame;
import io.notify.protocol.frame.ResetFrame;
import io.notify.protocol.frame.ResumeFrame;
import io.notify.protocol.frame.ResumePoint;
import io.notify.protocol.frame.ServerFrame;
import io.notify.protocol.frame.StateFrame;
import io.notify.protocol.frame.SubscribeFrame;
import io.notify.protocol.frame.SubscribeRefusedFrame;
import io.notify.protocol.frame.SubscribedFrame;
import io.notify.protocol.frame.UnsubscribedFrame;
import io.notify.protocol.frame.WelcomeFrame;
import io.notify.protocol.stream.Position;
import io.notify.protocol.stream.StreamId;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.LongConsumer;

/**
 * The protocol side of the client, one decoded server frame at a time (docs/protocol.md §3.2):
 * answers {@code welcome} with the {@code resume} frame built from the stored positions of the
 * streams it names (unless that resume already went out as soon as the WebSocket opened,
 * {@link #resumeBeforeWelcome}), passes each durable event through {@link StreamPositions} (duplicates and
 * other-epoch events dropped, gaps reported for a resync), calls the listener and only then
 * persists the position, answers {@code ping} with {@code pong}, and turns a {@code reset} into
 * {@link NotifyListener#onReset} followed by adopting the server's head. Room and broadcast
 * streams ({@link Rooms}) go the same way to their {@link RoomListener}: {@code subscribed} adopts
 * the head when the client held no position, {@code subscribe_refused} drops the subscription,
 * events of a stream the application no longer holds are dropped. A {@code collapsed} frame
 * stands in for the seqs it covers: it passes the same dedup gate as a range, tells the listener,
 * and moves the position to its last seq; a {@code recalled} frame is told and moves nothing. A {@code state}
 * frame goes to the {@link InboxTracker}, which also hears of every move of the user stream's position. Acks are collected here
 * and sent by the loop at its own pace ({@link #takeAcks}) so they never approach the gateway's
 * inbound rate limit. Confined to the client's event thread; no I/O of its own.
 */
public final class FrameHandler {

    /** What the loop does after a frame. */
    public record Outcome(WelcomeFrame welcome, String resyncReason) {
        static final Outcome CONTINUE = new Outcome(null, null);

        public boolean welcomed() {
            return welcome != null;
        }

        public boolean resync() {
            return resyncReason != null;
        }
    }

    private final NotifyListener listener;
    private final StreamPositions positions;
    private final Consumer<NotifyClientException> errors;
    private final ClientCounters counters;
    private final Rooms rooms;
    private final InboxTracker inbox;
    private final SseResume sse;
    private final Map<StreamId, Long> unacked = new LinkedHashMap<>();
    private List<StreamId> streams = List.of();
    private boolean resumed; // this connection's resume went out before its welcome

    public FrameHandler(NotifyListener listener, StreamPositions positions, Consumer<NotifyClientException> errors,
                        ClientCounters counters) {
        this(listener, positions, errors, counters, new Rooms());
    }

    public FrameHandler(NotifyListener listener, StreamPositions positions, Consumer<NotifyClientException> errors,
                        ClientCounters counters, Rooms rooms) {
        this(listener, positions, errors, counters, rooms, InboxTracker.off());
    }

    public FrameHandler(NotifyListener listener, StreamPositions positions, Consumer<NotifyClientException> errors,
                        ClientCounters counters, Rooms rooms, InboxTracker inbox) {
        this.rooms = rooms;
        this.inbox = inbox;
        this.sse = new SseResume(positions, rooms, this::stored, errors);
        this.listener = listener;
        this.positions = positions;
        this.errors = errors;
        this.counters = counters;
    }

    public Outcome handle(ServerFrame frame, Transport out) {
        if (frame instanceof WelcomeFrame w) {
            return welcome(w, out);
        }
        if (frame instanceof EventFrame e) {
            return event(e);
        }
        if (frame instanceof CollapsedFrame c) {
            return collapsed(c);
        }
        if (frame instanceof StateFrame f) {
            inbox.state(f);
        } else if (frame instanceof RecalledFrame f && held(f.stream())) { // told, nothing else: no position moves, no ack
            call("onRecalled threw for " + f.stream(), () -> WithheldCalls.recalled(listener, rooms.listener(f.stream()), f));
        } else if (frame instanceof ResetFrame r) {
            reset(r);
        } else if (frame instanceof SubscribedFrame f) {
            subscribed(f);
        } else if (frame instanceof SubscribeRefusedFrame f) {
            refused(f);
        } else if (frame instanceof UnsubscribedFrame f) {
            unsubscribed(f.stream());
        } else if (frame instanceof PingFrame) {
            out.send(PongFrame.INSTANCE);
        }
        return Outcome.CONTINUE; // pong: nothing to do
    }

    /** A new connection attempt: nothing sent on it yet. */
    public void connecting() {
        resumed = false;
    }

    /**
     * The {@code resume} to send as soon as a WebSocket is open, before its {@code welcome}
     * (docs/protocol.md, "resume"): the gateway then replays at once, without reading the stream's
     * head first. Only when the last welcome named streams (the client was connected before) and
     * the store holds a position for every one of them; otherwise empty, and the resume follows the
     * welcome as it always did (a fresh start needs the head the gateway reads before welcoming).
     */
    public Optional<ResumeFrame> resumeBeforeWelcome() {
        if (streams.isEmpty()) {
            return Optional.empty();
        }
        List<ResumePoint> points = new ArrayList<>(streams.size());
        for (StreamId s : streams) {
            Optional<Position> p;
            try {
                p = positions.last(s);
            } catch (RuntimeException ex) {
                return Optional.empty(); // the welcome's turn reports it
            }
            if (p.isEmpty()) {
                return Optional.empty();
            }
            points.add(ResumePoint.of(s, p.get()));
        }
        resumed = true;
        return Optional.of(new ResumeFrame(points));
    }

    private Outcome welcome(WelcomeFrame w, Transport out) {
        streams = w.streams();
        unacked.clear();
        // re-ack the user's stream where this device stands: an ack the last connection had not sent (or a
        // gateway lost with its 100 ms receipt batch) is made good, so what it covers triggers no fallback
        for (StreamId s : w.streams()) {
            if (s.isUser()) {
                stored(s).ifPresent(p -> unacked.put(s, p.seq()));
            }
        }
        streams.forEach(s -> inbox.moved(s, stored(s)));
        if (out.canSend() && !resumed) {
            List<ResumePoint> points = new ArrayList<>();
            for (StreamId s : w.streams()) {
                stored(s).ifPresent(p -> points.add(ResumePoint.of(s, p)));
            }
            out.send(new ResumeFrame(points)); // only streams the welcome names: a foreign one would be closed with 4003
        }
        return new Outcome(w, null);
    }

    private Outcome event(EventFrame e) {
        if (!held(e.stream())) {
            return Outcome.CONTINUE;
        }
        Optional<Position> position = e.position();
        if (position.isEmpty()) {
            deliver(e); // ephemeral: no dedup, no position
            return Outcome.CONTINUE;
        }
        Position p = position.get();
        return durable(e.stream(), p.epoch(), p.seq(), p.seq(), first -> deliver(e));
    }

    /**
     * Seqs {@code from..to} superseded during a catch-up, or muted, expired or recalled (a reason): processed as one,
     * from the first the client lacks; the listener told as {@link WithheldCalls} says.
     */
    private Outcome collapsed(CollapsedFrame c) {
        if (!held(c.stream())) {
            return Outcome.CONTINUE;
        }
        return durable(c.stream(), c.epoch(), c.from(), c.to(), first -> {
            counters.collapsedSkipped.addAndGet(c.to() - first + 1);
            RoomListener room = rooms.listener(c.stream());
            call("onCollapsed threw for " + c.stream(), () -> WithheldCalls.collapsed(listener, room, c, first));
        });
    }

    /** Whether the application holds {@code stream}: its own, or a subscription (else counted and dropped). */
    private boolean held(StreamId stream) {
        if (stream.isUser() || rooms.listener(stream) != null) {
            return true;
        }
        counters.unsubscribedDropped.incrementAndGet(); // left (or never held) by the application
        return false;
    }

    /**
     * The dedup gate for the durable seqs {@code from..to} of {@code epoch} (one event: one seq):
     * {@code process} runs with the first seq the client lacks when they continue the stream, then
     * the position moves to {@code to} (memory, store, unread estimate) and is due for an ack.
     */
    private Outcome durable(StreamId stream, String epoch, long from, long to, LongConsumer process) {
        String what = from == to ? epoch + ":" + to : epoch + ":" + from + ".." + to;
        Optional<Position> last;
        StreamPositions.Verdict verdict;
        try {
            last = positions.last(stream);
            verdict = positions.check(stream, epoch, from, to);
        } catch (RuntimeException ex) {
            errors.accept(NotifyClientException.of(Kind.POSITION_STORE, "cannot load the position of " + stream, ex));
            return new Outcome(null, "position store unavailable");
        }
        switch (verdict) {
            case DUPLICATE -> {
                counters.duplicatesDropped.incrementAndGet();
                return Outcome.CONTINUE;
            }
            case OTHER_EPOCH -> {
                counters.duplicatesDropped.incrementAndGet();
                return new Outcome(null, stream + ": " + what + " is not in the epoch of " + last.orElseThrow());
            }
            case GAP -> {
                return new Outcome(null, stream + ": got " + what + " after " + last.orElseThrow());
            }
            default -> {
                process.accept(last.map(p -> Math.max(from, p.seq() + 1)).orElse(from));
                Position p = Position.of(epoch, to);
                try {
                    positions.delivered(stream, p);
                } catch (RuntimeException ex) {
                    errors.accept(NotifyClientException.of(Kind.POSITION_STORE, "cannot save " + stream + " at " + p, ex));
                }
                inbox.moved(stream, Optional.of(p));
                unacked.put(stream, to);
                return Outcome.CONTINUE;
            }
        }
    }

    private void deliver(EventFrame e) {
        call("onEvent threw on " + e.id(), () -> {
            if (e.stream().isUser()) {
                listener.onEvent(ClientEvent.of(e));
            } else {
                rooms.listener(e.stream()).onEvent(ClientEvent.of(e));
            }
        });
        counters.delivered.incrementAndGet();
    }

    /** Runs a listener callback; one that throws is reported ({@code LISTENER}) and otherwise ignored. */
    private void call(String what, Runnable callback) {
        try {
            callback.run();
        } catch (RuntimeException ex) {
            errors.accept(NotifyClientException.of(Kind.LISTENER, what, ex));
        }
    }

    private void reset(ResetFrame r) {
        counters.resets.incrementAndGet();
        Optional<Position> head = Optional.ofNullable(r.head());
        RoomListener room = r.stream().isUser() ? null : rooms.listener(r.stream());
        call("onReset threw for " + r.stream(), () -> {
            if (room != null) {
                room.onReset(r.stream(), r.reason(), head);
            } else if (r.stream().isUser()) {
                listener.onReset(r.stream(), r.reason(), head);
            }
        });
        try {
            positions.adopt(r.stream(), head);
        } catch (RuntimeException ex) {
            errors.accept(NotifyClientException.of(Kind.POSITION_STORE, "cannot store the reset head of " + r.stream(), ex));
        }
        inbox.moved(r.stream(), head);
        unacked.remove(r.stream());
    }

    /**
     * A subscription is on: the head becomes the stream's position when the client held none (it
     * gets the events after it, as the gateway sends them), then the listener hears of it.
     */
    private void subscribed(SubscribedFrame f) {
        RoomListener l = rooms.listener(f.stream());
        if (l == null) {
            return; // left meanwhile; its unsubscribed follows
        }
        Optional<Position> head = Optional.ofNullable(f.head());
        if (head.isPresent() && stored(f.stream()).isEmpty()) {
            try {
                positions.adopt(f.stream(), head);
            } catch (RuntimeException ex) {
                errors.accept(NotifyClientException.of(Kind.POSITION_STORE, "cannot store the head of " + f.stream(), ex));
            }
        }
        call("onSubscribed threw for " + f.stream(), () -> l.onSubscribed(f.stream(), head));
    }

    private void refused(SubscribeRefusedFrame f) {
        StreamId stream;
        try {
            stream = StreamId.parse(f.stream());
        } catch (IllegalArgumentException ex) {
            return; // not a name this client sends
        }
        RoomListener l = rooms.refused(stream);
        if (l == null) {
            l = rooms.unsubscribed(stream); // an unsubscribe refused by name: it is over as well
        }
        if (l == null) {
            return;
        }
        RoomListener refused = l;
        call("onRefused threw for " + stream, () -> refused.onRefused(stream, f.reason().wireName()));
    }

    /** The gateway (or a lost connection) ended a subscription the application left. */
    public void unsubscribed(StreamId stream) {
        RoomListener l = rooms.unsubscribed(stream);
        if (l != null) {
            unsubscribedNow(stream, l);
        }
    }

    /** Tells {@code l} that its subscription to {@code stream} is over. */
    public void unsubscribedNow(StreamId stream, RoomListener l) {
        call("onUnsubscribed threw for " + stream, () -> l.onUnsubscribed(stream));
    }

    /** One {@code subscribe} per subscription, from its stored position when there is one (sent after each welcome). */
    public List<SubscribeFrame> subscribeFrames() {
        List<SubscribeFrame> out = new ArrayList<>();
        for (StreamId s : rooms.streams()) {
            out.add(subscribeFrame(s));
        }
        return out;
    }

    public SubscribeFrame subscribeFrame(StreamId s) {
        return stored(s).map(p -> SubscribeFrame.from(s.value(), p)).orElseGet(() -> SubscribeFrame.fresh(s.value()));
    }

    /** The SSE {@code Last-Event-ID} of the next request ({@link SseResume#lastEventId}). */
    public Optional<String> sseLastEventId() {
        return sse.lastEventId(streams);
    }

    /** Where an SSE request resumes the user's stream ({@link SseResume#position}). */
    public Optional<Position> ssePosition() {
        return sse.position(streams);
    }

    /** The stored position of {@code s}: what an ack over HTTP names as its epoch. */
    public Optional<Position> position(StreamId s) {
        return stored(s);
    }

    private Optional<Position> stored(StreamId s) {
        try {
            return positions.last(s);
        } catch (RuntimeException ex) {
            errors.accept(NotifyClientException.of(Kind.POSITION_STORE, "cannot load the position of " + s + "; resuming it live", ex));
            return Optional.empty();
        }
    }

    /** The acks to send now (cumulative, one per stream), and forgets them. */
    public List<AckFrame> takeAcks() {
        List<AckFrame> acks = new ArrayList<>();
        unacked.forEach((s, seq) -> acks.add(new AckFrame(s, seq)));
        unacked.clear();
        return acks;
    }
}
