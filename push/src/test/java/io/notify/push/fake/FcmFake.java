package io.notify.push.fake;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.notify.protocol.NotifyJson;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.security.interfaces.RSAPublicKey;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A local Firebase Cloud Messaging (HTTP v1) and Google OAuth token endpoint, on 127.0.0.1 and a
 * free port, plain HTTP/1.1. It makes a service account (an RSA 2048 key, one per JVM; {@link #serviceAccountJson()}
 * with {@code token_uri} pointing here) and checks what the real services check:
 *
 * <ul>
 *   <li>{@code POST /token}: the JWT bearer grant, as {@link FcmOAuthEndpoint} says; opaque tokens
 *       valid for {@link #tokenLifetime(Duration)} (default 3,599 s), counted by {@link #tokensIssued()};</li>
 *   <li>{@code POST /v1/projects/{project}/messages:send}: a valid, unexpired bearer token (401
 *       UNAUTHENTICATED otherwise), this project (403 PERMISSION_DENIED), a JSON body as
 *       {@link FcmMessageRules} says (400 INVALID_ARGUMENT), and a token that {@link #register()}
 *       made (400 INVALID_ARGUMENT otherwise; 404 UNREGISTERED after {@link #unregister}).</li>
 * </ul>
 *
 * Accepted messages are recorded ({@link #messages()}), and {@link #held} shows what a device would
 * be holding: the latest message per {@code android.collapse_key}. Failures can be scripted
 * ({@link #failNext}, {@link #failNextTokenRequest}, {@link #stallNext}). Times are the given clock's.
 */
public final class FcmFake implements AutoCloseable {

    private static final Pattern SEND = Pattern.compile("^/v1/projects/([^/]+)/messages:send$");

    /** A message FCM took: the device token, the whole {@code message} object, and the name it answered. */
    public record Accepted(String token, JsonNode message, String name) {
    }

    /** One answer of {@code messages:send}, in order. */
    public record Answer(int status, String body) {
    }

    private record Failure(int status, String errorCode, Duration retryAfter, boolean stall) {
    }

    private final Clock clock;
    private final HttpServer server;
    private final ExecutorService executor = Executors.newCachedThreadPool();
    private final FcmOAuthEndpoint oauth;
    private final String projectId;
    private final String serviceAccountJson;
    private final SecureRandom random = new SecureRandom();
    private final Set<String> registered = ConcurrentHashMap.newKeySet();
    private final Set<String> unregistered = ConcurrentHashMap.newKeySet();
    private final ConcurrentLinkedDeque<Failure> failures = new ConcurrentLinkedDeque<>();
    private final List<Accepted> accepted = new CopyOnWriteArrayList<>();
    private final List<Answer> answers = new CopyOnWriteArrayList<>();
    private final AtomicLong ids = new AtomicLong(1_000);
    private final CountDownLatch closing = new CountDownLatch(1);

    private FcmFake(Clock clock) throws IOException {
        this.clock = clock;
        this.projectId = "notify-test-" + HexFormat.of().formatHex(bytes(4));
        KeyPair keys = rsaKeys();
        String keyId = HexFormat.of().formatHex(bytes(20));
        String clientEmail = "notify-push@" + projectId + ".iam.gserviceaccount.com";
        this.oauth = new FcmOAuthEndpoint((RSAPublicKey) keys.getPublic(), keyId, clientEmail, clock);
        this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setExecutor(executor);
        server.createContext("/token", exchange -> handle(exchange, oauth::handle));
        server.createContext("/v1/", exchange -> handle(exchange, this::send));
        server.start();
        String tokenUri = baseUrl() + "/token";
        oauth.tokenUri(tokenUri);
        ObjectNode json = NotifyJson.mapper().createObjectNode()
                .put("type", "service_account")
                .put("project_id", projectId)
                .put("private_key_id", keyId)
                .put("private_key", "-----BEGIN PRIVATE KEY-----\n"
                        + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(keys.getPrivate().getEncoded())
                        + "\n-----END PRIVATE KEY-----\n")
                .put("client_email", clientEmail)
                .put("client_id", "1" + HexFormat.of().formatHex(bytes(8)).replaceAll("[a-f]", "7"))
                .put("auth_uri", "https://accounts.google.com/o/oauth2/auth")
                .put("token_uri", tokenUri)
                .put("universe_domain", "googleapis.com");
        this.serviceAccountJson = json.toPrettyString();
    }

    /** A fake on the system clock. */
    public static FcmFake start() {
        return start(Clock.systemUTC());
    }

    /** A fake whose token lifetimes and JWT checks follow {@code clock} (share it with the sender under test). */
    public static FcmFake start(Clock clock) {
        try {
            return new FcmFake(clock);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@code http://127.0.0.1:<port>}: the sender's base URL. */
    public URI baseUrl() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    public String projectId() {
        return projectId;
    }

    /** The service account key file's text, {@code token_uri} pointing at this fake. */
    public String serviceAccountJson() {
        return serviceAccountJson;
    }

    /** Writes {@link #serviceAccountJson()} into {@code dir} and returns the file. */
    public Path writeServiceAccount(Path dir) throws IOException {
        return Files.writeString(dir.resolve(projectId + ".json"), serviceAccountJson);
    }

    /** A new device registration token that sends are taken for. */
    public String register() {
        String token = "fake" + HexFormat.of().formatHex(bytes(8)) + ":APA91b" + Base64.getUrlEncoder().withoutPadding().encodeToString(bytes(96));
        registered.add(token);
        return token;
    }

    /** From now on {@code token} is answered 404 UNREGISTERED (the app was uninstalled). */
    public void unregister(String token) {
        registered.remove(token);
        unregistered.add(token);
    }

    /** The {@code expires_in} of tokens issued from now on. */
    public void tokenLifetime(Duration lifetime) {
        oauth.lifetime(lifetime);
    }

    /** How many access tokens the token endpoint issued. */
    public int tokensIssued() {
        return oauth.issued();
    }

    /** Every access token issued so far stops working (401). */
    public void revokeAccessTokens() {
        oauth.revokeAll();
    }

    /** The next token request is answered {@code status} (an OAuth error body). */
    public void failNextTokenRequest(int status) {
        oauth.failNext(status);
    }

    /**
     * The next {@code messages:send} is answered {@code status} with FCM's error body, an FcmError
     * detail {@code errorCode} when not null, and {@code Retry-After} when not null.
     */
    public void failNext(int status, String errorCode, Duration retryAfter) {
        failures.add(new Failure(status, errorCode, retryAfter, false));
    }

    /** The next {@code messages:send} gets no answer before {@link #close()}. */
    public void stallNext() {
        failures.add(new Failure(0, null, null, true));
    }

    /** Every message taken, in order. */
    public List<Accepted> messages() {
        return List.copyOf(accepted);
    }

    /** Every {@code messages:send} answer, in order. */
    public List<Answer> answers() {
        return List.copyOf(answers);
    }

    /** What {@code token}'s device holds: the latest message per collapse key (one per message without one). */
    public List<JsonNode> held(String token) {
        Map<String, JsonNode> held = new LinkedHashMap<>();
        int i = 0;
        for (Accepted a : accepted) {
            if (a.token().equals(token)) {
                String key = a.message().path("android").path("collapse_key").asText("#" + i++);
                held.remove(key);
                held.put(key, a.message());
            }
        }
        return new ArrayList<>(held.values());
    }

    private void send(HttpExchange exchange) throws IOException {
        byte[] body = FcmFakeHttp.body(exchange);
        Failure failure = failures.poll();
        if (failure != null && failure.stall()) {
            awaitClose();
            return;
        }
        if (failure != null) {
            if (failure.retryAfter() != null) {
                exchange.getResponseHeaders().set("Retry-After", Long.toString(failure.retryAfter().toSeconds()));
            }
            answer(exchange, failure.status(), FcmFakeHttp.fcmError(failure.status(), "scripted failure", failure.errorCode()));
            return;
        }
        Matcher path = SEND.matcher(exchange.getRequestURI().getRawPath());
        if (!exchange.getRequestMethod().equals("POST") || !path.matches()) {
            answer(exchange, 404, FcmFakeHttp.fcmError(404, "Not found: " + exchange.getRequestURI(), null));
            return;
        }
        String authorization = exchange.getRequestHeaders().getFirst("Authorization");
        if (authorization == null || !authorization.startsWith("Bearer ") || !oauth.valid(authorization.substring(7))) {
            answer(exchange, 401, FcmFakeHttp.fcmError(401, "Request had invalid authentication credentials. Expected OAuth 2 access"
                    + " token, login cookie or other valid authentication credential.", null));
            return;
        }
        if (!path.group(1).equals(projectId)) {
            answer(exchange, 403, FcmFakeHttp.fcmError(403, "Permission 'cloudmessaging.messages.create' denied on resource"
                    + " '//cloudresourcemanager.googleapis.com/projects/" + path.group(1) + "' (or it may not exist).", null));
            return;
        }
        String contentType = exchange.getRequestHeaders().getFirst("Content-Type");
        JsonNode root;
        try {
            root = contentType != null && contentType.startsWith("application/json") ? NotifyJson.mapper().readTree(body) : null;
        } catch (IOException e) {
            root = null;
        }
        String problem = root == null ? "Invalid JSON payload received." : FcmMessageRules.check(root);
        if (problem != null) {
            answer(exchange, 400, FcmFakeHttp.fcmError(400, problem, "INVALID_ARGUMENT"));
            return;
        }
        JsonNode message = root.get("message");
        String token = message.path("token").asText(null);
        if (token != null && unregistered.contains(token)) {
            answer(exchange, 404, FcmFakeHttp.fcmError(404, "Requested entity was not found.", "UNREGISTERED"));
            return;
        }
        if (token != null && !registered.contains(token)) {
            answer(exchange, 400, FcmFakeHttp.fcmError(400, "The registration token is not a valid FCM registration token", "INVALID_ARGUMENT"));
            return;
        }
        String name = "projects/" + projectId + "/messages/0:" + ids.incrementAndGet() + "%" + HexFormat.of().formatHex(bytes(8));
        accepted.add(new Accepted(token, message, name));
        answer(exchange, 200, NotifyJson.mapper().createObjectNode().put("name", name).toString());
    }

    private void answer(HttpExchange exchange, int status, String json) throws IOException {
        answers.add(new Answer(status, json));
        FcmFakeHttp.answer(exchange, status, json);
    }

    private void awaitClose() {
        try {
            closing.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private interface Handler {
        void handle(HttpExchange exchange) throws IOException;
    }

    private static void handle(HttpExchange exchange, Handler handler) {
        try (exchange) {
            handler.handle(exchange);
        } catch (IOException e) {
            // the client went away
        } catch (RuntimeException e) {
            // a bug of the fake: say so to the test through the client
            try {
                FcmFakeHttp.answer(exchange, 500, FcmFakeHttp.fcmError(500, "the fake broke: " + e, null));
            } catch (IOException | RuntimeException ignored) {
                // headers were sent already
            }
        }
    }

    private byte[] bytes(int n) {
        byte[] b = new byte[n];
        random.nextBytes(b);
        return b;
    }

    /**
     * One RSA key per test JVM, made on first use: a 2048-bit key takes up to seconds under the
     * test JVM's C1-only flags, and each fake's account differs in its project, key id and e-mail anyway.
     */
    private static KeyPair rsaKeys() {
        return RsaKeys.PAIR;
    }

    private static final class RsaKeys {
        static final KeyPair PAIR = generate();

        private static KeyPair generate() {
            try {
                KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
                generator.initialize(2048);
                return generator.generateKeyPair();
            } catch (NoSuchAlgorithmException e) {
                throw new IllegalStateException(e);
            }
        }
    }

    @Override
    public void close() {
        closing.countDown();
        server.stop(0);
        executor.shutdownNow();
    }
}
