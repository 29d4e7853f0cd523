package io.notify.cli.bench.push;

import com.fasterxml.jackson.databind.JsonNode;
import io.notify.common.http.BodyReader;
import io.notify.common.http.OpsEndpoints;
import io.notify.protocol.NotifyJson;
import io.notify.protocol.push.PushRegistration;
import io.notify.push.webpush.P256;
import io.undertow.Undertow;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.HeaderMap;
import io.undertow.util.Headers;
import io.undertow.util.HttpString;
import io.undertow.util.Methods;
import io.undertow.util.SameThreadExecutor;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.interfaces.ECPublicKey;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Queue;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Pattern;
import org.xnio.Options;

/**
 * The push service {@code bench push} sends to: a Web Push (RFC 8030) receiver on
 * {@code http://127.0.0.1:<free port>} that answers every accepted {@code POST /push/<id>} with
 * {@code 201} and a {@code Location} after a fixed latency, without holding a thread meanwhile (the
 * exchange is dispatched and its answer scheduled on its XNIO I/O thread's timer), so thousands of
 * pushes can wait at once on two I/O threads.
 *
 * <p>It checks what a push service checks cheaply, and answers as one would otherwise (at once, no
 * latency): 404 for an unknown subscription; 413 for a body over {@value #MAX_BODY} bytes; 400 for
 * a missing or non-numeric {@code TTL}, a {@code Content-Encoding} other than {@code aes128gcm}, a
 * body too short for an aes128gcm header and tag (or whose header's key id is not a 65-byte P-256
 * point), a bad {@code Urgency}, or a missing or malformed {@code Topic} (a real service takes a push
 * without one; the bench keys every arrival by it, the event id); 401 for an {@code Authorization}
 * that is not {@code vapid t=<JWT>, k=<key>}; 403 when {@code k} is not the key the subscription was
 * made with, or the JWT is not ES256 signed by {@code k} for this origin and not yet expired. The
 * signature is verified once per distinct token (the sender signs one per origin and 12 hours), so
 * the checks cost microseconds. The body is not decrypted: a push service cannot either.
 *
 * <p>{@link #subscribe} plays the browser: a P-256 key pair and a 16-byte auth secret per device,
 * and an endpoint {@code /push/<22 base64url characters>}. Every accepted push is counted for its
 * subscription and logged ({@link Arrival}: the device, the {@code Topic}, the arrival time) in the
 * current {@link Tally}; {@link #startTally} starts a new one (a run's baseline and its sender phase
 * each have theirs). Thread-safe.
 */
public final class LatencyPushService implements AutoCloseable {

    /** The largest body taken: RFC 8030's 4,096-byte record. */
    public static final int MAX_BODY = 4096;
    /** An aes128gcm body's least size (RFC 8188): salt 16, rs 4, idlen 1, a 65-byte key id, a delimiter and the 16-byte tag. */
    static final int MIN_BODY = 16 + 4 + 1 + 65 + 1 + 16;
    /** The longest a VAPID JWT may live (RFC 8292 §2: at most 24 hours). */
    static final Duration MAX_EXPIRY = Duration.ofHours(24);
    private static final Pattern TOPIC = Pattern.compile("[A-Za-z0-9_-]{1,32}");
    private static final Pattern TTL = Pattern.compile("\\d{1,10}");
    private static final Pattern URGENCY = Pattern.compile("very-low|low|normal|high");
    private static final HttpString TOPIC_HEADER = new HttpString("Topic");
    private static final HttpString TTL_HEADER = new HttpString("TTL");
    private static final HttpString URGENCY_HEADER = new HttpString("Urgency");
    private static final Base64.Encoder BASE64URL = Base64.getUrlEncoder().withoutPadding();
    private static final Base64.Decoder DECODE = Base64.getUrlDecoder();
    private static final int MAX_TOKENS = 1024;

    /** One subscription: its device number (0, 1, ... in the order made), the VAPID key it takes, its accepted pushes. */
    record Subscription(String id, int device, String serverKey, AtomicLong accepted) {
    }

    /** One accepted push: the subscription's device number, its {@code Topic} (the bench's event id) and when it arrived (epoch ms). */
    public record Arrival(int device, String topic, long at) {
    }

    /** What the receiver took and refused since {@link #startTally}. */
    public static final class Tally {
        private final Queue<Arrival> arrivals = new ConcurrentLinkedQueue<>();
        private final AtomicLong accepted = new AtomicLong();
        private final Map<String, AtomicLong> rejected = new ConcurrentHashMap<>();

        /** Pushes accepted (answered 201 or about to be). */
        public long accepted() {
            return accepted.get();
        }

        /** Every accepted push, in no particular order. */
        public List<Arrival> arrivals() {
            return new ArrayList<>(arrivals);
        }

        /** Pushes refused, by {@code "<status> <reason>"}. */
        public Map<String, Long> rejected() {
            Map<String, Long> out = new TreeMap<>();
            rejected.forEach((k, v) -> out.put(k, v.get()));
            return out;
        }

