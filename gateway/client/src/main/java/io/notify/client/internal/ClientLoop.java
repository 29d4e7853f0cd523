package io.notify.client.internal;

import io.notify.client.ConnectionState;
import io.notify.client.NotifyClientException.Kind;
import io.notify.client.NotifyClientException;
import io.notify.client.RoomListener;
import io.notify.client.TransportMode;
import io.notify.client.reconnect.Backoff;
import io.notify.client.reconnect.Disconnect;
import io.notify.client.reconnect.ReconnectPlan;
import io.notify.client.reconnect.ReconnectPolicy;
import io.notify.protocol.frame.ClientFrame;
import io.notify.protocol.frame.CollapsedFrame;
import io.notify.protocol.frame.EventFrame;
import io.notify.protocol.frame.FrameCodec;
import io.notify.protocol.frame.ProtocolException;
import io.notify.protocol.frame.ServerFrame;
import io.notify.protocol.frame.UnsubscribeFrame;
import io.notify.protocol.frame.WelcomeFrame;
import io.notify.protocol.stream.StreamId;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ScheduledFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The client's event loop: one thread owns every piece of connection state and runs every
 * listener callback, so frames are handled strictly in order and nothing needs a lock. It
 * connects (token on the token thread, then the transport), treats the gateway's {@code welcome}
 * as the only proof of a successful open (backoff reset, CONNECTED), watches for silence
 * (no welcome within the connect timeout; then no frame for {@code pingInterval + max(3 s, pingInterval / 2)}),
 * paces its own frames ({@link FramePacer}: acks, subscribes, unsubscribes), subscribes to every
 * room after each {@code welcome} (over SSE the rooms go in the URL, and a change of them reconnects
 * the stream), reads the inbox's counts after each {@code welcome} when the application tracks them
 * ({@link InboxTracker}), and on every end asks {@link ReconnectPolicy} what to do: stop, or reconnect
 * after a delay to the next gateway URL (the same URL when falling back to SSE).
 */
public final class ClientLoop {

    private static final Logger LOG = LoggerFactory.getLogger(ClientLoop.class);

    private final ClientSettings settings;
    private final LoopThreads threads;
    private final HttpClient http;
    private final Backoff backoff;
    private final ReconnectPolicy policy;
    private final FrameHandler frames;
    private final ClientCounters counters = new ClientCounters();
    private final ListenerCalls calls;
    private final Rooms rooms = new Rooms();
    private final FramePacer pacer = new FramePacer();
    private final Tokens tokens;
    private final InboxTracker tracker;
    private final InboxHttp inbox;
    private final AckSender acks;
    private final SilenceWatch silence;
    private volatile int gatewayIndex; // written on the loop thread; inbox requests read it
    // confined to the loop thread
    private int generation;
    private Transport transport;
    private boolean onSse;
    private boolean refreshToken;
    private boolean stopped;
    private boolean closed;
    private ScheduledFuture<?> reconnectTimer;
    private ScheduledFuture<?> pacerTimer;
    private boolean welcomed; // the current connection got its welcome
    // read from any thread
    private volatile String nodeId;
    private volatile TransportMode activeMode;

    public ClientLoop(ClientSettings settings) {
        this(settings, Map.of());
    }

    /** With the subscriptions made on the builder, in place before the first connect. */
    public ClientLoop(ClientSettings settings, Map<StreamId, RoomListener> initialRooms) {
        this.settings = settings;
        this.threads = new LoopThreads();
        this.http = settings.http() != null ? settings.http() : HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(settings.connectTimeout())
                .build();
        this.backoff = new Backoff(settings.backoffBase(), settings.backoffCap(), settings.random());
        this.policy = new ReconnectPolicy(backoff, settings.promptly(), settings.maxRetryAfter());
        this.calls = new ListenerCalls(settings.listener());
        this.tokens = new Tokens(settings.token(), threads);
        this.silence = new SilenceWatch(threads, gen -> gen == generation && transport != null,
                quiet -> giveUp(new Disconnect.Silent(quiet)));
        this.tracker = new InboxTracker(settings.inbox(), settings.device(), calls::error);
        this.inbox = new InboxHttp(http, () -> settings.gateways().get(gatewayIndex), tokens, settings.device());
        this.frames = new FrameHandler(settings.listener(), new StreamPositions(settings.store()), calls::error, counters,
                rooms, tracker);
        this.acks = new AckSender(frames, inbox, threads, settings.ackInterval(), () -> transport, this::sendPaced);
        initialRooms.forEach(rooms::add);
        this.onSse = settings.mode() == TransportMode.SSE;
    }

    public void start() {
        threads.run(this::connect);
    }

