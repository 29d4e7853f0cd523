package io.notify.push.fake;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.crypto.RSASSAVerifier;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.security.interfaces.RSAPublicKey;
import java.text.ParseException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Base64;
import java.util.Date;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Google's OAuth 2 token endpoint as the FCM fake plays it: the JWT bearer grant (RFC 7523) of one
 * service account. It checks what Google checks (the RS256 signature by the account's key under its
 * {@code kid}, {@code iss}, {@code aud}, the FCM {@code scope}, {@code iat}/{@code exp} at most an
 * hour apart and current) and answers Google's errors; it issues opaque tokens valid for
 * {@link #lifetime(Duration)}, counted, and revocable.
 */
final class FcmOAuthEndpoint {

    static final String GRANT_TYPE = "urn:ietf:params:oauth:grant-type:jwt-bearer";
    static final String SCOPE = "https://www.googleapis.com/auth/firebase.messaging";
    static final Duration SKEW = Duration.ofMinutes(1);

    private final RSAPublicKey publicKey;
    private final String keyId;
    private final String clientEmail;
    private final Clock clock;
    private final SecureRandom random = new SecureRandom();
    private final Map<String, Instant> tokens = new ConcurrentHashMap<>();
    private final AtomicInteger issued = new AtomicInteger();
    private final ConcurrentLinkedDeque<Integer> failures = new ConcurrentLinkedDeque<>();
    private volatile Duration lifetime = Duration.ofSeconds(3599);
    private volatile String tokenUri;

    FcmOAuthEndpoint(RSAPublicKey publicKey, String keyId, String clientEmail, Clock clock) {
        this.publicKey = publicKey;
        this.keyId = keyId;
        this.clientEmail = clientEmail;
        this.clock = clock;
    }

    void tokenUri(String uri) {
        this.tokenUri = uri;
    }

    void lifetime(Duration d) {
        this.lifetime = d;
    }

    int issued() {
        return issued.get();
    }

    void failNext(int status) {
        failures.add(status);
    }

    void revokeAll() {
        tokens.clear();
    }

    /** Whether {@code token} was issued here and is neither expired nor revoked. */
    boolean valid(String token) {
        Instant expiresAt = tokens.get(token);
        return expiresAt != null && expiresAt.isAfter(clock.instant());
    }

    void handle(HttpExchange exchange) throws IOException {
        byte[] body = FcmFakeHttp.body(exchange);
        Integer failure = failures.poll();
        if (failure != null) {
            FcmFakeHttp.answer(exchange, failure, FcmFakeHttp.oauthError("internal_failure", "scripted failure"));
            return;
        }
        if (!exchange.getRequestMethod().equals("POST")) {
            FcmFakeHttp.answer(exchange, 405, FcmFakeHttp.oauthError("invalid_request", "POST is required"));
            return;
        }
        String contentType = exchange.getRequestHeaders().getFirst("Content-Type");
        if (contentType == null || !contentType.startsWith("application/x-www-form-urlencoded")) {
            FcmFakeHttp.answer(exchange, 400, FcmFakeHttp.oauthError("invalid_request", "a form body is required"));
            return;
        }
        Map<String, String> form = form(new String(body, StandardCharsets.UTF_8));
        if (!GRANT_TYPE.equals(form.get("grant_type"))) {
            FcmFakeHttp.answer(exchange, 400, FcmFakeHttp.oauthError("unsupported_grant_type", "Invalid grant_type: " + form.get("grant_type")));
            return;
        }
        String problem = check(form.get("assertion"));
        if (problem != null) {
            String error = problem.startsWith("Invalid OAuth scope") ? "invalid_scope" : "invalid_grant";
            FcmFakeHttp.answer(exchange, 400, FcmFakeHttp.oauthError(error, problem));
            return;
        }
        byte[] raw = new byte[32];
        random.nextBytes(raw);
        String token = "ya29.fake-" + Base64.getUrlEncoder().withoutPadding().encodeToString(raw);
        Duration life = lifetime;
        tokens.put(token, clock.instant().plus(life));
        issued.incrementAndGet();
        FcmFakeHttp.answer(exchange, 200, "{\"access_token\":\"" + token + "\",\"expires_in\":" + life.toSeconds()
                + ",\"token_type\":\"Bearer\"}");
    }

    /** Null when Google would take the assertion, else its error_description. */
    private String check(String assertion) {
        if (assertion == null) {
            return "Invalid JWT: no assertion";
        }
        SignedJWT jwt;
        JWTClaimsSet claims;
        try {
            jwt = SignedJWT.parse(assertion);
            claims = jwt.getJWTClaimsSet();
        } catch (ParseException e) {
            return "Invalid JWT: " + e.getMessage();
        }
        try {
            if (!JWSAlgorithm.RS256.equals(jwt.getHeader().getAlgorithm()) || !keyId.equals(jwt.getHeader().getKeyID())
                    || !jwt.verify(new RSASSAVerifier(publicKey))) {
                return "Invalid JWT Signature.";
            }
        } catch (JOSEException e) {
            return "Invalid JWT Signature.";
        }
        if (!clientEmail.equals(claims.getIssuer())) {
            return "Invalid email or User ID";
        }
        if (claims.getAudience() == null || !claims.getAudience().equals(List.of(tokenUri))) {
            return "Invalid JWT: Failed audience check. The right audience is " + tokenUri;
        }
        Object scope = claims.getClaim("scope");
        if (!(scope instanceof String s) || !Arrays.asList(s.split(" ")).contains(SCOPE)) {
            return "Invalid OAuth scope or ID token audience provided.";
        }
        Date iat = claims.getIssueTime();
        Date exp = claims.getExpirationTime();
        Instant now = clock.instant();
        if (iat == null || exp == null || !exp.after(iat) || exp.getTime() - iat.getTime() > 3600_000
                || iat.toInstant().isAfter(now.plus(SKEW)) || !exp.toInstant().isAfter(now)) {
            return "Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe."
                    + " Check your iat and exp values in the JWT claim.";
        }
        return null;
    }

    private static Map<String, String> form(String body) {
        Map<String, String> out = new HashMap<>();
        for (String pair : body.split("&")) {
            int eq = pair.indexOf('=');
            if (eq > 0) {
                out.put(URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8),
                        URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
            }
        }
        return out;
    }
}
