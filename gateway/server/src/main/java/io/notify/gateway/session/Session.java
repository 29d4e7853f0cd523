package io.notify.gateway.session;

import io.notify.common.logging.LogFields;
import io.notify.gateway.auth.AuthResult;
import io.notify.gateway.disconnect.Disconnect;
import io.notify.gateway.resume.FetchResult;
import io.notify.gateway.rooms.RoomPatterns;
import io.notify.gateway.transport.OutboundFrame;
import io.notify.gateway.transport.Transport;
import io.notify.protocol.frame.AckFrame;
import io.notify.protocol.frame.ClientFrame;
import io.notify.protocol.frame.CloseCode;
import io.notify.protocol.frame.FrameCodec;
import io.notify.protocol.frame.PingFrame;
import io.notify.protocol.frame.PongFrame;
import io.notify.protocol.frame.PresenceResultFrame;
import io.notify.protocol.frame.ProtocolException;
import io.notify.protocol.frame.ResumeFrame;
import io.notify.protocol.frame.ResumePoint;
import io.notify.protocol.frame.WelcomeFrame;
import io.notify.protocol.stream.Position;
import io.notify.protocol.stream.SequencedEvent;
import io.notify.protocol.stream.StreamEvent;
import io.notify.protocol.stream.StreamId;
import io.notify.registry.lease.NodePresence;
import io.notify.schemas.validation.FrameSchema;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;

/**
 * One client connection's state machine, the same for WebSocket and SSE (it only sees a
 * {@link Transport}): its state, its lock and its effects in one place. Everything reaches it as an
 * event — from its transport, the node topic, the sweeper, or an answer it waited for (a fetch, a
 * timer, a presence page) — which it hands, under its lock, to the part that decides
 * ({@link StreamSync} per stream, {@link Subscriptions}, {@link ConnectionTimers}); then it performs
 * the {@link Effect}s returned: it alone sends, fetches, schedules and closes; no part calls back.
 * Order on connect (docs/protocol.md §3.3): in the session table (live events are held from now on)
 * → registered (routing on) → {@code welcome} → the client's position (its resume frame, or what its
 * SSE transport reports) → replay → held live events → live. Guarantees: state changes happen under
 * the lock and never block (sends only enqueue); durable events reach the client in seq order without
 * duplicates ({@link StreamCursor}); one that does not fit the outbound queue closes with 4008; the
 * node's bookkeeping is given back exactly once, when the transport reports the connection gone.
 */
public final class Session implements Transport.Listener {

    private static final AtomicIntegerFieldUpdater<Session> CLOSED_ONCE = AtomicIntegerFieldUpdater.newUpdater(Session.class, "closedOnce");

    private enum State { STARTING, AWAITING_RESUME, ACTIVE, CLOSED }

    private record Resume(List<ResumePoint> positions, List<String> fresh) { } // one that came before the welcome

    private final String id;
    private final String userId;
    private final StreamId stream;
    private final String device; // the client's ?device=, else the connection id: its ack receipts name it
    private final RoomPatterns roomClaim; // the token's rooms claim; null: none
    private final Transport transport;
    private final SessionContext ctx;
    private final ConnectionTimers timers;
    private final StreamSync sync;
    private Subscriptions subscriptions; // rooms and b:all; null until the first subscribe (most connections)
    private volatile int closedOnce; // 1 once the transport reported the connection gone
    private volatile boolean opened;
    private State state = State.STARTING;
    private boolean started; // open() has put it in the table and sent its registration (under the lock)
    private Resume early; // a resume before the welcome, until the welcome applies it
    private CompletableFuture<FetchResult> anchorRead; // until welcome: the own stream's head read, withdrawable

    /**
     * A session of the user a handshake authenticated, with the rooms its token's claim allows, on the
     * device the client named ({@code device}; null: the device is the connection, {@code id}).
     */
    public Session(String id, AuthResult.Authenticated user, String device, Transport transport, SessionContext ctx) {
        this.id = id;
        this.device = device == null ? id : device;
        this.userId = user.userId();
        this.roomClaim = user.rooms();
        this.stream = StreamId.forUser(userId);
        this.transport = transport;
        this.ctx = ctx;
        this.timers = new ConnectionTimers(user.expiresAt().toEpochMilli());
        this.sync = new StreamSync(stream, null, id, ctx);
        transport.listener(this);
    }