    /** Connects now: restarts a client stopped by a terminal outcome, or skips a pending reconnect delay. */
    public void reconnect() {
        threads.run(() -> {
            if (closed || transport != null) {
                return;
            }
            cancel(reconnectTimer);
            stopped = false;
            backoff.reset();
            connect();
        });
    }

    /** Closes gracefully (acks flushed, WebSocket close 1000); waits at most {@code timeout} for the loop. */
    public void close(Duration timeout) {
        threads.runAndWait(() -> {
            if (closed) {
                return;
            }
            closed = true;
            inbox.close();
            cancel(reconnectTimer);
            if (transport != null) {
                frames.takeAcks().forEach(transport::send); // last acks directly: nothing paces a closing connection
            }
            drop();
            calls.state(ConnectionState.CLOSED);
        }, timeout);
        threads.shutdown();
    }

    /** Subscribes to a room or b:all (from any thread); see {@link io.notify.client.NotifyClient#subscribe}. */
    public void subscribe(StreamId stream, RoomListener listener) {
        Rooms.check(stream);
        threads.run(() -> {
            if (closed || !rooms.add(stream, listener) || transport == null) {
                return; // not connected: the next welcome (or SSE request) carries it
            }
            if (onSse) {
                restartSse();
            } else if (welcomed) {
                sendPaced(frames.subscribeFrame(stream));
            }
        });
    }

    /** Leaves a room or b:all (from any thread). */
    public void unsubscribe(StreamId stream) {
        threads.run(() -> {
            if (closed || rooms.remove(stream) == null) {
                return;
            }
            if (transport != null && welcomed && !onSse) {
                sendPaced(new UnsubscribeFrame(stream.value())); // onUnsubscribed when the gateway confirms
                return;
            }
            frames.unsubscribed(stream);
            if (transport != null && onSse) {
                restartSse();
            }
        });
    }

    public Set<StreamId> subscriptions() {
        return rooms.snapshot();
    }

    /** SSE names its rooms in the request: a new set is a new request, resumed from the stored positions. */
    private void restartSse() {
        drop();
        connect();
    }

    public ConnectionState state() {
        return calls.currentState();
    }

    public String nodeId() {
        return nodeId;
    }

    public TransportMode activeMode() {
        return activeMode;
    }

    public ClientCounters counters() {
        return counters;
    }

    /** The inbox API's requests, to the gateway of the current (or next) connection. */
    public InboxHttp inbox() {
        return inbox;
    }

    public InboxTracker tracker() {
        return tracker;
    }

    private void connect() {
        if (closed || stopped) {
            return;
        }
        int gen = ++generation;
        calls.state(ConnectionState.CONNECTING);
        Endpoints gateway = settings.gateways().get(gatewayIndex);
        boolean refresh = refreshToken;
        refreshToken = false;
        tokens.fetch(refresh, token -> threads.run(() -> open(gen, gateway, token)), e -> threads.run(() -> {
            calls.error(NotifyClientException.of(Kind.TOKEN, "cannot get a token: " + e.getMessage(), e));
            ended(gen, new Disconnect.TokenFailed(String.valueOf(e.getMessage())));
        }));
    }

    private void open(int gen, Endpoints gateway, String token) {
        if (gen != generation || closed) {
            return;
        }
        TransportEvents events = new LoopEvents(threads, text -> onFrame(gen, text), () -> onOpened(gen), why -> ended(gen, why));
        frames.connecting();
        pacer.reset(System.nanoTime());
        transport = onSse
                ? SseTransport.connect(http, gateway.sse(rooms.streams(), settings.device()), token, frames.sseLastEventId(), events)
                : WebSocketTransport.connect(http, gateway.webSocket(settings.device()), token, settings.connectTimeout(), events);
        LOG.debug("connecting to {} over {}", gateway.base(), transport.mode());
        silence.watch(gen, settings.connectTimeout()); // the welcome must come within it
    }

    /** The WebSocket is open: a client that holds every position it resumes sends its resume now, before welcome. */
    private void onOpened(int gen) {
        Transport current = transport;
        if (gen != generation || closed || current == null || !current.canSend()) {
            return;
        }
        frames.resumeBeforeWelcome().ifPresent(current::send);
    }

