package io.notify.client;

import io.notify.client.internal.ClientSettings;
import io.notify.client.internal.DeviceIds;
import io.notify.client.internal.Endpoints;
import io.notify.client.internal.Rooms;
import io.notify.client.reconnect.Backoff;
import io.notify.client.store.InMemoryPositionStore;
import io.notify.client.store.PositionStore;
import io.notify.protocol.stream.StreamId;
import java.net.URI;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.random.RandomGenerator;

/**
 * Configures a {@link NotifyClient}. Required: at least one gateway URL, a token, a listener.
 * Defaults follow docs/protocol.md: WebSocket with SSE fallback, backoff 1 s doubling to 60 s with
 * full jitter, prompt reconnects within 1 s, in-memory positions.
 */
public final class NotifyClientBuilder {

    private final Map<StreamId, RoomListener> rooms = new LinkedHashMap<>();

    private final List<Endpoints> gateways = new ArrayList<>();
    private TokenSupplier token;
    private TransportMode mode = TransportMode.WEBSOCKET;
    private boolean sseFallback = true;
    private PositionStore store = new InMemoryPositionStore();
    private NotifyListener listener;
    private Duration backoffBase = Backoff.DEFAULT_BASE;
    private Duration backoffCap = Backoff.DEFAULT_CAP;
    private Duration promptly = Duration.ofSeconds(1);
    private Duration connectTimeout = Duration.ofSeconds(10);
    private Duration ackInterval = Duration.ofSeconds(1);
    private Duration maxRetryAfter = Duration.ofMinutes(5);
    private RandomGenerator random;
    private HttpClient http;
    private String device;
    private InboxListener inbox;

    NotifyClientBuilder() {
    }

    /**
     * Gateway base URLs ({@code http(s)://host:port} or {@code ws(s)://...}), tried in turn: after
     * any failure or disconnect the client moves on to the next one (after a node dies, the next
     * attempt already goes elsewhere). One load-balancer URL is fine too.
     */
    public NotifyClientBuilder gateways(String... urls) {
        for (String u : urls) {
            gateway(URI.create(u));
        }
        return this;
    }

    public NotifyClientBuilder gateways(List<URI> urls) {
        urls.forEach(this::gateway);
        return this;
    }

    public NotifyClientBuilder gateway(URI url) {
        gateways.add(Endpoints.of(Objects.requireNonNull(url, "url")));
        return this;
    }

    /** The JWT source, called before every connection attempt ({@code refresh} after a 401 or a 4001). */
    public NotifyClientBuilder token(TokenSupplier token) {
        this.token = Objects.requireNonNull(token, "token");
        return this;
    }

    /** A fixed JWT (tests and short-lived tools; a long-running client needs a supplier that refreshes). */
    public NotifyClientBuilder token(String token) {
        return token(TokenSupplier.of(token));
    }

    public NotifyClientBuilder transport(TransportMode mode) {
        this.mode = Objects.requireNonNull(mode, "mode");
        return this;
    }

    /** Whether a WebSocket client may switch to SSE when WebSocket cannot work (default true). */
    public NotifyClientBuilder sseFallback(boolean enabled) {
        this.sseFallback = enabled;
        return this;
    }

    /** Where positions live (default: in memory; see {@link io.notify.client.store.FilePositionStore}). */
    public NotifyClientBuilder positionStore(PositionStore store) {
        this.store = Objects.requireNonNull(store, "store");
        return this;
    }

    public NotifyClientBuilder listener(NotifyListener listener) {
        this.listener = Objects.requireNonNull(listener, "listener");
        return this;
    }

    /** Full-jitter backoff: the n-th delay is uniform on [0, min(cap, base·2^n)]. */
    public NotifyClientBuilder backoff(Duration base, Duration cap) {
        this.backoffBase = base;
        this.backoffCap = cap;
        return this;
    }

