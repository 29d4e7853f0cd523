package io.notify.push.fake;

import com.fasterxml.jackson.databind.JsonNode;
import io.notify.devstack.TestCertificate;
import io.notify.protocol.NotifyJson;
import io.undertow.Undertow;
import io.undertow.UndertowOptions;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.Headers;
import io.undertow.util.HttpString;
import io.undertow.util.Methods;
import io.undertow.util.Protocols;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.SecureRandom;
import java.security.interfaces.ECPublicKey;
import java.security.spec.ECGenParameterSpec;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SSLContext;

/**
 * A local APNs provider API: HTTP/2 over TLS (Undertow, a self-signed devstack {@link TestCertificate};
 * {@link #clientSslContext()} trusts it) on 127.0.0.1 and a free port. It makes the team's
 * {@code .p8} key ({@link #teamId()}, {@link #keyId()}, {@link #signingKeyPem()}) and checks what
 * APNs checks, answering Apple's statuses and {@code {"reason": …}} bodies:
 *
 * <ul>
 *   <li>HTTP/2 only (an HTTP/1.1 request is answered 505 and counted, {@link #http1Refused()});
 *       {@code POST /3/device/<token>} (405 MethodNotAllowed, 404 BadPath);</li>
 *   <li>the provider token, as {@link ApnsProviderTokenCheck} says (403);</li>
 *   <li>{@code apns-topic} (400 MissingTopic); the device token: made by {@link #register(String)}
 *       (400 BadDeviceToken otherwise), not {@link #unregister unregistered} (410 Unregistered with a
 *       timestamp), and registered for that topic (400 DeviceTokenNotForTopic);</li>
 *   <li>headers and payload, as {@link ApnsPushRules} says.</li>
 * </ul>
 *
 * A push it takes is answered 200 with its {@code apns-id} (the request's, or a new one) and
 * recorded ({@link #deliveries()}); {@link #held} shows what the device holds, collapsed by
 * {@code apns-collapse-id}. {@link #failNext} scripts 429/503 answers. Times are the given clock's.
 */
public final class ApnsFake implements AutoCloseable {

    /** A push APNs took. */
    public record Delivery(String deviceToken, String topic, String apnsId, String pushType, String priority, String expiration,
                           String collapseId, JsonNode payload, String protocol, String providerToken) {
    }

    /** One answer, in order: the status and Apple's reason ("" for 200). */
    public record Answer(int status, String reason) {
    }

    private record Failure(int status, String reason, Duration retryAfter) {
    }

    private final Clock clock;
    private final SecureRandom random = new SecureRandom();
    private final TestCertificate tls = Tls.CERTIFICATE;
    private final String teamId;
    private final String keyId;
    private final String signingKeyPem;
    private final ApnsProviderTokenCheck tokens;
    private final Map<String, String> topics = new ConcurrentHashMap<>();
    private final Map<String, Long> unregistered = new ConcurrentHashMap<>();
    private final ConcurrentLinkedDeque<Failure> failures = new ConcurrentLinkedDeque<>();
    private final List<Delivery> deliveries = new CopyOnWriteArrayList<>();
    private final List<Answer> answers = new CopyOnWriteArrayList<>();
    private final AtomicInteger http1Refused = new AtomicInteger();
    private final Undertow server;
    private final int port;

    /** One certificate (CN=localhost, SAN 127.0.0.1) for every fake of this JVM: keytool takes a second. */
    private static final class Tls {
        static final TestCertificate CERTIFICATE = make();