    private void onFrame(int gen, String text) {
        if (gen != generation || transport == null) {
            return; // a frame of a connection already given up
        }
        silence.frame();
        ServerFrame frame;
        try {
            frame = FrameCodec.v1().decodeServerFrame(text);
        } catch (ProtocolException e) {
            if (!e.isUnknownType()) { // unknown frame types from a newer server are ignored (protocol §7)
                calls.error(NotifyClientException.of(Kind.PROTOCOL, "unreadable frame from " + nodeId + ": " + e.getMessage(), e));
                giveUp(new Disconnect.BadFrame(e.getMessage()));
            }
            return;
        }
        Transport current = transport;
        FrameHandler.Outcome outcome = frames.handle(frame, current);
        if (gen != generation || closed) {
            return; // the listener closed the client
        }
        if (outcome.welcomed()) {
            backoff.reset(); // only a welcome proves the open; a TCP connect or a 101 does not
            counters.connects.incrementAndGet();
            nodeId = outcome.welcome().nodeId();
            activeMode = current.mode();
            // the connect timeout's check gives way to the ping-based one
            silence.watch(gen, Duration.ofMillis(WelcomeFrame.clientSilenceMs(outcome.welcome().pingIntervalMs())));
            LOG.info("connected to {} over {} ({})", nodeId, current.mode(), outcome.welcome().connectionId());
            welcomed = true;
            calls.state(ConnectionState.CONNECTED);
            refreshUnread(); // a state frame is ephemeral: the ones sent while away are lost
            acks.schedule(); // the welcome's re-ack of the user's stream (FrameHandler)
            if (gen == generation && !closed && current.canSend()) {
                frames.subscribeFrames().forEach(this::sendPaced); // after the resume, from the stored positions
            }
        } else if (outcome.resync()) {
            giveUp(new Disconnect.Resync(outcome.resyncReason()));
        } else if (frame instanceof EventFrame e && e.isDurable() || frame instanceof CollapsedFrame) {
            acks.schedule();
        }
    }

    /** The inbox's counts, read after a welcome when the application tracks them; applied on the loop thread. */
    private void refreshUnread() {
        if (!tracker.on()) {
            return;
        }
        inbox.counts().whenComplete((counts, error) -> threads.run(() -> {
            if (closed) {
                return;
            }
            if (error == null) {
                tracker.counts(counts);
            } else {
                Throwable t = Handshakes.unwrap(error);
                calls.error(t instanceof NotifyClientException n ? n
                        : NotifyClientException.inboxFailed("GET /v1/inbox/unread", t.getMessage(), t));
            }
        }));
    }

    /** Sends a frame of the client's own as the gateway's inbound rate allows (now, or from a timer). */
    private void sendPaced(ClientFrame frame) {
        pacer.offer(frame);
        pumpPacer(generation);
    }

    private void pumpPacer(int gen) {
        if (gen != generation || transport == null) {
            return;
        }
        pacerTimer = null;
        long now = System.nanoTime();
        ClientFrame next;
        while ((next = pacer.poll(now)) != null) {
            transport.send(next);
        }
        long wait = pacer.nanosUntilNext(now);
        if (wait > 0 && pacerTimer == null) {
            pacerTimer = threads.schedule(() -> pumpPacer(gen), Duration.ofNanos(wait));
        }
    }

    /** Ends the current connection from the client side. */
    private void giveUp(Disconnect why) {
        ended(generation, why);
    }

    private void ended(int gen, Disconnect why) {
        if (gen != generation || closed) {
            return;
        }
        boolean mayFallBack = !onSse && settings.sseFallback();
        drop();
        counters.disconnects.incrementAndGet();
        ReconnectPlan plan = policy.decide(why, mayFallBack);
        calls.disconnected(why, plan.stop());
        if (plan.stop()) {
            stopped = true;
            calls.state(ConnectionState.DISCONNECTED);
            return;
        }
        if (plan.switchToSse()) {
            onSse = true; // for the rest of this client's life; the same gateway is tried again over SSE
        } else {
            gatewayIndex = (gatewayIndex + 1) % settings.gateways().size();
        }
        refreshToken |= plan.refreshToken();
        calls.state(ConnectionState.DISCONNECTED);
        LOG.info("{}; reconnecting in {} ms to {}{}", why.describe(), plan.delay().toMillis(),
                settings.gateways().get(gatewayIndex).base(), onSse ? " over SSE" : "");
        reconnectTimer = threads.schedule(this::connect, plan.delay());
    }

    /** Forgets the current connection: later events of it are ignored, pending acks dropped. */
    private void drop() {
        generation++;
        welcomed = false;
        acks.cancel();
        cancel(pacerTimer);
        pacerTimer = null;
        pacer.reset(System.nanoTime());
        frames.takeAcks();
        // an unsubscribe not yet confirmed is complete: the next connection does not subscribe again
        rooms.drainLeaving().forEach((stream, l) -> frames.unsubscribedNow(stream, l));
        Transport t = transport;
        transport = null;
        if (t != null) {
            t.close();
        }
    }

    private static void cancel(ScheduledFuture<?> f) {
        if (f != null) {
            f.cancel(false);
        }
    }
}
