package io.notify.push.webpush;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The {@code Authorization: vapid t=<jwt>, k=<public key>} header of RFC 8292 for one push
 * service. The JWT is ES256 with {@code typ: JWT}; claims {@code aud} (the endpoint's origin),
 * {@code exp} (now + {@link #LIFETIME}) and {@code sub} (the operator's contact). One token per
 * audience is cached and signed again when less than {@link #RENEW_BEFORE} of it is left, so a busy
 * sender signs about twice a day per push service. The cache holds at most {@link #MAX_AUDIENCES}
 * origins (it is emptied when full: there are only a handful of push services). Thread-safe.
 */
final class VapidAuthorization {

    static final Duration LIFETIME = Duration.ofHours(12);
    static final Duration RENEW_BEFORE = Duration.ofHours(1);
    static final int MAX_AUDIENCES = 1024;

    private final String subject;
    private final VapidKeys keys;
    private final Clock clock;
    private final ECDSASigner signer;
    private final Map<String, Token> tokens = new ConcurrentHashMap<>();

    VapidAuthorization(String subject, VapidKeys keys, Clock clock) {
        this.subject = subject;
        this.keys = keys;
        this.clock = clock;
        try {
            this.signer = new ECDSASigner(keys.privateKey());
        } catch (JOSEException e) {
            throw new IllegalArgumentException("the VAPID key cannot sign ES256: " + e.getMessage(), e);
        }
    }

    /** The header value for a push to {@code endpoint}. */
    String headerFor(URI endpoint) {
        String audience = audienceOf(endpoint);
        Instant now = clock.instant();
        if (tokens.size() >= MAX_AUDIENCES && !tokens.containsKey(audience)) {
            tokens.clear();
        }
        Token token = tokens.compute(audience, (aud, held) ->
                held != null && held.expiresAt().minus(RENEW_BEFORE).isAfter(now) ? held : sign(aud, now));
        return token.header();
    }

    /** {@code scheme://host[:port]}, the port only when not the scheme's default (RFC 6454 serialization). */
    static String audienceOf(URI endpoint) {
        String scheme = endpoint.getScheme().toLowerCase(Locale.ROOT);
        String host = endpoint.getHost().toLowerCase(Locale.ROOT);
        int port = endpoint.getPort();
        boolean defaultPort = port == -1 || (scheme.equals("https") && port == 443) || (scheme.equals("http") && port == 80);
        return scheme + "://" + host + (defaultPort ? "" : ":" + port);
    }

    private Token sign(String audience, Instant now) {
        Instant expiresAt = Instant.ofEpochSecond(now.getEpochSecond()).plus(LIFETIME);
        JWTClaimsSet claims = new JWTClaimsSet.Builder()
                .audience(audience)
                .expirationTime(Date.from(expiresAt))
                .subject(subject)
                .build();
        SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.ES256).type(JOSEObjectType.JWT).build(), claims);
        try {
            jwt.sign(signer);
        } catch (JOSEException e) {
            throw new IllegalStateException("cannot sign the VAPID JWT: " + e.getMessage(), e);
        }
        return new Token("vapid t=" + jwt.serialize() + ", k=" + keys.publicKeyBase64Url(), expiresAt);
    }

    private record Token(String header, Instant expiresAt) {
    }
}
