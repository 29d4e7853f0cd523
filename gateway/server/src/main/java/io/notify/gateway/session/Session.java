package io.notify.gateway.session;

import io.notify.common.logging.LogFields;
import io.notify.gateway.admission.Limit;
import io.notify.gateway.auth.AuthResult;
import io.notify.gateway.resume.FetchResult;
import io.notify.gateway.rooms.RoomPatterns;
import io.notify.gateway.transport.OutboundFrame;
import io.notify.gateway.transport.Transport;
import io.notify.gateway.transport.WebSocketTransport;
import io.notify.protocol.frame.AckFrame;
import io.notify.protocol.frame.ClientFrame;
import io.notify.protocol.frame.CloseCode;
import io.notify.protocol.frame.FrameCodec;
import io.notify.protocol.frame.PingFrame;
import io.notify.protocol.frame.PongFrame;
import io.notify.protocol.frame.PresenceFrame;
import io.notify.protocol.frame.ProtocolException;
import io.notify.protocol.frame.ResumeFrame;
import io.notify.protocol.frame.ResumePoint;
import io.notify.protocol.frame.SubscribeFrame;
import io.notify.protocol.frame.UnsubscribeFrame;
import io.notify.protocol.frame.WelcomeFrame;
import io.notify.protocol.stream.Position;
import io.notify.protocol.stream.SequencedEvent;
import io.notify.protocol.stream.StreamEvent;
import io.notify.protocol.stream.StreamId;
import io.notify.schemas.validation.FrameSchema;
import java.util.List;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One client connection's protocol state, the same for WebSocket and SSE (it only sees a
 * {@link Transport}). Order on connect (docs/protocol.md §3.3): put in the session table (live
 * events are held from now on) → register in the registry (live routing on) → {@code welcome} →
 * the client's position (resume frame, or SSE Last-Event-ID) → replay → held live events → live.
 *
 * <p>Guarantees: all state changes happen under this object's lock and never block (sends only
 * enqueue); durable events reach the client in seq order without duplicates (see
 * {@link StreamCursor}); a durable event that does not fit the outbound queue closes the
 * connection with 4008; unregistration and the per-user slot release happen exactly once, when
 * the transport reports the connection gone.
 */
public final class Session implements Transport.Listener, WebSocketTransport.Inbound {

    private static final Logger LOG = LoggerFactory.getLogger(Session.class);
    /** Encoded once, shared by every connection (frames are immutable). */
    private static final AtomicIntegerFieldUpdater<Session> CLOSED_ONCE = AtomicIntegerFieldUpdater.newUpdater(Session.class, "closedOnce");

    private enum State { STARTING, AWAITING_RESUME, ACTIVE, CLOSED }

    private final String id;
    private final String userId;
    private final StreamId stream;
    private final String device; // the client's ?device=, else the connection id: its ack receipts name it
    private final RoomPatterns roomClaim; // the token's rooms claim; null: none
    private final Transport transport;
    private final SessionContext ctx;
    private final ConnectionTimers timers;
    private final SessionOutput output;
    private final StreamSync sync;
    private Subscriptions subscriptions; // rooms and b:all; null until the first subscribe (most connections)
    private volatile int closedOnce; // 1 once the transport reported the connection gone
    private volatile boolean opened;
    private State state = State.STARTING;
    private boolean started; // open() has put it in the table and sent its registration (under the lock)
    private ResumeFrame earlyResume;
    private SseStart sseStart; // SSE: the positions of Last-Event-ID and the rooms to subscribe; null for WebSocket

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
        this.output = new SessionOutput(transport, stream, ctx.metrics(), () -> hit(Limit.SLOW_CONSUMER, null));
        this.sync = new StreamSync(this, stream, ctx);
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
     * Starts the connect sequence; {@code start} is where an SSE client stands (null for WebSocket,
     * whose client says so in {@code resume}).
     * The registration is not awaited: routing is a hint, and a fresh start's anchor read plus the
     * rechecks cover the moment before the routers see it (docs/gateway.md, "Connect, resume and live delivery").
     * A client that has a position is welcomed at once; one without waits for its anchor (the head),
     * unless its {@code resume} arrives meanwhile.
     */
    public void open(SseStart start) {
        if (closedOnce != 0) {
            return; // the client left before we got here: nothing to register
        }
        opened = true;
        this.sseStart = start;
        ctx.metrics().connectionOpened(transport.kind());
        ctx.table().add(this);
        // Redis is a routing hint: a failed registration is counted and logged, the node keeps serving and registers
        // again later, and the stream is rechecked soon so what was routed nowhere meanwhile comes (StreamSync)
        RegistryWrites.watch(ctx, id, ctx.registrar().register(stream, id), "register", "registration of " + stream,
                () -> runLocked(sync::registrationLost));
        synchronized (this) {
            if (state != State.STARTING) {
                return;
            }
            started = true;
            if (!transport.bidirectional() && sseStart != null && ResumePoints.namesOwn(sseStart.positions(), stream)
                    || earlyResume != null && ResumePoints.namesOwn(earlyResume.streams(), stream)) {
                welcome(); // the client said where it stands (a resume that came with the handshake's bytes): no anchor
            } else {
                sync.readAnchor(this::beforeWelcome, this::welcome); // the client may start fresh: its anchor is the head before welcome
            }
        }
    }