    public String id() {
        return id;
    }

    public String userId() {
        return userId;
    }

    public StreamId stream() {
        return stream;
    }

    public Transport transport() {
        return transport;
    }

    /**
     * Starts the connect sequence and the transport (SSE reports where its client stands here); the
     * registration is not awaited. A client with a position is welcomed at once, else after its anchor.
     */
    public void open() {
        if (closedOnce != 0) {
            return; // the client left before we got here: nothing to register
        }
        opened = true;
        Registration.enter(ctx, this, this::registrationLost); // a lost one: rechecks soon bring what was routed nowhere
        transport.start();
        synchronized (this) {
            if (state != State.STARTING) {
                return;
            }
            started = true;
            if (early != null && ResumePoints.namesOwn(early.positions(), stream)) {
                welcome(); // the client said where it stands (SSE, or a resume that came with the handshake's bytes): no anchor
            } else {
                anchorRead = ctx.fetch(sync.anchorRequest()); // the head before welcome
                await(anchorRead, sync, true);
            }
        }
    }

    private void welcome() {
        if (state != State.STARTING || !send(OutboundFrame.control(WelcomeFrame.v1(ctx.config().nodeId(), id, List.of(stream),
                ctx.config().pingInterval().toMillis(), ctx.clock().millis())), null, null)) {
            return;
        }
        Resume said = early;
        early = null;
        timers.welcomed(System.nanoTime(), ctx.config(), said == null);
        state = State.AWAITING_RESUME;
        if (said != null) {
            start(said.positions(), said.fresh());
        }
    }

    /** The client's positions (own stream; rooms and b:all, each a subscribe from there), then {@code fresh} streams at their head. */
    private void start(List<ResumePoint> positions, List<String> fresh) {
        ResumePoints plan = ResumePoints.of(positions, stream);
        if (plan.foreign() != null) {
            hit(Disconnect.FOREIGN_STREAM, "resume names " + plan.foreign() + ", which this connection does not serve");
            return;
        }
        state = State.ACTIVE;
        timers.resumed();
        // one fetch per stream; the node's BatchingResumeSource coalesces them
        perform(plan.own() == null ? sync.startFresh() : sync.resumeFrom(plan.own().position()));
        for (ResumePoint p : plan.subscriptions()) {
            subscribe(p.stream().value(), p.position());
        }
        for (String room : fresh) {
            subscribe(room, null);
        }
    }

    private void subscribe(String name, Position from) {
        if (state == State.ACTIVE) {
            perform(subscriptions().subscribe(name, from));
        }
    }

    /** The session's rooms, made at the first room request: most connections have none. */
    private Subscriptions subscriptions() {
        if (subscriptions == null) {
            subscriptions = new Subscriptions(ctx, id, roomClaim, sync);
        }
        return subscriptions;
    }

    /** The client's resume: its {@code resume} frame, or where its SSE request said it stands ({@link Transport#start}). */
    @Override
    public synchronized void resume(List<ResumePoint> positions, List<String> fresh) {
        if (state == State.STARTING && early == null) {
            early = new Resume(positions, fresh); // sent before our welcome: applied right after it
            if (started && ResumePoints.namesOwn(positions, stream)) {
                welcome(); // it has a position: no anchor to wait for
                CompletableFuture<FetchResult> read = anchorRead;
                anchorRead = null;
                if (read != null) { // withdrawn: the batcher does not send it if it still waits there; else its answer is ignored
                    read.complete(new FetchResult.Failed(stream, "withdrawn: the client resumed before welcome"));
                }
            } // before open() (it came with the handshake's bytes, or SSE's start), open() welcomes it, once live events are held
        } else if (state == State.AWAITING_RESUME) {
            start(positions, fresh);
        } else if (state != State.CLOSED) {
            hit(Disconnect.PROTOCOL_ERROR, "resume must be sent exactly once, as the first frame");
        }
    }