    /** The window of a prompt reconnect (1001, 4001, 4008, a resync): uniform on [0, window]. */
    public NotifyClientBuilder promptReconnectWindow(Duration window) {
        this.promptly = window;
        return this;
    }

    /** Bounds TCP connect, handshake and the wait for {@code welcome} (default 10 s). */
    public NotifyClientBuilder connectTimeout(Duration timeout) {
        this.connectTimeout = timeout;
        return this;
    }

    /** How often acks go out at most (default 1 s; the gateway limits client frames to 10/s). */
    public NotifyClientBuilder ackInterval(Duration interval) {
        this.ackInterval = interval;
        return this;
    }

    /** The random source of backoff and jitter (seed it in tests). Used on the client's thread only. */
    public NotifyClientBuilder random(RandomGenerator random) {
        this.random = Objects.requireNonNull(random, "random");
        return this;
    }

    /** The HTTP client of both transports (proxy, TLS, executor); default: one of the client's own, HTTP/1.1. */
    public NotifyClientBuilder httpClient(HttpClient http) {
        this.http = Objects.requireNonNull(http, "http");
        return this;
    }

    /**
     * This device's id (docs/protocol.md §1): 1 to 64 characters of {@code [A-Za-z0-9._-]}, the same
     * on every connection of the device (an app installation), sent as {@code ?device=} at connect and
     * as {@code device} in inbox marks; {@code state} frames name it ({@link InboxChange#fromThisDevice()}).
     * Default: an id generated once and kept in the position store when it can keep one
     * ({@link PositionStore#saveDevice}, e.g. {@link io.notify.client.store.FilePositionStore}), else a
     * new one per client. Not a secret.
     *
     * @throws IllegalArgumentException when {@code device} is not such an id
     */
    public NotifyClientBuilder device(String device) {
        this.device = DeviceIds.check(device);
        return this;
    }

    /**
     * Follows the user's inbox: {@code state} frames reach {@code listener}, and the client keeps an
     * unread estimate ({@link NotifyClient#unread()}), reading the counts ({@code GET /v1/inbox/unread})
     * after every {@code welcome} since state frames sent while it was away are lost. Without it the
     * client ignores state frames and sends no inbox request of its own ({@link NotifyClient#inbox()}
     * works either way).
     */
    public NotifyClientBuilder inbox(InboxListener listener) {
        this.inbox = Objects.requireNonNull(listener, "listener");
        return this;
    }

    /** A client, not yet connected: call {@link NotifyClient#start()}. */
    public NotifyClient build() {
        if (token == null) {
            throw new IllegalStateException("a token (or token supplier) is required");
        }
        if (listener == null) {
            throw new IllegalStateException("a listener is required");
        }
        return new NotifyClient(new ClientSettings(gateways, token, mode, sseFallback, store, listener, backoffBase,
                backoffCap, promptly, connectTimeout, ackInterval, maxRetryAfter,
                random != null ? random : new SplittableRandom(), http, device != null ? device : DeviceIds.resolve(store),
                inbox), rooms);
    }

    /** A room subscription in place from the first connect (as {@link NotifyClient#subscribe(String, RoomListener)}). */
    public NotifyClientBuilder subscribe(String room, RoomListener listener) {
        return subscribe(StreamId.forRoom(room), listener);
    }

    /** A room or {@code b:all} subscription in place from the first connect; a user stream is refused. */
    public NotifyClientBuilder subscribe(StreamId stream, RoomListener listener) {
        rooms.put(Rooms.check(stream), Objects.requireNonNull(listener, "listener"));
        return this;
    }

    /** The broadcast stream {@code b:all}, from the first connect. */
    public NotifyClientBuilder subscribeBroadcast(RoomListener listener) {
        return subscribe(StreamId.BROADCAST, listener);
    }

    /** {@link #build()} and {@link NotifyClient#start()}. */
    public NotifyClient connect() {
        return build().start();
    }
}