        public long rejectedCount() {
            return rejected.values().stream().mapToLong(AtomicLong::get).sum();
        }
    }

    private final Undertow server;
    private final long latencyMillis;
    private final String origin;
    private final SecureRandom random = new SecureRandom();
    private final Map<String, Subscription> subscriptions = new ConcurrentHashMap<>();
    private final AtomicLong devices = new AtomicLong();
    private final AtomicLong messages = new AtomicLong();
    /** Tokens whose signature was verified, with their {@code exp} (epoch s). */
    private final Map<String, Long> verified = new ConcurrentHashMap<>();
    private volatile Tally tally = new Tally();

    private LatencyPushService(Duration latency) {
        this.latencyMillis = latency.toMillis();
        this.server = Undertow.builder()
                .addHttpListener(0, "127.0.0.1")
                .setIoThreads(2)
                .setWorkerThreads(2)
                .setSocketOption(Options.BACKLOG, 4096)
                .setHandler(this::handle)
                .build();
        server.start();
        this.origin = "http://127.0.0.1:" + OpsEndpoints.boundPort(server, 0);
    }

    /** A receiver on a free loopback port that answers every accepted push {@code latency} after it arrived. */
    public static LatencyPushService start(Duration latency) {
        if (latency.isNegative()) {
            throw new IllegalArgumentException("latency must be >= 0");
        }
        return new LatencyPushService(latency);
    }

    /** {@code http://127.0.0.1:<port>}: the {@code aud} a VAPID JWT must name. */
    public String origin() {
        return origin;
    }

    public Duration latency() {
        return Duration.ofMillis(latencyMillis);
    }

    /**
     * A browser subscription made with {@code applicationServerKey} (the VAPID public key,
     * base64url), registered as the gateway stores it; its device number is the count made before.
     */
    public PushRegistration subscribe(String applicationServerKey) {
        byte[] point = P256.encode((ECPublicKey) P256.generate().getPublic());
        byte[] auth = new byte[16];
        byte[] id = new byte[16];
        random.nextBytes(auth);
        random.nextBytes(id);
        String path = BASE64URL.encodeToString(id);
        subscriptions.put(path, new Subscription(path, (int) devices.getAndIncrement(), applicationServerKey.replace("=", ""),
                new AtomicLong()));
        return PushRegistration.of(new PushRegistration.WebPush(origin + "/push/" + path, null,
                new PushRegistration.Keys(BASE64URL.encodeToString(point), BASE64URL.encodeToString(auth))), null, null,
                System.currentTimeMillis());
    }

    /** Pushes accepted for {@code registration} since the start (every tally). */
    public long accepted(PushRegistration registration) {
        String endpoint = registration.webpush().endpoint();
        Subscription s = subscriptions.get(endpoint.substring(endpoint.lastIndexOf('/') + 1));
        return s == null ? 0 : s.accepted().get();
    }

    /** From now on arrivals and refusals count in a new tally, which is returned. */
    public Tally startTally() {
        Tally t = new Tally();
        tally = t;
        return t;
    }

    /** The tally arrivals count in now. */
    public Tally tally() {
        return tally;
    }

    @Override
    public void close() {
        server.stop();
    }

    private void handle(HttpServerExchange exchange) {
        if (!Methods.POST.equals(exchange.getRequestMethod())) {
            refuse(exchange, 405, "only POST");
            return;
        }
        String path = exchange.getRequestPath();
        Subscription subscription = path.startsWith("/push/") ? subscriptions.get(path.substring("/push/".length())) : null;
        if (subscription == null) {
            refuse(exchange, 404, "no such subscription");
            return;
        }
        BodyReader.read(exchange, MAX_BODY, (ex, body) -> take(ex, subscription, body),
                ex -> refuse(ex, 413, "body over " + MAX_BODY + " bytes"),
                (ex, error) -> refuse(ex, 400, "unreadable body"));
    }

    private void take(HttpServerExchange exchange, Subscription subscription, byte[] body) {
        HeaderMap headers = exchange.getRequestHeaders();
        String problem = headerProblem(headers, body);
        if (problem != null) {
            refuse(exchange, 400, problem);
            return;
        }
        String authorization = headers.getFirst(Headers.AUTHORIZATION);
        String vapid = vapidProblem(authorization, subscription.serverKey(), System.currentTimeMillis() / 1000);
        if (vapid != null) {
            refuse(exchange, vapid.startsWith("401") ? 401 : 403, vapid.substring(4));
            return;
        }
        Tally t = tally;
        t.arrivals.add(new Arrival(subscription.device(), headers.getFirst(TOPIC_HEADER), System.currentTimeMillis()));
        t.accepted.incrementAndGet();
        subscription.accepted().incrementAndGet();
        String location = origin + "/message/" + messages.incrementAndGet();
        Runnable answer = () -> {
            exchange.setStatusCode(201);
            exchange.getResponseHeaders().put(Headers.LOCATION, location);
            exchange.endExchange();
        };
        if (latencyMillis == 0) {
            answer.run();
        } else {
            // no thread waits: the answer is a timer task on this connection's I/O thread
            exchange.dispatch(SameThreadExecutor.INSTANCE,
                    () -> exchange.getIoThread().executeAfter(answer, latencyMillis, TimeUnit.MILLISECONDS));
        }
    }

