package io.notify.push.fake;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.notify.protocol.push.PushRegistration;
import io.notify.push.webpush.P256;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.SecureRandom;
import java.security.interfaces.ECPrivateKey;
import java.security.interfaces.ECPublicKey;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * A local Web Push service for tests: speaks RFC 8030 on {@code http://127.0.0.1:<port 0>} and
 * checks what a real one checks. {@link #subscribe()} plays the browser (a P-256 key pair and an
 * auth secret; the endpoint is {@code /push/<id>}). A {@code POST /push/<id>} is answered, in order:
 * 404 unknown id, 410 unsubscribed id, a scripted failure ({@link #failNext}), 400 without a valid
 * {@code TTL} / with a {@code Content-Encoding} other than {@code aes128gcm} / a bad {@code Urgency} or
 * {@code Topic}, 413 over {@link #maxBodyBytes} (4,096), 401/403 per {@link WebPushVapidCheck}, 400
 * when the body does not decrypt for the subscription; else the message is recorded and answered
 * 201 with {@code Location: <origin>/message/<uuid>}. Every accepted push is in {@link #log()};
 * {@link #held} is what the service still holds per subscription, a push with the {@code Topic} of
 * a held one replacing it (RFC 8030 §5.4). Tests wait with {@link #awaitMessages}. Thread-safe. Test code.
 */
public final class WebPushFake implements AutoCloseable {

    /** {@link #failNext} target meaning every subscription. */
    public static final String ANY = "*";
    public static final int DEFAULT_MAX_BODY = 4096;

    /** One answer the fake gave: the request path, its status and its body. */
    public record Answer(String path, int status, String reason) {
    }

    private record Subscription(String id, ECPrivateKey privateKey, byte[] publicKey, byte[] auth, String serverKey) {
    }

    private record Failure(String target, int status, String retryAfter) {
    }

    private final HttpServer server;
    private final ExecutorService executor;
    private final Clock clock;
    private final String origin;
    private final SecureRandom random = new SecureRandom();
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final Map<String, Subscription> subscriptions = new HashMap<>();
    private final Set<String> removed = new HashSet<>();
    private final List<Failure> failures = new ArrayList<>();
    private final List<WebPushReceived> log = new ArrayList<>();
    private final Map<String, LinkedHashMap<String, WebPushReceived>> held = new HashMap<>();
    private final List<Answer> answers = new ArrayList<>();
    private final AtomicBoolean closed = new AtomicBoolean();
    private volatile int maxBodyBytes = DEFAULT_MAX_BODY;
    private volatile long answerDelayNanos;

    private WebPushFake(Clock clock) throws IOException {
        this.clock = clock;
        this.server = HttpServer.create(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0), 0);
        this.executor = Executors.newFixedThreadPool(4, runnable -> {
            Thread thread = new Thread(runnable, "webpush-fake");
            thread.setDaemon(true);
            return thread;
        });
        server.setExecutor(executor);
        server.createContext("/", this::handle);
        server.start();
        this.origin = "http://127.0.0.1:" + server.getAddress().getPort();
    }

    /** A fake on a free loopback port, on the system clock. */
    public static WebPushFake start() {
        return start(Clock.systemUTC());
    }

    /** A fake whose VAPID {@code exp} checks use {@code clock}. */
    public static WebPushFake start(Clock clock) {
        try {
            return new WebPushFake(clock);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Answers every push {@code delay} after taking it (four at a time): a slow push service, so pushes stay in flight. */
    public void answerDelay(java.time.Duration delay) {
        this.answerDelayNanos = delay.toNanos();
    }

    /** {@code http://127.0.0.1:<port>}: the {@code aud} a VAPID JWT must name. */
    public String origin() {
        return origin;
    }

    /** A browser subscription that takes any VAPID key. */
    public PushRegistration.WebPush subscribe() {
        return subscribe(null);
    }

    /** A browser subscription made with {@code applicationServerKey} (base64url): pushes signed by another key get 403. */
    public PushRegistration.WebPush subscribe(String applicationServerKey) {
        KeyPair pair = P256.generate();
        byte[] auth = new byte[16];
        random.nextBytes(auth);
        byte[] idBytes = new byte[16];
        random.nextBytes(idBytes);
        String id = base64url(idBytes);
        byte[] publicKey = P256.encode((ECPublicKey) pair.getPublic());
        String serverKey = applicationServerKey == null ? null : applicationServerKey.replace("=", "");
        Subscription subscription = new Subscription(id, (ECPrivateKey) pair.getPrivate(), publicKey, auth, serverKey);
        withLock(() -> {
            subscriptions.put(id, subscription);
        });
        return new PushRegistration.WebPush(origin + "/push/" + id, null,
                new PushRegistration.Keys(base64url(publicKey), base64url(auth)));
    }

    /** A registration (as the gateway stores it) of {@code subscription}. */
    public static PushRegistration registration(PushRegistration.WebPush subscription) {
        return PushRegistration.of(subscription, null, null, System.currentTimeMillis());
    }

    /** The subscription id of an endpoint this fake gave: its last path segment. */
    public static String idOf(PushRegistration.WebPush subscription) {
        String endpoint = subscription.endpoint();
        return endpoint.substring(endpoint.lastIndexOf('/') + 1);
    }

    /** The browser unsubscribed: pushes to {@code id} get 410 from now on. */
    public void unsubscribe(String id) {
        withLock(() -> {
            if (subscriptions.remove(id) != null) {
                removed.add(id);
                held.remove(id);
            }
        });
    }

    /** The next {@code count} pushes to {@code target} (an id or {@link #ANY}) get {@code status}, with {@code Retry-After} when not null. */
    public void failNext(String target, int count, int status, String retryAfter) {
        withLock(() -> {
            for (int i = 0; i < count; i++) {
                failures.add(new Failure(target, status, retryAfter));
            }
        });
    }

    /** The largest body taken (default 4,096 bytes, what RFC 8030 requires); a larger one gets 413. */
    public void maxBodyBytes(int bytes) {
        this.maxBodyBytes = bytes;
    }

    /** Every push accepted so far, in order. */
    public List<WebPushReceived> log() {
        return read(() -> List.copyOf(log));
    }

    /** Every push accepted for {@code id}, in order. */
    public List<WebPushReceived> messages(String id) {
        return read(() -> log.stream().filter(m -> m.subscriptionId().equals(id)).toList());
    }

    /** What the service holds for {@code id}: one per topic (the latest), untopiced ones all, in arrival order. */
    public List<WebPushReceived> held(String id) {
        return read(() -> List.copyOf(held.getOrDefault(id, new LinkedHashMap<>()).values()));
    }

    /** Every answer given so far, accepted or not, in order. */
    public List<Answer> answers() {
        return read(() -> List.copyOf(answers));
    }

    /** The pushes accepted for {@code id} once there are at least {@code n}; AssertionError after {@code timeout}. */
    public List<WebPushReceived> awaitMessages(String id, int n, Duration timeout) throws InterruptedException {
        long left = timeout.toNanos();
        lock.lock();
        try {
            while (true) {
                List<WebPushReceived> got = log.stream().filter(m -> m.subscriptionId().equals(id)).toList();
                if (got.size() >= n) {
                    return got;
                }
                if (left <= 0) {
                    throw new AssertionError("expected " + n + " pushes to " + id + " within " + timeout + ", got "
                            + got.size() + "; answers: " + answers);
                }
                left = changed.awaitNanos(left);
            }
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        server.stop(0);
        executor.shutdownNow();
        try {
            executor.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String path = exchange.getRequestURI().getPath();
            byte[] body = readAtMost(exchange.getRequestBody(), maxBodyBytes + 1);
            Answer answer = answer(exchange, path, body);
            long delay = answerDelayNanos;
            if (delay > 0) { // a slow push service: it took the message (recorded above) and answers late
                java.util.concurrent.locks.LockSupport.parkNanos(delay);
            }
            if (answer.status() == 201) {
                exchange.getResponseHeaders().set("Location", origin + "/message/" + answer.reason());
            }
            byte[] text = (answer.status() == 201 ? "" : answer.reason()).getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(answer.status(), text.length == 0 ? -1 : text.length);
            if (text.length > 0) {
                exchange.getResponseBody().write(text);
            }
        }
    }

    private Answer answer(HttpExchange exchange, String path, byte[] body) {
        Answer answer = decide(exchange, path, body);
        withLock(() -> {
            answers.add(answer);
            changed.signalAll();
        });
        return answer;
    }

    private Answer decide(HttpExchange exchange, String path, byte[] body) {
        if (!"POST".equals(exchange.getRequestMethod())) {
            return new Answer(path, 405, "only POST");
        }
        String id = path.startsWith("/push/") ? path.substring("/push/".length()) : "";
        Subscription subscription;
        Failure failure;
        lock.lock();
        try {
            subscription = subscriptions.get(id);
            if (subscription == null) {
                return new Answer(path, removed.contains(id) ? 410 : 404, removed.contains(id) ? "unsubscribed" : "no such subscription");
            }
            failure = takeFailure(id);
        } finally {
            lock.unlock();
        }
        if (failure != null) {
            if (failure.retryAfter() != null) {
                exchange.getResponseHeaders().set("Retry-After", failure.retryAfter());
            }
            return new Answer(path, failure.status(), "scripted failure " + failure.status());
        }
        var headers = exchange.getRequestHeaders();
        String ttl = headers.getFirst("TTL");
        if (ttl == null || !ttl.matches("\\d{1,10}")) {
            return new Answer(path, 400, "TTL header required (delta-seconds)");
        }
        if (!"aes128gcm".equals(headers.getFirst("Content-Encoding"))) {
            return new Answer(path, 400, "Content-Encoding must be aes128gcm");
        }
        String urgency = headers.getFirst("Urgency");
        if (urgency != null && !urgency.matches("very-low|low|normal|high")) {
            return new Answer(path, 400, "bad Urgency");
        }
        String topic = headers.getFirst("Topic");
        if (topic != null && !topic.matches("[A-Za-z0-9_-]{1,32}")) {
            return new Answer(path, 400, "Topic must be 1..32 base64url characters");
        }
        if (body.length > maxBodyBytes) {
            return new Answer(path, 413, "body over " + maxBodyBytes + " bytes");
        }
        WebPushVapidCheck.Rejection rejection = WebPushVapidCheck.check(headers.getFirst("Authorization"), origin,
                subscription.serverKey(), clock.instant());
        if (rejection != null) {
            return new Answer(path, rejection.status(), rejection.reason());
        }
        byte[] plaintext;
        try {
            plaintext = WebPushDecryptor.decrypt(body, subscription.privateKey(), subscription.publicKey(), subscription.auth());
        } catch (GeneralSecurityException e) {
            return new Answer(path, 400, "body does not decrypt: " + e.getMessage());
        }
        String messageId = UUID.randomUUID().toString();
        record(new WebPushReceived(id, Long.parseLong(ttl), urgency, topic, plaintext, clock.instant(), messageId));
        return new Answer(path, 201, messageId);
    }

    private void record(WebPushReceived message) {
        withLock(() -> {
            log.add(message);
            LinkedHashMap<String, WebPushReceived> kept = held.computeIfAbsent(message.subscriptionId(), k -> new LinkedHashMap<>());
            // RFC 8030 §5.4: a new message with the topic of a held one replaces it.
            String key = message.topic() != null ? "topic:" + message.topic() : "message:" + message.messageId();
            kept.remove(key);
            kept.put(key, message);
        });
    }

    private Failure takeFailure(String id) {
        for (Iterator<Failure> it = failures.iterator(); it.hasNext(); ) {
            Failure failure = it.next();
            if (failure.target().equals(ANY) || failure.target().equals(id)) {
                it.remove();
                return failure;
            }
        }
        return null;
    }

    private static byte[] readAtMost(InputStream in, int limit) throws IOException {
        byte[] head = in.readNBytes(limit);
        // The rest is read and dropped, so the connection stays usable.
        in.transferTo(OutputStream.nullOutputStream());
        return head;
    }

    private void withLock(Runnable action) {
        lock.lock();
        try {
            action.run();
        } finally {
            lock.unlock();
        }
    }

    private <T> T read(Supplier<T> action) {
        lock.lock();
        try {
            return action.get();
        } finally {
            lock.unlock();
        }
    }

    private static String base64url(byte[] bytes) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }
}
