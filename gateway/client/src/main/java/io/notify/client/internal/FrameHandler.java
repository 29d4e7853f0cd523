package io.notify.client.internal;

import io.notify.client.ClientEvent;
import io.notify.client.NotifyClientException;
import io.notify.client.NotifyClientException.Kind;
import io.notify.client.NotifyListener;
import io.notify.client.RoomListener;
import io.notify.schemas.protocol.AckFrame;
import io.notify.schemas.protocol.EventFrame;
import io.notify.schemas.protocol.PingFrame;
import io.notify.schemas.protocol.PongFrame;
import io.notify.schemas.protocol.ResetFrame;
import io.notify.schemas.protocol.ResumeFrame;
import io.notify.schemas.protocol.ResumePoint;
import io.notify.schemas.protocol.ServerFrame;
import io.notify.schemas.protocol.SseCursor;
import io.notify.schemas.protocol.SubscribeFrame;
import io.notify.schemas.protocol.SubscribeRefusedFrame;
import io.notify.schemas.protocol.SubscribedFrame;
import io.notify.schemas.protocol.UnsubscribedFrame;
import io.notify.schemas.protocol.WelcomeFrame;
import io.notify.schemas.stream.Position;
import io.notify.schemas.stream.StreamId;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

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
 * events of a stream the application no longer holds are dropped. Acks are collected here
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
    private final Map<StreamId, Long> unacked = new LinkedHashMap<>();
    private List<StreamId> streams = List.of();
    private boolean resumed; // this connection's resume went out before its welcome

    public FrameHandler(NotifyListener listener, StreamPositions positions, Consumer<NotifyClientException> errors,
                        ClientCounters counters) {
        this(listener, positions, errors, counters, new Rooms());
    }

    public FrameHandler(NotifyListener listener, StreamPositions positions, Consumer<NotifyClientException> errors,
                        ClientCounters counters, Rooms rooms) {
        this.rooms = rooms;
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
        if (frame instanceof ResetFrame r) {
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
        if (!e.stream().isUser() && rooms.listener(e.stream()) == null) {
            counters.unsubscribedDropped.incrementAndGet(); // left (or never held) by the application
            return Outcome.CONTINUE;
        }
        Optional<Position> position = e.position();
        if (position.isEmpty()) {
            deliver(e); // ephemeral: no dedup, no position
            return Outcome.CONTINUE;
        }
        Position p = position.get();
        StreamPositions.Verdict verdict;
        try {
            verdict = positions.check(e.stream(), p);
        } catch (RuntimeException ex) {
            errors.accept(NotifyClientException.of(Kind.POSITION_STORE, "cannot load the position of " + e.stream(), ex));
            return new Outcome(null, "position store unavailable");
        }
        switch (verdict) {
            case DUPLICATE -> {
                counters.duplicatesDropped.incrementAndGet();
                return Outcome.CONTINUE;
            }
            case OTHER_EPOCH -> {
                counters.duplicatesDropped.incrementAndGet();
                return new Outcome(null, e.stream() + ": event " + p + " is not in the epoch of " + positions.last(e.stream()).orElseThrow());
            }
            case GAP -> {
                return new Outcome(null, e.stream() + ": got " + p + " after " + positions.last(e.stream()).orElseThrow());
            }
            default -> {
                deliver(e);
                try {
                    positions.delivered(e.stream(), p);
                } catch (RuntimeException ex) {
                    errors.accept(NotifyClientException.of(Kind.POSITION_STORE, "cannot save " + e.stream() + " at " + p, ex));
                }
                unacked.put(e.stream(), p.seq());
                return Outcome.CONTINUE;
            }
        }
    }

    private void deliver(EventFrame e) {
        try {
            if (e.stream().isUser()) {
                listener.onEvent(ClientEvent.of(e));
            } else {
                rooms.listener(e.stream()).onEvent(ClientEvent.of(e));
            }
        } catch (RuntimeException ex) {
            errors.accept(NotifyClientException.of(Kind.LISTENER, "onEvent threw on " + e.id(), ex));
        }
        counters.delivered.incrementAndGet();
    }

    private void reset(ResetFrame r) {
        counters.resets.incrementAndGet();
        Optional<Position> head = Optional.ofNullable(r.head());
        try {
            RoomListener room = r.stream().isUser() ? null : rooms.listener(r.stream());
            if (room != null) {
                room.onReset(r.stream(), r.reason(), head);
            } else if (r.stream().isUser()) {
                listener.onReset(r.stream(), r.reason(), head);
            }
        } catch (RuntimeException ex) {
            errors.accept(NotifyClientException.of(Kind.LISTENER, "onReset threw for " + r.stream(), ex));
        }
        try {
            positions.adopt(r.stream(), head);
        } catch (RuntimeException ex) {
            errors.accept(NotifyClientException.of(Kind.POSITION_STORE, "cannot store the reset head of " + r.stream(), ex));
        }
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
        try {
            l.onSubscribed(f.stream(), head);
        } catch (RuntimeException ex) {
            errors.accept(NotifyClientException.of(Kind.LISTENER, "onSubscribed threw for " + f.stream(), ex));
        }
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
        try {
            l.onRefused(stream, f.reason().wireName());
        } catch (RuntimeException ex) {
            errors.accept(NotifyClientException.of(Kind.LISTENER, "onRefused threw for " + stream, ex));
        }
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
        try {
            l.onUnsubscribed(stream);
        } catch (RuntimeException ex) {
            errors.accept(NotifyClientException.of(Kind.LISTENER, "onUnsubscribed threw for " + stream, ex));
        }
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

    /**
     * The SSE {@code Last-Event-ID}: with no subscriptions the plain position of §1
     * ({@link #ssePosition}); with some, the composite cursor (docs/protocol.md §8) of the user's
     * stream and every subscribed stream the store holds a position for.
     */
    public Optional<String> sseLastEventId() {
        if (rooms.isEmpty()) {
            return ssePosition().map(Position::format);
        }
        StringBuilder cursor = new StringBuilder();
        Optional<StreamId> own = streams.size() == 1 ? Optional.of(streams.get(0)) : storedUserStream();
        own.flatMap(this::stored).ifPresent(p -> SseCursor.append(cursor, own.get(), p));
        for (StreamId s : rooms.streams()) {
            stored(s).ifPresent(p -> SseCursor.append(cursor, s, p));
        }
        return cursor.length() == 0 ? Optional.empty() : Optional.of(cursor.toString());
    }

    private Optional<StreamId> storedUserStream() {
        try {
            List<StreamId> users = positions.stored().keySet().stream().filter(StreamId::isUser).toList();
            return users.size() == 1 ? Optional.of(users.get(0)) : Optional.empty();
        } catch (RuntimeException ex) {
            return Optional.empty();
        }
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

    /**
     * Where an SSE request resumes: the position of the single stream the last welcome named, or,
     * before any welcome, of the single stream the store holds (v1 SSE serves exactly one stream).
     */
    public Optional<Position> ssePosition() {
        if (streams.size() == 1) {
            return stored(streams.get(0));
        }
        try {
            Map<StreamId, Position> all = positions.stored();
            return all.size() == 1 ? stored(all.keySet().iterator().next()) : Optional.empty();
        } catch (RuntimeException ex) {
            errors.accept(NotifyClientException.of(Kind.POSITION_STORE, "cannot read the position store; starting live", ex));
            return Optional.empty();
        }
    }
}
