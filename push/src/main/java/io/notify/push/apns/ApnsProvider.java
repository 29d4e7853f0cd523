package io.notify.push.apns;

import io.notify.protocol.push.PushRegistration;
import io.notify.protocol.text.Clip;
import io.notify.push.provider.PushMessage;
import io.notify.push.provider.PushProvider;
import io.notify.push.provider.PushResult;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * Apple Push Notification service over HTTP/2 with token authentication: one
 * {@code POST {base}/3/device/<token>} per push ({@link ApnsRequest}) to the production or sandbox
 * server, as the registration says, authorized by a shared ES256 provider token
 * ({@link ProviderTokens}: signed again every 50 minutes), the answer mapped by {@link ApnsOutcomes}.
 * On 403 ExpiredProviderToken the token is signed again and the push sent once more. The returned
 * futures never complete exceptionally (a timeout or a network failure is a {@code Retry}) and each
 * completes within 2 request timeouts. The JDK client multiplexes every push to one server over one
 * HTTP/2 connection, as Apple asks.
 *
 * <p>Why not Pushy: it brings Netty (and its native TLS options) for one HTTP/2 POST that the JDK's
 * {@link HttpClient} makes; the JWT is signed by nimbus-jose-jwt, already used for VAPID.
 *
 * <p>Thread-safe. {@link #close()} makes later sends {@code Retry}; the JDK 17 {@link HttpClient} has
 * no close of its own and lets its connections go when it is unreachable.
 */
public final class ApnsProvider implements PushProvider {

    private final ApnsSettings settings;
    private final HttpClient client;
    private final Clock clock;
    private final ProviderTokens tokens;
    private volatile boolean closed;

    /**
     * A sender for {@code settings}' team and key.
     *
     * @throws IllegalArgumentException when the key cannot be read (the message names {@code apns.signing-key})
     */
    public ApnsProvider(ApnsSettings settings) {
        this(settings, Clock.systemUTC());
    }

    /** For tests: a given clock. */
    ApnsProvider(ApnsSettings settings, Clock clock) {
        this.settings = settings;
        this.clock = clock;
        this.tokens = new ProviderTokens(settings.teamId(), settings.keyId(), ProviderTokens.readKey(settings.signingKey()), clock);
        HttpClient.Builder builder = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_2)
                .connectTimeout(settings.requestTimeout())
                .followRedirects(HttpClient.Redirect.NEVER);
        if (settings.sslContext() != null) {
            builder.sslContext(settings.sslContext());
        }
        this.client = builder.build();
    }

    @Override
    public String name() {
        return PushRegistration.APNS;
    }

    @Override
    public CompletableFuture<PushResult> send(PushRegistration to, PushMessage message) {
        if (to.apns() == null) {
            return CompletableFuture.completedFuture(new PushResult.Refused(0, "not an apns registration: " + to.provider()));
        }
        if (closed) {
            return CompletableFuture.completedFuture(new PushResult.Retry(0, "the apns sender is closed", null));
        }
        byte[] body;
        try {
            body = ApnsRequest.body(message);
        } catch (IllegalArgumentException e) {
            return CompletableFuture.completedFuture(new PushResult.Refused(0, Clip.clip(e.getMessage())));
        }
        try {
            URI uri = URI.create(settings.base(to.apns().environment()) + "/3/device/" + to.apns().token());
            String apnsId = ApnsRequest.apnsId(message.eventId(), to.id());
            Duration bound = settings.requestTimeout().multipliedBy(2);
            return attempt(uri, to.apns(), message, apnsId, body, true)
                    .exceptionally(ApnsProvider::failure)
                    .completeOnTimeout(new PushResult.Retry(0, "timeout: no answer within " + bound, null), bound.toMillis(), TimeUnit.MILLISECONDS);
        } catch (RuntimeException e) {
            return CompletableFuture.completedFuture(failure(e));
        }
    }

    private CompletableFuture<PushResult> attempt(URI uri, PushRegistration.Apns to, PushMessage message, String apnsId, byte[] body,
                                                  boolean mayRenew) {
        ProviderTokens.ProviderToken token = tokens.current();
        return client.sendAsync(ApnsRequest.of(uri, to, message, apnsId, body, token.jwt(), clock.instant(), settings.requestTimeout()),
                        HttpResponse.BodyHandlers.ofString())
                .thenCompose(response -> {
                    if (mayRenew && response.statusCode() == 403
                            && ApnsOutcomes.EXPIRED_PROVIDER_TOKEN.equals(ApnsOutcomes.reason(response.body()))) {
                        tokens.renew(token);
                        return attempt(uri, to, message, apnsId, body, false);
                    }
                    return CompletableFuture.completedFuture(
                            ApnsOutcomes.of(response.statusCode(), response.body(), response.headers(), apnsId, clock.instant()));
                });
    }

    static PushResult failure(Throwable e) {
        Throwable cause = e;
        while ((cause instanceof CompletionException || cause instanceof ExecutionException) && cause.getCause() != null) {
            cause = cause.getCause();
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
