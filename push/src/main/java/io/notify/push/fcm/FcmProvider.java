package io.notify.push.fcm;

import io.notify.protocol.push.PushRegistration;
import io.notify.protocol.text.Clip;
import io.notify.push.provider.PushMessage;
import io.notify.push.provider.PushProvider;
import io.notify.push.provider.PushResult;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Clock;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * Firebase Cloud Messaging, HTTP v1 API: one {@code POST {base}/v1/projects/{project}/messages:send}
 * per push ({@link FcmRequestBody}), authorized by an OAuth 2 token of the project's service account
 * ({@link AccessTokenSource}: cached, refreshed 5 minutes before it ends, one fetch at a time), the
 * answer mapped by {@link FcmOutcomes}. A 401 drops the cached token and the push is sent once more
 * with a new one; a failed token fetch, a timeout or a network failure is a {@code Retry}. The
 * returned futures never complete exceptionally, and each completes within 4 request timeouts
 * (token, send, token again, send again).
 *
 * <p>Why not {@code google-auth-library} or {@code firebase-admin}: they bring Guava, gRPC and their
 * HTTP transports (tens of MB) for what is here one signed JWT, one form POST and one JSON POST on
 * the JDK's {@link HttpClient}; the JWT is signed by nimbus-jose-jwt, already used for VAPID.
 *
 * <p>Thread-safe. {@link #close()} makes later sends {@code Retry}; the JDK 17 {@link HttpClient} has
 * no close of its own and lets its connections go when it is unreachable.
 */
public final class FcmProvider implements PushProvider {

    private final FcmSettings settings;
    private final ServiceAccount account;
    private final HttpClient client;
    private final Clock clock;
    private final AccessTokenSource tokens;
    private final URI sendUri;
    private volatile boolean closed;

    /**
     * A sender for the project of {@code settings}' service account.
     *
     * @throws IllegalArgumentException when the service account cannot be read (the message names
     *                                  {@code fcm.service-account} and the field)
     */
    public FcmProvider(FcmSettings settings) {
        this(settings, Clock.systemUTC());
    }

    /** For tests: a given clock. */
    FcmProvider(FcmSettings settings, Clock clock) {
        this.settings = settings;
        this.account = ServiceAccount.load(settings.serviceAccount());
        this.client = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_2)
                .connectTimeout(settings.requestTimeout())
                .followRedirects(HttpClient.Redirect.NEVER)
                .build();
        this.clock = clock;
        this.tokens = new AccessTokenSource(account, client, clock, settings.requestTimeout());
        this.sendUri = URI.create(settings.base() + "/v1/projects/" + account.projectId() + "/messages:send");
    }

    @Override
    public String name() {
        return PushRegistration.FCM;
    }

    /** The Firebase project pushes go to. */
    public String projectId() {
        return account.projectId();
    }

    @Override
    public CompletableFuture<PushResult> send(PushRegistration to, PushMessage message) {
        if (to.fcm() == null) {
            return CompletableFuture.completedFuture(new PushResult.Refused(0, "not an fcm registration: " + to.provider()));
        }
        if (closed) {
            return CompletableFuture.completedFuture(new PushResult.Retry(0, "the fcm sender is closed", null));
        }
        try {
            byte[] body = FcmRequestBody.bytes(to.fcm().token(), message, clock.instant());
            return attempt(body, true)
                    .exceptionally(FcmProvider::failure)
                    .completeOnTimeout(new PushResult.Retry(0, "timeout: no answer within " + settings.requestTimeout().multipliedBy(4), null),
                            settings.requestTimeout().multipliedBy(4).toMillis(), TimeUnit.MILLISECONDS);
        } catch (RuntimeException e) {
            return CompletableFuture.completedFuture(failure(e));
        }
    }

    private CompletableFuture<PushResult> attempt(byte[] body, boolean mayRefresh) {
        return tokens.token().thenCompose(token -> client.sendAsync(request(body, token.value()), HttpResponse.BodyHandlers.ofString())
                .thenCompose(response -> {
                    if (mayRefresh && FcmOutcomes.staleToken(response.statusCode(), response.body())) {
                        // revoked, or expired early: once with a new token, then it is the answer
                        tokens.invalidate(token);
                        return attempt(body, false);
                    }
                    return CompletableFuture.completedFuture(
                            FcmOutcomes.of(response.statusCode(), response.body(), response.headers(), clock.instant()));
                }));
    }

    private HttpRequest request(byte[] body, String token) {
        return HttpRequest.newBuilder(sendUri)
                .version(versionFor(sendUri))
                .timeout(settings.requestTimeout())
                .header("Authorization", "Bearer " + token)
                .header("Content-Type", "application/json; charset=UTF-8")
                .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                .build();
    }

    /** HTTP/2 over TLS; plain {@code http} (a local fake) as HTTP/1.1, without an h2c upgrade attempt. */
    static HttpClient.Version versionFor(URI uri) {
        return "https".equals(uri.getScheme()) ? HttpClient.Version.HTTP_2 : HttpClient.Version.HTTP_1_1;
    }

    static PushResult failure(Throwable e) {
        Throwable cause = e;
        while ((cause instanceof CompletionException || cause instanceof ExecutionException) && cause.getCause() != null) {
            cause = cause.getCause();
        }
        if (cause instanceof AccessTokenSource.FetchFailure fetch) {
            return new PushResult.Retry(fetch.status, Clip.clip(fetch.getMessage()), null);
        }
        if (cause instanceof HttpTimeoutException) {
            return new PushResult.Retry(0, "timeout: " + Clip.clip(cause.getMessage()), null);
        }
        return new PushResult.Retry(0, Clip.clip(cause.getClass().getSimpleName() + ": " + cause.getMessage()), null);
    }

    @Override
    public void close() {
        closed = true;
    }
}