    private synchronized void welcome() {
        if (state != State.STARTING) {
            return;
        }
        if (!send(OutboundFrame.control(WelcomeFrame.v1(ctx.config().nodeId(), id, List.of(stream),
                ctx.config().pingInterval().toMillis(), ctx.clock().millis())))) {
            return;
        }
        timers.welcomed(System.nanoTime(), ctx.config(), transport.bidirectional());
        if (transport.bidirectional()) {
            state = State.AWAITING_RESUME;
            if (earlyResume != null) {
                resume(earlyResume.streams());
            }
        } else {
            SseStart start = sseStart == null ? SseStart.NONE : sseStart;
            sseStart = null;
            resume(start.positions());
            for (String room : start.fresh()) {
                if (state == State.ACTIVE) {
                    subscriptions().subscribe(room, null);
                }
            }
        }
    }

    /**
     * The client's positions: its own stream's (if any), and rooms' and b:all's, each of which is a
     * subscribe from that position (docs/protocol.md, "Rooms and broadcast"). Another user's stream closes with 4003.
     */
    private void resume(List<ResumePoint> points) {
        ResumePoints plan = ResumePoints.of(points, stream);
        if (plan.foreign() != null) {
            hit(Limit.FOREIGN_STREAM, "resume names " + plan.foreign() + ", which this connection does not serve");
            return;
        }
        state = State.ACTIVE;
        timers.resumed();
        if (plan.own() == null) {
            sync.startFresh();
        } else {
            // one fetch per stream; the node's BatchingResumeSource coalesces them
            sync.resumeFrom(plan.own().position());
            sync.fetchNow();
        }
        for (ResumePoint p : plan.subscriptions()) {
            if (state == State.ACTIVE) {
                subscriptions().subscribe(p.stream().value(), p.position());
            }
        }
    }

    /** The session's subscriptions, made at the first subscribe (call under the lock). */
    private Subscriptions subscriptions() {
        if (subscriptions == null) {
            subscriptions = new Subscriptions(this, ctx, roomClaim);
        }
        return subscriptions;
    }

    /** Whether the session is active (call under the lock). */
    boolean activeLocked() {
        return state == State.ACTIVE;
    }

    /**
     * A live event from the node topic; {@code encoded} is shared by all connections it goes to.
     * True when its frame was queued at once, in order: the caller counts those for the whole
     * fan-out ({@code events_delivered_total{path="live"}}); any other outcome (held while syncing,
     * a duplicate, a gap) is handled and counted here.
     */
    public synchronized boolean deliver(StreamEvent event, OutboundFrame encoded) {
        if (state == State.CLOSED || !transport.isOpen()) {
            // Closing (a limit hit, a close frame on its way): nothing more is queued. Checked here,
            // once per frame, rather than found out by a refused send deep in StreamSync, whose
            // compiled code treats that refusal as an uncommon trap — at 10,000 refusals/s (a
            // broadcast reaching thousands of closing connections) every one fell back to the
            // interpreter (JFR: 152,926 deoptimizations of StreamSync.apply in 15 s).
            return false;
        }
        StreamSync target = event.stream().equals(stream) ? sync
                : subscriptions == null ? null : subscriptions.get(event.stream());
        if (target == null) {
            return false;
        }
        if (event instanceof SequencedEvent durable) {
            return target.offerLive(durable, encoded);
        }
        return state == State.ACTIVE && send(encoded);
    }

    synchronized void onFetched(StreamSync target, FetchResult result) {
        if (state == State.ACTIVE && (target == sync || subscriptions != null && subscriptions.holds(target))) {
            target.onFetched(result);
        }
    }

    /** True until the welcome is sent (call under the lock). */
    boolean beforeWelcome() {
        return state == State.STARTING;
    }

    synchronized void runLocked(Runnable action) {
        if (state != State.CLOSED) {
            action.run();
        }
    }

    synchronized boolean isActive() {
        return state == State.ACTIVE;
    }

    /**
     * Enqueues a frame (positioned: one that moves the client in {@code positioned}, or a durable event's);
     * false when the connection is closing. How it goes out, counted and cursored: {@link SessionOutput}.
     */
    boolean send(OutboundFrame frame, StreamId positioned, Position position) {
        return output.send(frame, subscriptions, sync.position(), positioned, position);
    }

