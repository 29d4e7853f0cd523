package io.notify.gateway.auth;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jwt.JWT;
import com.nimbusds.jwt.JWTClaimNames;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.JWTParser;
import com.nimbusds.jwt.SignedJWT;
import io.notify.gateway.auth.AuthResult.Authenticated;
import io.notify.gateway.auth.AuthResult.Rejected;
import io.notify.gateway.rooms.RoomPatterns;
import io.notify.protocol.event.Recipients;
import java.text.ParseException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.Map;

/**
 * Verifies handshake JWTs locally (no network, ~tens of µs), so a reconnect storm costs CPU, not
 * an auth service round trip.
 *
 * <p>Guarantees: a token is accepted only if it is a JWS (never {@code alg=none}, never JWE) whose
 * header algorithm equals the pinned algorithm of a configured key (a token with a {@code kid} only
 * against the key of that {@code kid}: a {@code kid} no key has is refused, also when the keys have
 * none; a token without one against any key) and whose signature that key verifies; it carries
 * {@code exp} and is not past it, nor before {@code nbf}, nor issued ({@code iat}) after now, beyond the
 * configured skew; its {@code iss}
 * equals the configured issuer and its {@code aud} contains the configured audience; its {@code sub}
 * is a JSON string (a number is refused, never coerced) and a valid user id, which is the only
 * source of the user's identity. Never logs or returns any part of the token.
 * Thread-safe. The keys are those of its {@link KeyRing} at the moment of each verification; a
 * {@code kid} none of them has is reported to the ring (a JWKS URL then refetches, rate-limited,
 * in the background: this token is refused all the same, never waits).
 */
public final class TokenVerifier {

    /** Longer tokens are refused before parsing (a header line is bounded anyway; this is cheaper). */
    public static final int MAX_TOKEN_CHARS = 8 * 1024;
    /** The claim listing the room patterns a token may join (docs/protocol.md, "Rooms and broadcast"). */
    public static final String ROOMS_CLAIM = "rooms";

    private final KeyRing keys;
    private final String issuer;
    private final String audience;
    private final Duration skew;
    private final Clock clock;

    /** A verifier over keys that never change (a JWKS file, the HMAC secret). */
    public TokenVerifier(List<PinnedKey> keys, String issuer, String audience, Duration skew, Clock clock) {
        this(KeyRing.fixed(keys), issuer, audience, skew, clock);
    }

    /** A verifier over {@code keys} as they are at each verification (a JWKS URL's change in the background). */
    public TokenVerifier(KeyRing keys, String issuer, String audience, Duration skew, Clock clock) {
        this.keys = keys;
        this.issuer = issuer;
        this.audience = audience;
        this.skew = skew;
        this.clock = clock;
    }

    public AuthResult verify(String token) {
        if (token == null || token.isEmpty()) {
            return new Rejected(AuthRejection.MISSING_TOKEN);
        }
        if (token.length() > MAX_TOKEN_CHARS) {
            return new Rejected(AuthRejection.MALFORMED);
        }
        JWT jwt;
        try {
            jwt = JWTParser.parse(token);
        } catch (ParseException | RuntimeException e) {
            return new Rejected(AuthRejection.MALFORMED);
        }
        if (!(jwt instanceof SignedJWT signed)) {
            return new Rejected(AuthRejection.ALG_NOT_ALLOWED); // PlainJWT (alg=none) or an encrypted token
        }
        AuthRejection signature = checkSignature(signed);
        if (signature != null) {
            return new Rejected(signature);
        }
        // the payload is parsed once, here: its raw sub is checked before nimbus would coerce a number to a string
        Map<String, Object> payload = signed.getPayload().toJSONObject();
        if (payload == null) {
            return new Rejected(AuthRejection.MALFORMED);
        }
        Object sub = payload.get(JWTClaimNames.SUBJECT);
        if (sub != null && !(sub instanceof String)) {
            return new Rejected(AuthRejection.BAD_SUBJECT); // RFC 7519 4.1.2: sub is a string
        }
        RoomPatterns rooms;
        try {
            rooms = roomsClaim(payload.get(ROOMS_CLAIM));
        } catch (IllegalArgumentException e) {
            return new Rejected(AuthRejection.BAD_ROOMS_CLAIM);
        }
        try {
            return checkClaims(JWTClaimsSet.parse(payload), rooms);
        } catch (ParseException e) {
            return new Rejected(AuthRejection.MALFORMED);
        }
    }