    /** A client message; its frames took their inbound-rate tokens in the transport (every frame counts, not only messages). */
    @Override
    public synchronized void text(String text) {
        if (state == State.CLOSED) {
            return;
        }
        ClientFrame frame;
        try {
            frame = FrameCodec.v1().decodeClientFrame(text, FrameSchema.v1());
        } catch (ProtocolException e) {
            hit(Disconnect.PROTOCOL_ERROR, e.getMessage());
            return;
        }
        if (frame instanceof ResumeFrame resume) {
            resume(resume.streams(), List.of());
        } else if (state == State.AWAITING_RESUME || state == State.STARTING) {
            hit(Disconnect.PROTOCOL_ERROR, "the first frame after welcome must be resume, got " + frame.frameType().wireName());
        } else if (frame instanceof PingFrame) {
            send(SessionOutput.PONG, null, null);
        } else if (frame instanceof PongFrame) {
            timers.ponged();
        } else if (frame instanceof AckFrame ack) {
            ctx.metrics().ack();
            if (ack.stream().equals(stream)) { // the user's own stream: a receipt; acks of rooms and b:all stay metrics
                Position following = sync.position();
                ctx.receipts().ack(stream, following == null ? null : following.epoch(), ack.seq(), device);
            }
        } else {
            perform(subscriptions().request(frame)); // subscribe, unsubscribe, presence: the rooms'
        }
    }

    @Override
    public void pong() {
        timers.ponged(); // on the I/O thread, like pingWritten: no lock needed (ConnectionTimers)
    }

    /**
     * A live event ({@code encoded}: shared by all connections). True when queued at once, in order (the caller
     * counts those for the whole fan-out); any other outcome (held, a duplicate, a gap) is handled and counted here.
     */
    public synchronized boolean deliver(StreamEvent event, OutboundFrame encoded) {
        if (state == State.CLOSED || !transport.isOpen()) {
            // Closing: nothing more is queued. Checked once per frame here, not found out by a refused send
            // deeper down (JFR: 152,926 deoptimizations of StreamSync.apply in 15 s of a broadcast to closing connections)
            return false;
        }
        StreamSync target = following(event.stream());
        if (target == null) {
            return false;
        }
        if (event instanceof SequencedEvent durable) {
            if (target.advanceLive(durable)) { // the next one: sent at once, no position built without rooms
                return subscriptions == null ? send(encoded, null, null) : send(encoded, durable.stream(), durable.position());
            }
            perform(target.offerLive(durable, encoded));
            return false;
        }
        return state == State.ACTIVE && send(encoded, null, null);
    }

    /** An inbox {@code state} frame of {@code of}: no position, no cursor, ephemeral. True when it was queued. */
    public synchronized boolean deliverState(StreamId of, OutboundFrame frame) {
        return state == State.ACTIVE && transport.isOpen() && following(of) != null && send(frame, null, null);
    }

    /** A {@code recalled} frame of {@code at}, if this open connection was sent {@code at} ({@link StreamSync#recalled}), in any state. */
    public synchronized boolean deliverRecalled(StreamId of, Position at, OutboundFrame frame) {
        StreamSync target = following(of);
        return target != null && state != State.CLOSED && transport.isOpen() && target.recalled(at) && send(frame, null, null);
    }

    /** The sync of a stream this connection follows; null when it follows none of that name. */
    private StreamSync following(StreamId of) {
        return of.equals(stream) ? sync : subscriptions == null ? null : subscriptions.get(of);
    }

    /** Timers of this connection (pings, deadlines, periodic rechecks), driven by the node's sweeper; never blocks. */
    public synchronized void tick(long nowNanos, long nowMs) {
        if (state == State.CLOSED || state == State.STARTING || !transport.isOpen()) {
            return; // a closing connection has no timers left: its close is counted once, not once per tick
        }
        ConnectionTimers.Due due = timers.due(nowNanos, nowMs, ctx.config(), transport.bidirectional());
        if (due.disconnect != null) {
            hit(due.disconnect, due.detail(ctx.config()));
        } else if (due == ConnectionTimers.Due.RECYCLE) {
            ctx.metrics().recycled();
            close(CloseCode.RECYCLED);
        } else {
            if (due == ConnectionTimers.Due.PING) {
                send(SessionOutput.PING, null, null);
            }
            transport.tick(nowNanos);
            if (state == State.ACTIVE) {
                perform(sync.tick(nowNanos));
                if (subscriptions != null) {
                    perform(subscriptions.tick(nowNanos));
                }
            }
        }
    }

