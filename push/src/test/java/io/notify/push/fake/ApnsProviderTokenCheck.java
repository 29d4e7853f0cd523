package io.notify.push.fake;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.crypto.ECDSAVerifier;
import com.nimbusds.jwt.SignedJWT;
import java.security.interfaces.ECPublicKey;
import java.text.ParseException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * APNs' check of a provider authentication token ({@code authorization: bearer <jwt>}): an ES256
 * JWT whose {@code kid} is the team's key and whose signature that key verifies, {@code iss} the
 * team, {@code iat} present and not in the future (InvalidProviderToken otherwise), and at most an
 * hour old (ExpiredProviderToken); a missing header is MissingProviderToken. Tests can expire the
 * tokens seen so far, or every token. Thread-safe.
 */
final class ApnsProviderTokenCheck {

    static final Duration MAX_AGE = Duration.ofHours(1);
    static final Duration SKEW = Duration.ofMinutes(1);

    private final String teamId;
    private final String keyId;
    private final ECDSAVerifier verifier;
    private final Clock clock;
    private final Set<String> seen = ConcurrentHashMap.newKeySet();
    private final Set<String> expired = ConcurrentHashMap.newKeySet();
    private volatile boolean expireAll;

    ApnsProviderTokenCheck(String teamId, String keyId, ECPublicKey key, Clock clock) {
        this.teamId = teamId;
        this.keyId = keyId;
        this.clock = clock;
        try {
            this.verifier = new ECDSAVerifier(key);
        } catch (JOSEException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Null when the token is good, else APNs' reason (all with status 403). */
    String check(String authorization) {
        if (authorization == null || authorization.isEmpty()) {
            return "MissingProviderToken";
        }
        if (!authorization.regionMatches(true, 0, "bearer ", 0, 7)) {
            return "InvalidProviderToken";
        }
        String token = authorization.substring(7).strip();
        SignedJWT jwt;
        Date iat;
        String iss;
        try {
            jwt = SignedJWT.parse(token);
            iat = jwt.getJWTClaimsSet().getIssueTime();
            iss = jwt.getJWTClaimsSet().getIssuer();
            if (!JWSAlgorithm.ES256.equals(jwt.getHeader().getAlgorithm()) || !keyId.equals(jwt.getHeader().getKeyID())
                    || !jwt.verify(verifier)) {
                return "InvalidProviderToken";
            }
        } catch (ParseException | JOSEException e) {
            return "InvalidProviderToken";
        }
        Instant now = clock.instant();
        if (!teamId.equals(iss) || iat == null || iat.toInstant().isAfter(now.plus(SKEW))) {
            return "InvalidProviderToken";
        }
        if (expireAll || expired.contains(token) || iat.toInstant().plus(MAX_AGE).isBefore(now)) {
            return "ExpiredProviderToken";
        }
        seen.add(token);
        return null;
    }

    /** How many different good tokens came. */
    int seen() {
        return seen.size();
    }

    /** Every token seen so far is answered ExpiredProviderToken from now on. */
    void expireSeen() {
        expired.addAll(seen);
    }

    /** Whether every token is answered ExpiredProviderToken. */
    void expireAll(boolean all) {
        this.expireAll = all;
    }
}