    private AuthRejection checkSignature(SignedJWT jwt) {
        JWSHeader header = jwt.getHeader();
        JWSAlgorithm alg = header.getAlgorithm();
        String kid = header.getKeyID();
        List<PinnedKey> inForce = keys.keys();
        if (inForce.isEmpty()) {
            return AuthRejection.KEYS_UNAVAILABLE;
        }
        boolean kidKnown = false;
        boolean algPinned = false;
        for (PinnedKey key : inForce) {
            if (kid != null && !kid.equals(key.kid())) {
                continue; // a token naming a kid is only checked against the key of that kid, never a key without one
            }
            kidKnown = true;
            if (!key.algorithm().equals(alg)) {
                continue;
            }
            algPinned = true;
            try {
                if (jwt.verify(key.verifier())) {
                    return null;
                }
            } catch (JOSEException | RuntimeException e) {
                // a key of the wrong size or an unparseable signature: treated as a bad signature
            }
        }
        if (!kidKnown) {
            keys.unknownKid(kid); // kid is not null here: a token without kid reaches every key
            return AuthRejection.UNKNOWN_KEY;
        }
        return algPinned ? AuthRejection.BAD_SIGNATURE : AuthRejection.ALG_NOT_ALLOWED;
    }

    /** The {@code rooms} claim: absent (null), or an array of room patterns ({@link RoomPatterns}). */
    static RoomPatterns roomsClaim(Object claim) {
        if (claim == null) {
            return null;
        }
        if (!(claim instanceof List<?> list)) {
            throw new IllegalArgumentException("the rooms claim must be an array of strings");
        }
        List<String> patterns = new java.util.ArrayList<>(list.size());
        for (Object o : list) {
            if (!(o instanceof String p)) {
                throw new IllegalArgumentException("the rooms claim must be an array of strings");
            }
            patterns.add(p);
        }
        return RoomPatterns.of(patterns);
    }

    private AuthResult checkClaims(JWTClaimsSet claims, RoomPatterns rooms) {
        Instant now = clock.instant();
        Date exp = claims.getExpirationTime();
        if (exp == null || claims.getSubject() == null || claims.getIssuer() == null || claims.getAudience().isEmpty()) {
            return new Rejected(AuthRejection.MISSING_CLAIM);
        }
        if (now.isAfter(exp.toInstant().plus(skew))) {
            return new Rejected(AuthRejection.EXPIRED);
        }
        Date nbf = claims.getNotBeforeTime();
        if (nbf != null && now.isBefore(nbf.toInstant().minus(skew))) {
            return new Rejected(AuthRejection.NOT_YET_VALID);
        }
        Date iat = claims.getIssueTime();
        if (iat != null && now.isBefore(iat.toInstant().minus(skew))) {
            return new Rejected(AuthRejection.ISSUED_IN_FUTURE);
        }
        if (!issuer.equals(claims.getIssuer())) {
            return new Rejected(AuthRejection.WRONG_ISSUER);
        }
        if (!claims.getAudience().contains(audience)) {
            return new Rejected(AuthRejection.WRONG_AUDIENCE);
        }
        String sub = claims.getSubject();
        if (!Recipients.USER_ID.matcher(sub).matches()) {
            return new Rejected(AuthRejection.BAD_SUBJECT);
        }
        return new Authenticated(sub, exp.toInstant().plus(skew), rooms);
    }
}