    /** A fetch's answer: the head read before welcome (own stream), before {@code subscribed} (a room), or a page. */
    private synchronized void fetched(StreamSync target, boolean anchor, FetchResult result) {
        if (anchor && target == sync) {
            anchorRead = null;
            if (state == State.STARTING) { // else welcomed meanwhile (its resume came first): the anchor is not needed
                sync.anchored(result);
                welcome();
            }
        } else if (state == State.ACTIVE && following(target.stream()) == target) { // else unsubscribed meanwhile
            perform(anchor ? subscriptions.anchored(target, result) : target.onFetched(result));
        }
    }

    /** A timer a stream asked for ({@link Effect.Wake}). */
    private synchronized void woke(StreamSync target, StreamSync.Alarm alarm) {
        if (state == State.ACTIVE && following(target.stream()) == target) {
            perform(target.woke(alarm));
        }
    }

    /** The registry's page for a {@code presence} request ({@code page} null: none in time). */
    private synchronized void answered(String name, NodePresence.Page page) {
        if (state != State.CLOSED) {
            send(Subscriptions.presenceResult(name, page, PresenceResultFrame.Error.UNAVAILABLE), null, null);
        }
    }

    /** The registration did not reach the registry: rechecks come sooner ({@link StreamSync#registrationLost}). */
    private synchronized void registrationLost() {
        if (state != State.CLOSED) {
            sync.registrationLost();
        }
    }

    @Override
    public void written(OutboundFrame frame) {
        if (frame == SessionOutput.PING) {
            timers.pingWritten(); // the pong deadline counts from the write, not the queueing (ConnectionTimers)
        }
        ctx.metrics().written(frame.ingestedAt(), frame.hops(), ctx.clock()); // upstream hops: once per message (Dispatcher)
    }

    @Override
    public void closed(int code) {
        if (!CLOSED_ONCE.compareAndSet(this, 0, 1)) {
            return;
        }
        List<StreamId> left;
        synchronized (this) {
            state = State.CLOSED; // from here no frame, timer or fetch can make subscriptions
            left = subscriptions == null ? List.of() : subscriptions.leaveAll();
            subscriptions = null;
        }
        Registration.leave(ctx, this, opened, left, code);
    }

    /** Performs what a deciding part returned, in order, under the lock; a refused send (closing) drops the rest. */
    private void perform(List<Effect> effects) {
        for (int i = 0; i < effects.size(); i++) {
            Effect effect = effects.get(i);
            if (effect instanceof Effect.Send s) {
                if (!send(s.frame(), s.stream(), s.position())) {
                    return;
                }
                s.count().counted(ctx.metrics());
            } else if (effect instanceof Effect.Fetch f) {
                if (state == State.ACTIVE) {
                    await(ctx.fetch(f.request()), f.sync(), f.anchor());
                }
            } else if (effect instanceof Effect.Wake w) {
                ctx.timer().schedule(() -> woke(w.sync(), w.alarm()), w.delayMs(), TimeUnit.MILLISECONDS);
            } else if (effect instanceof Effect.Close c) {
                hit(c.reason(), c.detail());
            } else {
                RoomMembership.perform(ctx, this, effect, this::answered); // join, leave, a presence page
            }
        }
    }

    /** A fetch of {@code target}'s: its answer (a failure when there is none in time) comes back as {@link #fetched}. */
    private void await(CompletableFuture<FetchResult> answer, StreamSync target, boolean anchor) {
        answer.whenComplete((result, error) -> fetched(target, anchor, result != null ? result
                : new FetchResult.Failed(target.stream(), "no answer: " + error)));
    }

    /** Enqueues a frame, positioned at {@code at} in {@code in} (null: not positioned); false when the connection is closing. */
    private boolean send(OutboundFrame frame, StreamId in, Position at) {
        return SessionOutput.send(transport, ctx.metrics(), frame, subscriptions, in, at);
    }

    private void hit(Disconnect reason, String detail) {
        SessionOutput.disconnect(transport, ctx.metrics(), reason, detail);
    }

    public void close(CloseCode code) {
        transport.close(code);
    }

    /** The MDC fields of a log line about this connection and {@code about} (its own stream or a room); close after the call. */
    LogFields logFields(StreamId about) {
        return ctx.logFields(id, about);
    }
}