    /** Null when the RFC 8030 / 8188 headers and the body's framing are acceptable, else why not. */
    static String headerProblem(HeaderMap headers, byte[] body) {
        String ttl = headers.getFirst(TTL_HEADER);
        if (ttl == null || !TTL.matcher(ttl).matches()) {
            return "TTL header required (delta-seconds)";
        }
        if (!"aes128gcm".equals(headers.getFirst(Headers.CONTENT_ENCODING))) {
            return "Content-Encoding must be aes128gcm";
        }
        String urgency = headers.getFirst(URGENCY_HEADER);
        if (urgency != null && !URGENCY.matcher(urgency).matches()) {
            return "bad Urgency";
        }
        String topic = headers.getFirst(TOPIC_HEADER);
        if (topic == null || !TOPIC.matcher(topic).matches()) {
            return "Topic must be 1..32 base64url characters (the bench keys arrivals by it)";
        }
        // aes128gcm: salt(16) rs(4) idlen(1) keyid(idlen): the sender's ephemeral P-256 point
        if (body.length < MIN_BODY || (body[20] & 0xff) != 65 || body[21] != 0x04) {
            return "body is not aes128gcm with a P-256 key id";
        }
        return null;
    }

    /** Null when {@code authorization} is a valid VAPID header for this origin and the subscription's key, else "401 …" / "403 …". */
    String vapidProblem(String authorization, String serverKey, long nowSeconds) {
        if (authorization == null || !authorization.regionMatches(true, 0, "vapid ", 0, 6)) {
            return "401 missing vapid authorization";
        }
        String token = null;
        String key = null;
        for (String part : authorization.substring(6).split(",")) {
            String p = part.strip();
            if (p.startsWith("t=")) {
                token = p.substring(2);
            } else if (p.startsWith("k=")) {
                key = p.substring(2).replace("=", "");
            }
        }
        if (token == null || key == null) {
            return "401 vapid authorization needs t= and k=";
        }
        if (!key.equals(serverKey)) {
            return "403 k is not the applicationServerKey of this subscription";
        }
        Long exp = verified.get(token + " " + key);
        if (exp == null) {
            String problem = verify(token, key, nowSeconds);
            if (problem != null) {
                return problem;
            }
            exp = verified.get(token + " " + key);
        }
        return exp <= nowSeconds ? "403 the JWT has expired" : null;
    }

    /** Verifies a token's signature and claims once; a good one is remembered with its exp. */
    private String verify(String token, String key, long nowSeconds) {
        String[] parts = token.split("\\.");
        if (parts.length != 3) {
            return "401 t is not a JWS compact serialization";
        }
        JsonNode header;
        JsonNode claims;
        boolean signed;
        try {
            header = NotifyJson.mapper().readTree(DECODE.decode(parts[0]));
            claims = NotifyJson.mapper().readTree(DECODE.decode(parts[1]));
            Signature es256 = Signature.getInstance("SHA256withECDSAinP1363Format");
            es256.initVerify(P256.publicKey(DECODE.decode(key)));
            es256.update((parts[0] + "." + parts[1]).getBytes(StandardCharsets.US_ASCII));
            signed = es256.verify(DECODE.decode(parts[2]));
        } catch (java.io.IOException | IllegalArgumentException | GeneralSecurityException e) {
            return "401 malformed vapid authorization: " + e.getMessage();
        }
        if (!"ES256".equals(header.path("alg").asText())) {
            return "403 the JWT must be ES256";
        }
        if (!signed) {
            return "403 the JWT signature is not by k";
        }
        if (!origin.equals(claims.path("aud").asText(null))) {
            return "403 aud is not " + origin;
        }
        long exp = claims.path("exp").asLong(0);
        if (exp <= nowSeconds || exp > nowSeconds + MAX_EXPIRY.toSeconds()) {
            return "403 exp must be in the next 24 hours";
        }
        if (claims.path("sub").asText("").isEmpty()) {
            return "403 sub is required";
        }
        if (verified.size() >= MAX_TOKENS) {
            verified.clear();
        }
        verified.put(token + " " + key, exp);
        return null;
    }

    private void refuse(HttpServerExchange exchange, int status, String reason) {
        tally.rejected.computeIfAbsent(status + " " + reason.toLowerCase(Locale.ROOT), k -> new AtomicLong()).incrementAndGet();
        exchange.setStatusCode(status);
        exchange.getResponseHeaders().put(Headers.CONTENT_TYPE, "text/plain; charset=utf-8");
        exchange.getResponseSender().send(reason);
    }
}
