package io.notify.push.apns;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.interfaces.ECPrivateKey;
import java.security.spec.PKCS8EncodedKeySpec;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * APNs provider authentication tokens: ES256 JWTs ({@code kid} the key id; {@code iss} the team,
 * {@code iat} now) signed by the team's {@code .p8} key. One token is shared by every request and
 * signed again after {@link #REUSE} (50 minutes): APNs refuses a token older than an hour
 * (ExpiredProviderToken) and a team that changes tokens more often than every 20 minutes
 * (TooManyProviderTokenUpdates). {@link #renew} signs early, once per stale token however many
 * requests report it. Thread-safe; signing takes well under a millisecond.
 */
final class ProviderTokens {

    static final Duration REUSE = Duration.ofMinutes(50);

    private static final Pattern PKCS8 = Pattern.compile("-----BEGIN PRIVATE KEY-----([A-Za-z0-9+/=\\s]+)-----END PRIVATE KEY-----");

    /** A signed token and when it was signed. */
    record ProviderToken(String jwt, Instant issuedAt) {
        @Override
        public String toString() {
            return "ProviderToken[issuedAt=" + issuedAt + "]";
        }
    }

    private final String teamId;
    private final String keyId;
    private final ECDSASigner signer;
    private final Clock clock;
    private ProviderToken current;

    ProviderTokens(String teamId, String keyId, ECPrivateKey key, Clock clock) {
        this.teamId = teamId;
        this.keyId = keyId;
        this.clock = clock;
        try {
            this.signer = new ECDSASigner(key);
        } catch (JOSEException e) {
            throw new IllegalArgumentException("apns.signing-key: not a P-256 key: " + e.getMessage(), e);
        }
    }

    /** The shared token, signed again when it is {@link #REUSE} old. */
    synchronized ProviderToken current() {
        Instant now = clock.instant();
        if (current == null || !current.issuedAt().plus(REUSE).isAfter(now)) {
            current = sign(now);
        }
        return current;
    }

    /** A new token in place of {@code stale} (APNs said ExpiredProviderToken), unless another request already replaced it. */
    synchronized ProviderToken renew(ProviderToken stale) {
        if (current == stale) {
            current = sign(clock.instant());
        }
        return current;
    }

    private ProviderToken sign(Instant now) {
        JWSHeader header = new JWSHeader.Builder(JWSAlgorithm.ES256).keyID(keyId).build();
        JWTClaimsSet claims = new JWTClaimsSet.Builder().issuer(teamId).issueTime(Date.from(now)).build();
        SignedJWT jwt = new SignedJWT(header, claims);
        try {
            jwt.sign(signer);
        } catch (JOSEException e) {
            throw new IllegalStateException("cannot sign an APNs provider token: " + e.getMessage(), e);
        }
        // iat has whole seconds on the wire: age the token from there
        return new ProviderToken(jwt.serialize(), Instant.ofEpochSecond(now.getEpochSecond()));
    }

    /**
     * The key of {@link ApnsSettings#signingKey()}: PEM text when it contains {@code -----BEGIN},
     * else the path of the {@code .p8} file; a P-256 key.
     *
     * @throws IllegalArgumentException naming {@code apns.signing-key} and what is wrong (never quoting the key)
     */
    static ECPrivateKey readKey(String pemOrPath) {
        String pem = pemOrPath;
        String where = "apns.signing-key";
        if (!pemOrPath.contains("-----BEGIN")) {
            Path file = Path.of(pemOrPath.strip());
            where = "apns.signing-key " + file;
            try {
                pem = Files.readString(file, StandardCharsets.US_ASCII);
            } catch (IOException e) {
                throw new IllegalArgumentException("apns.signing-key: cannot read " + file + ": " + e, e);
            }
        }
        Matcher m = PKCS8.matcher(pem);
        if (!m.find()) {
            throw new IllegalArgumentException(where + ": a PEM '-----BEGIN PRIVATE KEY-----' (PKCS#8, as Apple's .p8 files are) is expected");
        }
        ECPrivateKey key;
        try {
            key = (ECPrivateKey) KeyFactory.getInstance("EC")
                    .generatePrivate(new PKCS8EncodedKeySpec(Base64.getMimeDecoder().decode(m.group(1))));
        } catch (GeneralSecurityException | IllegalArgumentException | ClassCastException e) {
            throw new IllegalArgumentException(where + ": not an EC PKCS#8 key");
        }
        if (!Curve.P_256.equals(Curve.forECParameterSpec(key.getParams()))) {
            throw new IllegalArgumentException(where + ": the key must be on P-256 (ES256)");
        }
        return key;
    }
}
