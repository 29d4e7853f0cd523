package io.notify.push.fcm;

import com.fasterxml.jackson.databind.JsonNode;
import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import io.notify.protocol.NotifyJson;
import io.notify.protocol.text.Clip;
import java.io.IOException;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * OAuth 2 access tokens for FCM by the JWT bearer grant (RFC 7523) of a service account: an RS256
 * JWT ({@code kid} = {@code private_key_id}; {@code iss} the account, {@code scope} FCM,
 * {@code aud} the token endpoint, an hour long) is exchanged at {@code token_uri} for a bearer token.
 *
 * <p>The token is cached and fetched again when less than {@link #REFRESH_MARGIN} of it remains;
 * at most one fetch is in flight, and every send that needs a token meanwhile waits on that one.
 * A failed fetch fails the returned future with a {@link FetchFailure} (the sender retries later);
 * it is not cached, so the next send tries again. Thread-safe; never blocks.
 */
final class AccessTokenSource {

    static final String SCOPE = "https://www.googleapis.com/auth/firebase.messaging";
    static final String GRANT_TYPE = "urn:ietf:params:oauth:grant-type:jwt-bearer";
    static final Duration ASSERTION_LIFETIME = Duration.ofHours(1);
    static final Duration REFRESH_MARGIN = Duration.ofMinutes(5);

    /** A bearer token and when it stops working. */
    record AccessToken(String value, Instant expiresAt) {
        @Override
        public String toString() {
            return "AccessToken[expiresAt=" + expiresAt + "]";
        }
    }

    /** The token endpoint refused the grant or did not answer; {@code status} is its HTTP status (0: none). */
    static final class FetchFailure extends IOException {
        final int status;

        FetchFailure(int status, String reason) {
            super(reason);
            this.status = status;
        }
    }

    private final ServiceAccount account;
    private final HttpClient client;
    private final Clock clock;
    private final Duration requestTimeout;
    private final RSASSASigner signer;

    private AccessToken current;
    private CompletableFuture<AccessToken> inFlight;

    AccessTokenSource(ServiceAccount account, HttpClient client, Clock clock, Duration requestTimeout) {
        this.account = account;
        this.client = client;
        this.clock = clock;
        this.requestTimeout = requestTimeout;
        this.signer = new RSASSASigner(account.privateKey());
    }

    /** A token with at least {@link #REFRESH_MARGIN} left: the cached one, the one being fetched, or a new fetch. */
    CompletableFuture<AccessToken> token() {
        CompletableFuture<AccessToken> started;
        synchronized (this) {
            if (current != null && current.expiresAt().minus(REFRESH_MARGIN).isAfter(clock.instant())) {
                return CompletableFuture.completedFuture(current);
            }
            if (inFlight != null) {
                return inFlight;
            }
            inFlight = started = new CompletableFuture<>();
        }
        // outside the lock: a fetch that fails at once completes on this thread
        fetch().whenComplete((token, error) -> {
            synchronized (this) {
                if (token != null) {
                    current = token;
                }
                inFlight = null;
            }
            if (error != null) {
                started.completeExceptionally(error);
            } else {
                started.complete(token);
            }
        });
        return started;
    }

    /** Forgets {@code stale} (FCM said 401) unless a newer token already replaced it. */
    synchronized void invalidate(AccessToken stale) {
        if (current == stale) {
            current = null;
        }
    }

    private CompletableFuture<AccessToken> fetch() {
        Instant now = clock.instant();
        HttpRequest request;
        try {
            request = HttpRequest.newBuilder(account.tokenUri())
                    .version(FcmProvider.versionFor(account.tokenUri()))
                    .timeout(requestTimeout)
                    .header("Content-Type", "application/x-www-form-urlencoded")
                    .header("Accept", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString("grant_type=" + URLEncoder.encode(GRANT_TYPE, StandardCharsets.UTF_8)
                            + "&assertion=" + assertion(now)))
                    .build();
        } catch (JOSEException | RuntimeException e) {
            return CompletableFuture.failedFuture(new FetchFailure(0, "oauth: cannot sign the grant: " + e.getMessage()));
        }
        try {
            return client.sendAsync(request, HttpResponse.BodyHandlers.ofString()).thenApply(response -> read(response, now));
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(new FetchFailure(0, "oauth: " + e));
        }
    }

    /** The RFC 7523 assertion, signed; its characters are all base64url and dots, so it needs no form encoding. */
    String assertion(Instant now) throws JOSEException {
        JWSHeader header = new JWSHeader.Builder(JWSAlgorithm.RS256).type(JOSEObjectType.JWT).keyID(account.privateKeyId()).build();
        JWTClaimsSet claims = new JWTClaimsSet.Builder()
                .issuer(account.clientEmail())
                .claim("scope", SCOPE)
                .audience(account.tokenUri().toString())
                .issueTime(Date.from(now))
                .expirationTime(Date.from(now.plus(ASSERTION_LIFETIME)))
                .build();
        SignedJWT jwt = new SignedJWT(header, claims);
        jwt.sign(signer);
        return jwt.serialize();
    }

    private static AccessToken read(HttpResponse<String> response, Instant requestedAt) {
        JsonNode body;
        try {
            body = NotifyJson.mapper().readTree(response.body());
        } catch (IOException | RuntimeException e) {
            body = null;
        }
        if (response.statusCode() != 200 || body == null) {
            String error = body == null ? Clip.clip(response.body())
                    : body.path("error").asText("") + " " + body.path("error_description").asText("");
            throw new CompletionException(new FetchFailure(response.statusCode(),
                    "oauth: token endpoint said " + response.statusCode() + " " + Clip.clip(error.strip())));
        }
        String token = body.path("access_token").asText("");
        long expiresIn = body.path("expires_in").asLong(0);
        if (token.isEmpty() || expiresIn <= 0) {
            throw new CompletionException(new FetchFailure(response.statusCode(), "oauth: the token endpoint's answer has no access_token/expires_in"));
        }
        // counted from when it was asked for: never later than the endpoint's own clock
        return new AccessToken(token, requestedAt.plusSeconds(expiresIn));
    }
}