        private static TestCertificate make() {
            try {
                Path dir = Files.createTempDirectory("apns-fake-tls");
                dir.toFile().deleteOnExit();
                TestCertificate made = TestCertificate.selfSigned(dir);
                try (var files = Files.list(dir)) {
                    files.forEach(f -> f.toFile().deleteOnExit()); // registered after the dir: deleted before it
                }
                return made;
            } catch (IOException | GeneralSecurityException e) {
                throw new IllegalStateException("cannot make the APNs fake's certificate", e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }

    private ApnsFake(Clock clock) throws GeneralSecurityException {
        this.clock = clock;
        this.teamId = appleId();
        this.keyId = appleId();
        KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
        generator.initialize(new ECGenParameterSpec("secp256r1"));
        KeyPair keys = generator.generateKeyPair();
        this.signingKeyPem = "-----BEGIN PRIVATE KEY-----\n"
                + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(keys.getPrivate().getEncoded())
                + "\n-----END PRIVATE KEY-----\n";
        this.tokens = new ApnsProviderTokenCheck(teamId, keyId, (ECPublicKey) keys.getPublic(), clock);
        this.server = Undertow.builder()
                .setServerOption(UndertowOptions.ENABLE_HTTP2, true)
                .addHttpsListener(0, "127.0.0.1", tls.serverContext())
                .setIoThreads(1)
                .setWorkerThreads(2)
                .setHandler(this::handle)
                .build();
        server.start();
        this.port = ((InetSocketAddress) server.getListenerInfo().get(0).getAddress()).getPort();
    }

    /** A fake on the system clock. */
    public static ApnsFake start() {
        return start(Clock.systemUTC());
    }

    /** A fake whose provider token ages follow {@code clock} (share it with the sender under test). */
    public static ApnsFake start(Clock clock) {
        try {
            return new ApnsFake(clock);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** {@code https://127.0.0.1:<port>}: both of the sender's base URLs. */
    public URI baseUrl() {
        return URI.create("https://127.0.0.1:" + port);
    }

    /** The fake's certificate as a PEM file: what a sender started with settings trusts ({@code notify.push.apns.ca-file}). */
    public Path certificateFile() {
        return tls.certificate();
    }

    /** A client TLS context that trusts this fake's certificate (and nothing else). */
    public SSLContext clientSslContext() {
        return tls.trustingContext();
    }

    public String teamId() {
        return teamId;
    }

    public String keyId() {
        return keyId;
    }

    /** The team's {@code .p8} key: PKCS#8 PEM, P-256. */
    public String signingKeyPem() {
        return signingKeyPem;
    }

    /** A new device token (64 hex digits) of an app with bundle id {@code topic}. */
    public String register(String topic) {
        byte[] raw = new byte[32];
        random.nextBytes(raw);
        String token = HexFormat.of().formatHex(raw);
        topics.put(token, topic);
        return token;
    }

    /** From now on {@code deviceToken} is answered 410 Unregistered (the app was removed). */
    public void unregister(String deviceToken) {
        unregistered.put(deviceToken, clock.millis());
    }

    /** Every provider token seen so far is answered 403 ExpiredProviderToken from now on. */
    public void expireProviderTokens() {
        tokens.expireSeen();
    }

    /** Whether every provider token, new ones too, is answered 403 ExpiredProviderToken. */
    public void expireAllProviderTokens(boolean all) {
        tokens.expireAll(all);
    }

    /** How many different provider tokens were taken. */
    public int providerTokensSeen() {
        return tokens.seen();
    }

    /** The next push with a good provider token is answered {@code status} and {@code reason}, with a Retry-After when not null. */
    public void failNext(int status, String reason, Duration retryAfter) {
        failures.add(new Failure(status, reason, retryAfter));
    }

    /** Every push taken, in order. */
    public List<Delivery> deliveries() {
        return List.copyOf(deliveries);
    }

    /** Every answer, in order. */
    public List<Answer> answers() {
        return List.copyOf(answers);
    }

    /** How many requests came over HTTP/1.x (and were refused). */
    public int http1Refused() {
        return http1Refused.get();
    }

    /** What {@code deviceToken}'s device shows: the latest push per collapse id (each push without one). */
    public List<Delivery> held(String deviceToken) {
        Map<String, Delivery> held = new LinkedHashMap<>();
        int i = 0;
        for (Delivery d : deliveries) {
            if (d.deviceToken().equals(deviceToken)) {
                String key = d.collapseId() != null ? d.collapseId() : "#" + i++;
                held.remove(key);
                held.put(key, d);
            }
        }
        return new ArrayList<>(held.values());
    }

    private void handle(HttpServerExchange exchange) {
        if (!Protocols.HTTP_2_0.equals(exchange.getProtocol())) {
            http1Refused.incrementAndGet();
            answer(exchange, 505, "HTTP/2 is required");
            return;
        }
        exchange.getRequestReceiver().receiveFullBytes(this::push, (ex, e) -> ex.endExchange());
    }

    private void push(HttpServerExchange exchange, byte[] body) {
        if (!Methods.POST.equals(exchange.getRequestMethod())) {
            answer(exchange, 405, "MethodNotAllowed");
            return;
        }
        String path = exchange.getRequestPath();
        if (!path.startsWith("/3/device/")) {
            answer(exchange, 404, "BadPath");
            return;
        }
        String deviceToken = path.substring("/3/device/".length());
        String authorization = exchange.getRequestHeaders().getFirst(Headers.AUTHORIZATION);
        String tokenProblem = tokens.check(authorization);
        if (tokenProblem != null) {
            answer(exchange, 403, tokenProblem);
            return;
        }
        Failure failure = failures.poll();
        if (failure != null) {
            if (failure.retryAfter() != null) {
                exchange.getResponseHeaders().put(Headers.RETRY_AFTER, Long.toString(failure.retryAfter().toSeconds()));
            }
            answer(exchange, failure.status(), failure.reason());
            return;
        }
        String topic = exchange.getRequestHeaders().getFirst("apns-topic");
        if (topic == null) {
            answer(exchange, 400, "MissingTopic");
            return;
        }
        if (deviceToken.isEmpty()) {
            answer(exchange, 400, "MissingDeviceToken");
            return;
        }
        Long gone = unregistered.get(deviceToken);
        if (gone != null) {
            answers.add(new Answer(410, "Unregistered"));
            send(exchange, 410, "{\"reason\":\"Unregistered\",\"timestamp\":" + gone + "}");
            return;
        }
        String registeredTopic = topics.get(deviceToken);
        if (registeredTopic == null) {
            answer(exchange, 400, "BadDeviceToken");
            return;
        }
        if (!registeredTopic.equals(topic)) {
            answer(exchange, 400, "DeviceTokenNotForTopic");
            return;
        }
        ApnsPushRules.Refusal refusal = ApnsPushRules.check(exchange.getRequestHeaders(), body);
        if (refusal != null) {
            answer(exchange, refusal.status(), refusal.reason());
            return;
        }
        String apnsId = exchange.getRequestHeaders().getFirst("apns-id");
        if (apnsId == null) {
            apnsId = UUID.randomUUID().toString();
        }
        var headers = exchange.getRequestHeaders();
        deliveries.add(new Delivery(deviceToken, topic, apnsId, headers.getFirst("apns-push-type"), headers.getFirst("apns-priority"),
                headers.getFirst("apns-expiration"), headers.getFirst("apns-collapse-id"), ApnsPushRules.json(body),
                exchange.getProtocol().toString(), authorization.substring(7).strip()));
        answers.add(new Answer(200, ""));
        exchange.getResponseHeaders().put(new HttpString("apns-id"), apnsId);
        exchange.setStatusCode(200);
        exchange.endExchange();
    }

    private void answer(HttpServerExchange exchange, int status, String reason) {
        answers.add(new Answer(status, reason));
        send(exchange, status, NotifyJson.mapper().createObjectNode().put("reason", reason).toString());
    }

    private static void send(HttpServerExchange exchange, int status, String json) {
        exchange.setStatusCode(status);
        exchange.getResponseHeaders().put(Headers.CONTENT_TYPE, "application/json");
        exchange.getResponseSender().send(json);
    }

    private String appleId() {
        String alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < 10; i++) {
            s.append(alphabet.charAt(random.nextInt(alphabet.length())));
        }
        return s.toString();
    }

    @Override
    public void close() {
        server.stop();
    }
}
