package io.notify.push.webpush;

import io.notify.common.http.PublicHosts;
import io.notify.protocol.push.PushRegistration;
import io.notify.protocol.text.Clip;
import io.notify.push.provider.PushMessage;
import io.notify.push.provider.PushProvider;
import io.notify.push.provider.PushResult;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The Web Push provider ({@code webpush}): one push as an RFC 8030 request to the subscription's
 * endpoint, its body encrypted for the browser (RFC 8291, {@link Aes128GcmEncryptor}) and signed for
 * the push service (RFC 8292 VAPID). Sends with one shared {@link HttpClient}, asynchronously; every
 * push ends within the settings' request timeout and its future never completes exceptionally
 * ({@link WebPushOutcomes} says what each answer means; no answer is a {@code Retry} with status 0).
 * {@code http} endpoints are refused unless the settings allow them. The caller bounds how many
 * pushes are in flight. Thread-safe; {@link #close} stops the client's threads.
 */
public final class WebPushProvider implements PushProvider {

    /** Bytes of a push service's answer kept for the reason. */
    static final int MAX_ANSWER_BYTES = 4096;

    private final WebPushSettings settings;
    private final Clock clock;
    private final Aes128GcmEncryptor encryptor;
    private final VapidAuthorization vapid;
    private final ExecutorService executor;
    private final HttpClient client;
    private volatile boolean closed;

    /** A provider with its own HTTP client, as the sender runs it. */
    public WebPushProvider(WebPushSettings settings) {
        this(settings, Clock.systemUTC(), new Aes128GcmEncryptor());
    }

    /** For tests: a clock (VAPID expiry, HTTP-date Retry-After) and an encryptor. */
    WebPushProvider(WebPushSettings settings, Clock clock, Aes128GcmEncryptor encryptor) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.encryptor = Objects.requireNonNull(encryptor, "encryptor");
        this.vapid = new VapidAuthorization(settings.subject(), settings.keys(), clock);
        this.executor = Executors.newFixedThreadPool(Math.max(2, Runtime.getRuntime().availableProcessors()), threads());
        this.client = HttpClient.newBuilder()
                .executor(executor)
                .connectTimeout(settings.requestTimeout())
                .followRedirects(HttpClient.Redirect.NEVER)
                .build();
    }

    @Override
    public String name() {
        return PushRegistration.WEBPUSH;
    }

    @Override
    public CompletableFuture<PushResult> send(PushRegistration to, PushMessage message) {
        if (closed) {
            return done(new PushResult.Retry(0, "webpush provider closed", null));
        }
        if (to.webpush() == null) {
            return done(new PushResult.Refused(0, "not a webpush registration: " + to.provider()));
        }
        URI endpoint = to.webpush().uri();
        if ("http".equalsIgnoreCase(endpoint.getScheme()) && !settings.allowInsecureEndpoints()) {
            return done(new PushResult.Refused(0, "http endpoint not allowed"));
        }
        // the DNS check and the encryption (two P-256 operations) run on the provider's threads, not the caller's:
        // the sender's consumer thread hands pushes over and the cores share the work
        try {
            return CompletableFuture.supplyAsync(() -> settings.allowInsecureEndpoints() ? null : privateAddress(endpoint.getHost()), executor)
                    .handle((refusal, error) -> error != null ? done(new PushResult.Retry(0, "cannot resolve " + endpoint.getHost()
                            + ": " + failure(error), null)) : refusal != null ? done(new PushResult.Refused(0, refusal))
                            : exchange(endpoint, to, message))
                    .thenCompose(r -> r);
        } catch (java.util.concurrent.RejectedExecutionException e) {
            return done(new PushResult.Retry(0, "webpush provider closed", null));
        }
    }

    /** Null when every address of {@code host} is public; else why the endpoint is refused. */
    private static String privateAddress(String host) {
        try {
            for (InetAddress a : InetAddress.getAllByName(host)) {
                if (!PublicHosts.isPublic(a)) {
                    return "endpoint host " + host + " resolves to a non-public address " + a.getHostAddress();
                }
            }
            return null;
        } catch (UnknownHostException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private CompletableFuture<PushResult> exchange(URI endpoint, PushRegistration to, PushMessage message) {
        HttpRequest request;
        try {
            request = request(endpoint, to.webpush().keys(), message);
        } catch (IllegalArgumentException | IllegalStateException e) {
            // A subscription key that is no P-256 point, or a URI the client cannot take: it will never go.
            return done(new PushResult.Refused(0, Clip.clip(e.getMessage())));
        }
        CompletableFuture<HttpResponse<String>> exchange;
        try {
            exchange = client.sendAsync(request, BoundedBody.handler(MAX_ANSWER_BYTES));
        } catch (RuntimeException e) {
            return done(new PushResult.Retry(0, failure(e), null));
        }
        Duration timeout = settings.requestTimeout();
        CompletableFuture<PushResult> result = exchange
                .handle((response, error) -> error == null ? outcome(response) : new PushResult.Retry(0, failure(error), null))
                .completeOnTimeout(new PushResult.Retry(0, "timeout after " + timeout.toMillis() + " ms", null),
                        timeout.toMillis(), TimeUnit.MILLISECONDS);
        // Past the timeout (e.g. a body that never ends) the exchange is abandoned, not left open.
        result.whenComplete((r, e) -> exchange.cancel(true));
        return result;
    }

    /** Sends nothing more; pushes in flight end as a {@code Retry}. */
    @Override
    public void close() {
        closed = true;
        executor.shutdownNow();
    }

    private HttpRequest request(URI endpoint, PushRegistration.Keys keys, PushMessage message) {
        byte[] body = encryptor.encrypt(message.payload(), keys.publicKey(), keys.authSecret());
        HttpRequest.Builder builder = HttpRequest.newBuilder(endpoint)
                .timeout(settings.requestTimeout())
                .header("TTL", Long.toString(message.ttl().toSeconds()))
                .header("Urgency", message.urgency().wireName())
                .header("Topic", message.webPushTopic())
                .header("Content-Encoding", "aes128gcm")
                .header("Content-Type", "application/octet-stream")
                .header("Authorization", vapid.headerFor(endpoint))
                .POST(HttpRequest.BodyPublishers.ofByteArray(body));
        if ("http".equalsIgnoreCase(endpoint.getScheme())) {
            // Cleartext is a local push service: plain HTTP/1.1, no h2c upgrade dance.
            builder.version(HttpClient.Version.HTTP_1_1);
        }
        return builder.build();
    }

    private PushResult outcome(HttpResponse<String> response) {
        return WebPushOutcomes.of(response.statusCode(),
                response.headers().firstValue("Location").orElse(null),
                response.headers().firstValue("Retry-After").orElse(null),
                response.body(),
                clock.instant());
    }

    private String failure(Throwable error) {
        Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
        if (cause instanceof HttpTimeoutException) {
            return "timeout after " + settings.requestTimeout().toMillis() + " ms";
        }
        String text = cause.getMessage() == null ? "" : ": " + cause.getMessage();
        return Clip.clip(cause.getClass().getSimpleName() + text);
    }

    private static CompletableFuture<PushResult> done(PushResult result) {
        return CompletableFuture.completedFuture(result);
    }

    private static ThreadFactory threads() {
        AtomicInteger count = new AtomicInteger();
        return runnable -> {
            Thread thread = new Thread(runnable, "webpush-http-" + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }
}
