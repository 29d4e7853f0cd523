package io.notify.client;

import io.notify.client.internal.ClientLoop;
import io.notify.client.internal.ClientSettings;
import io.notify.client.internal.PreferencesHttp;
import io.notify.client.internal.PushHttp;
import io.notify.client.store.PositionStore;
import io.notify.protocol.prefs.Preferences;
import io.notify.protocol.stream.Position;
import io.notify.protocol.stream.StreamId;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A Notify client: holds one connection to a gateway (WebSocket, or SSE) and keeps it, resuming
 * every stream from the last position the listener processed, so the application sees each
 * durable event once, in order, across reconnects, node deaths and — with a persistent
 * {@link PositionStore} — restarts. Build with {@link #builder()}; see gateway/client/README.md.
 *
 * <pre>{@code
 * NotifyClient client = NotifyClient.builder()
 *         .gateways("https://gw-1.example.com", "https://gw-2.example.com")
 *         .token(refresh -> tokens.fetch(refresh))
 *         .positionStore(new FilePositionStore(Path.of("positions.txt")))
 *         .listener(event -> show(event))
 *         .connect();
 * ...
 * client.close();
 * }</pre>
 *
 * <p>Guarantees: durable events reach {@link NotifyListener#onEvent} in seq order per stream,
 * never one at or below the last delivered position (dedup by the stored {@code (stream, epoch,
 * seq)}); the position is stored after the listener returns. Listener callbacks run on the
 * client's own thread, one at a time. Thread-safe.
 */
public final class NotifyClient implements AutoCloseable {

    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(5);

    private final ClientLoop loop;
    private final PositionStore store;
    private final String device;
    private final NotifyInbox inbox;
    private final PushHttp push;
    private final PreferencesHttp prefs;
    private final AtomicBoolean started = new AtomicBoolean();

    NotifyClient(ClientSettings settings, Map<StreamId, RoomListener> rooms) {
        this.loop = new ClientLoop(settings, rooms);
        this.store = settings.store();
        this.device = settings.device();
        this.inbox = new NotifyInbox(loop.inbox(), loop.tracker());
        this.push = new PushHttp(loop.inbox());
        this.prefs = new PreferencesHttp(loop.inbox());
    }

    public static NotifyClientBuilder builder() {
        return new NotifyClientBuilder();
    }

    /** Starts connecting (once; later calls do nothing). Returns at once; watch {@link NotifyListener#onState}. */
    public NotifyClient start() {
        if (started.compareAndSet(false, true)) {
            loop.start();
        }
        return this;
    }

    /**
     * Connects now: after a terminal close code or refusal (the client stopped and reported a
     * {@link NotifyClientException#terminal()} error) this is the user action that starts it again;
     * while a reconnect delay runs it skips the rest of the delay. Does nothing while connected.
     */
    public void reconnect() {
        if (started.get()) {
            loop.reconnect();
        }
    }

    public ConnectionState state() {
        return loop.state();
    }

    /** The gateway node of the current (or last) connection, from its {@code welcome}. */
    public Optional<String> nodeId() {
        return Optional.ofNullable(loop.nodeId());
    }

    /** The transport of the current (or last) connection. */
    public Optional<TransportMode> transport() {
        return Optional.ofNullable(loop.activeMode());
    }

    /** The stored position of {@code stream}: the last durable event the listener processed. */
    public Optional<Position> position(StreamId stream) {
        return store.load(stream);
    }

    /**
     * Subscribes to room {@code room} ({@code r:<room>}; docs/protocol.md §8). Durable events of the
     * room reach {@code listener} once each, in seq order, resumed from the stored position after
     * every reconnect like the user's own stream; with no stored position the client starts at the
     * head the gateway names in {@code subscribed}. Subscribing again replaces the listener. Callable
     * from any thread, listener callbacks included; takes effect on the current connection (over
     * SSE: by reconnecting the stream with the new set) and every later one.
     *
     * @throws IllegalArgumentException when {@code room} is not 1..128 characters of {@code [A-Za-z0-9._:-]}
     */
    public void subscribe(String room, RoomListener listener) {
        subscribe(StreamId.forRoom(room), listener);
    }

    /** Subscribes to a room or the broadcast stream ({@link StreamId#BROADCAST}); a user stream is refused. */
    public void subscribe(StreamId stream, RoomListener listener) {
        loop.subscribe(stream, java.util.Objects.requireNonNull(listener, "listener"));
    }

    /** Subscribes to the broadcast stream {@code b:all}. */
    public void subscribeBroadcast(RoomListener listener) {
        subscribe(StreamId.BROADCAST, listener);
    }

    /**
     * Leaves room {@code room}: no event of it reaches the listener after this call returns to the
     * client's thread; {@link RoomListener#onUnsubscribed} follows the gateway's confirmation. The
     * stored position is kept: subscribing again resumes from it (within the room's inbox bounds).
     */
    public void unsubscribe(String room) {
        unsubscribe(StreamId.forRoom(room));
    }

    public void unsubscribe(StreamId stream) {
        loop.unsubscribe(stream);
    }

    /** The rooms (and {@code b:all}) subscribed to now, refused ones excluded. */
    public Set<StreamId> subscriptions() {
        return loop.subscriptions();
    }

    /** This client's device id: the one given to the builder, kept in the store, or generated ({@link NotifyClientBuilder#device}). */
    public String device() {
        return device;
    }

    /**
     * The user's inbox on the gateway: pages of the history, the unread counts, marks (seen, read,
     * archive). Usable before {@link #start()} and from any thread; see {@link NotifyInbox}.
     */
    public NotifyInbox inbox() {
        return inbox;
    }

    /**
     * The unread estimate, kept when the builder was given an {@link InboxListener}
     * ({@link NotifyClientBuilder#inbox}): the unread count of the newest read state the client
     * knows (the last {@code state} frame, or the counts read after the last connect) plus the
     * durable events of the user's stream received beyond the seq it was counted up to. Empty until
     * the first counts arrive, and without an inbox listener. Readable from any thread;
     * {@link InboxListener#onUnread} tells every change, on the client's event thread.
     */
    public OptionalLong unread() {
        return inbox.estimate().map(c -> OptionalLong.of(c.unread())).orElse(OptionalLong.empty());
    }

    /**
     * Registers where this device can be reached by push when it is not connected (docs/push.md):
     * an FCM or APNs token of a mobile app ({@link PushAddress#fcm}, {@link PushAddress#apns}), or a
     * browser's Web Push subscription ({@link PushAddress#webPush}). {@code POST /v1/push/registrations}
     * to the gateway the client connects to, with the client's token, like the inbox calls (a 401
     * asks the token supplier once for a fresh token; a 503 or 429 is repeated after its
     * {@code Retry-After}, at most 3 times). Completes with the registration once the gateway wrote
     * it durably (201); the id is derived from the address, so registering the same token again (on
     * every app start, or after the provider rotated it) completes with the same id. Fails with a
     * {@link NotifyClientException} of kind {@link NotifyClientException.Kind#PUSH}: e.g. 400
     * {@code urn:notify:problem:invalid-body} with the field at fault in {@code problemDetail()}.
     * Usable before {@link #start()} and from any thread; completes on a thread of the HTTP client
     * (do not {@code join()} it in a listener callback).
     *
     * @throws NullPointerException when {@code address} is null
     */
    public CompletableFuture<PushRegistration> registerPush(PushAddress address) {
        return push.register(Objects.requireNonNull(address, "address"));
    }

    /**
     * The user's push registrations, oldest first ({@code GET /v1/push/registrations}): never their
     * keys or tokens. A registration made a moment ago may not be listed yet (it is applied
     * asynchronously, usually within tens of milliseconds). Calls as {@link #registerPush}.
     */
    public CompletableFuture<List<PushRegistration>> listPushRegistrations() {
        return push.list();
    }

    /**
     * Removes the push registration {@code id} ({@code DELETE /v1/push/registrations/{id}}), e.g.
     * when the user signs out of this device: completes on the gateway's 204; fails with a
     * {@link NotifyClientException} of kind {@link NotifyClientException.Kind#PUSH} and status 404
     * ({@code urn:notify:problem:not-found}) when the user has no such registration (already removed,
     * or dropped as gone by its provider). Calls as {@link #registerPush}.
     *
     * @throws IllegalArgumentException when {@code id} is not {@code pr_} and 22 base64url characters
     */
    public CompletableFuture<Void> unregisterPush(String id) {
        if (id == null || !PushRegistration.ID.matcher(id).matches()) {
            throw new IllegalArgumentException("a push registration id is pr_ and 22 base64url characters, got '"
                    + (id == null || id.length() <= 40 ? id : id.substring(0, 40) + "…") + "'");
        }
        return push.unregister(id);
    }

    /** What the gateway offers for push ({@code GET /v1/push/config}): the VAPID key browsers subscribe with, if any. */
    public CompletableFuture<PushConfig> pushConfig() {
        return push.config();
    }

    /**
     * The user's preferences ({@code GET /v1/preferences}; docs/inbox.md, "Preferences"): which channels
     * ({@code live}, {@code inbox}, {@code push}) events of each type and category reach, and the quiet
     * hours. {@link Preferences#NONE} (empty maps, no quiet hours) when the user set none. A change made a
     * moment ago may not show yet (it is applied asynchronously, usually within a commit). Calls as
     * {@link #registerPush}: the client's token, a 401 refreshed once, a 503 or 429 repeated after its
     * {@code Retry-After}; fails with a {@link NotifyClientException} of kind
     * {@link NotifyClientException.Kind#PREFERENCES}. Usable before {@link #start()} and from any thread;
     * completes on a thread of the HTTP client.
     */
    public CompletableFuture<Preferences> preferences() {
        return prefs.get();
    }

    /**
     * Replaces the user's preferences as a whole ({@code PUT /v1/preferences}): completes with the
     * document the gateway stored once it wrote it durably (200). It applies to events sequenced after it.
     * {@link Preferences}, {@link io.notify.protocol.prefs.Channels} and
     * {@link io.notify.protocol.prefs.QuietHours} check keys, bounds and quiet hours when built
     * ({@link IllegalArgumentException}, before anything is sent); a gateway that refuses the document
     * fails the future with kind {@link NotifyClientException.Kind#PREFERENCES}, status 400
     * {@code urn:notify:problem:invalid-body} and the field at fault in {@code problemDetail()}. Calls as
     * {@link #preferences()}.
     *
     * @throws NullPointerException when {@code preferences} is null
     */
    public CompletableFuture<Preferences> putPreferences(Preferences preferences) {
        return prefs.put(Objects.requireNonNull(preferences, "preferences"));
    }

    /**
     * Resets the user's preferences ({@code DELETE /v1/preferences}): every channel on, no quiet hours.
     * Completes on the gateway's 204. Calls as {@link #preferences()}.
     */
    public CompletableFuture<Void> resetPreferences() {
        return prefs.reset();
    }

    public ClientStats stats() {
        return loop.counters().snapshot();
    }

    /**
     * Closes for good: pending acks are sent, the WebSocket is closed with 1000, state becomes
     * {@link ConnectionState#CLOSED}. Waits up to 5 s for a listener callback in progress; may be
     * called from a callback.
     */
    @Override
    public void close() {
        loop.close(CLOSE_TIMEOUT);
    }
}