    boolean send(OutboundFrame frame, SequencedEvent event) {
        return output.send(frame, subscriptions, sync.position(), event);
    }

    boolean send(OutboundFrame frame) {
        return output.send(frame);
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
            hit(Limit.PROTOCOL_ERROR, e.getMessage());
            return;
        }
        if (frame instanceof ResumeFrame resume) {
            if (state == State.STARTING && earlyResume == null) {
                earlyResume = resume; // sent before our welcome: applied right after it
                if (started && ResumePoints.namesOwn(resume.streams(), stream)) {
                    welcome(); // it has a position: no anchor to wait for
                    sync.withdrawAnchor(); // not sent if it still waits in the batcher; its answer is ignored if it was
                } // before open() (it came with the handshake's bytes), open() welcomes it, once live events are held
            } else if (state == State.AWAITING_RESUME) {
                resume(resume.streams());
            } else {
                hit(Limit.PROTOCOL_ERROR, "resume must be sent exactly once, as the first frame");
            }
        } else if (state == State.AWAITING_RESUME || state == State.STARTING) {
            hit(Limit.PROTOCOL_ERROR, "the first frame after welcome must be resume, got " + frame.frameType().wireName());
        } else if (frame instanceof PingFrame) {
            send(SessionOutput.PONG);
        } else if (frame instanceof PongFrame) {
            timers.ponged();
        } else if (frame instanceof AckFrame ack) {
            ctx.metrics().ack();
            if (ack.stream().equals(stream)) { // the user's own stream: a receipt; acks of rooms and b:all stay metrics
                Position following = sync.position();
                ctx.receipts().ack(stream, following == null ? null : following.epoch(), ack.seq(), device);
            }
        } else if (frame instanceof SubscribeFrame subscribe) {
            subscriptions().subscribe(subscribe.stream(), subscribe.position().orElse(null));
        } else if (frame instanceof UnsubscribeFrame unsubscribe) {
            subscriptions().unsubscribe(unsubscribe.stream());
        } else if (frame instanceof PresenceFrame presence) {
            subscriptions().presence(presence);
        }
    }

    /** Counts the limit and closes with its documented answer ({@code detail}: a specific close reason, or null). */
    void hit(Limit limit, String detail) {
        ctx.metrics().limitHit(limit.slug());
        close(limit.answer(), detail == null ? limit.answer().reason() : detail);
    }

    @Override
    public void pong() {
        timers.ponged(); // on the I/O thread, like pingWritten: no lock needed (ConnectionTimers)
    }

    /** Timers of this connection (pings, deadlines, periodic rechecks), driven by the node's sweeper; never blocks. */
    public synchronized void tick(long nowNanos, long nowMs) {
        if (state == State.CLOSED || state == State.STARTING || !transport.isOpen()) {
            return; // a closing connection has no timers left: its close is counted once, not once per tick
        }
        ConnectionTimers.Due due = timers.due(nowNanos, nowMs, ctx.config(), transport.bidirectional());
        if (due.limit != null) {
            hit(due.limit, due.detail(ctx.config()));
        } else if (due == ConnectionTimers.Due.RECYCLE) {
            ctx.metrics().recycled();
            close(CloseCode.RECYCLED);
        } else {
            if (due == ConnectionTimers.Due.PING) {
                send(SessionOutput.PING);
            }
            transport.tick(nowNanos);
            if (state == State.ACTIVE) {
                sync.tick(nowNanos);
                if (subscriptions != null) {
                    subscriptions.tick(nowNanos);
                }
            }
        }
    }

    public void close(CloseCode code) {
        transport.close(code);
    }

    public void close(CloseCode code, String reason) {
        transport.close(code, reason);
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
        Subscriptions left;
        synchronized (this) {
            state = State.CLOSED; // from here no frame, timer or fetch can make subscriptions
            left = subscriptions;
            subscriptions = null;
        }
        ctx.limiter().release(userId);
        if (!opened) {
            return;
        }
        ctx.table().remove(this);
        if (left != null) {
            left.leaveAll();
        }
        ctx.metrics().connectionClosed(transport.kind(), code);
        RegistryWrites.watch(ctx, id, ctx.registrar().unregister(stream, id), "unregister", null);
        if (LOG.isDebugEnabled()) {
            try (LogFields f = logFields(stream)) {
                LOG.debug("connection {} ({} {}) closed with {}", id, transport.kind(), stream, code);
            }
        }
    }

    /** The MDC fields of a log line about this connection and {@code about} (its own stream or a room); close after the call. */
    LogFields logFields(StreamId about) {
        return LogFields.of(LogFields.NODE, ctx.config().nodeId(), LogFields.CONNECTION, id, LogFields.STREAM, about.value());
    }
}
