package io.notify.gateway.support;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.PlainJWT;
import com.nimbusds.jwt.SignedJWT;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;

/** An RSA signing key, its JWKS file, and tokens for tests. */
public final class Tokens {

    private final RSAKey key;
    private final Path jwksFile;
    private final Clock clock;

    /** The key {@code test-key}, the one of {@link GatewayHarness}'s JWKS file. */
    public Tokens() {
        this("test-key");
    }

    /** A new RSA key with key id {@code kid} (several make a rotation: see {@link JwksServer}). */
    public Tokens(String kid) {
        this(kid, Clock.systemUTC());
    }

    /**
     * As {@link #Tokens(String)}, issuing tokens at {@code clock}'s time ({@code iat}, and {@code exp}
     * from it): the clock of the node that verifies them, so a node on a test clock that stands still
     * never sees a token issued in its future.
     */
    public Tokens(String kid, Clock clock) {
        this.clock = clock;
        try {
            key = new RSAKeyGenerator(2048).keyID(kid).generate();
            jwksFile = Files.createTempFile("notify-gateway-jwks", ".json");
            jwksFile.toFile().deleteOnExit();
            Files.writeString(jwksFile, new JWKSet(key.toPublicJWK()).toString());
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    public Path jwksFile() {
        return jwksFile;
    }

    /** The public half of the signing key, as a JWKS publishes it. */
    public RSAKey publicJwk() {
        return key.toPublicJWK();
    }

    public String valid(String sub) {
        return sign(claims(sub, Duration.ofHours(1)).build());
    }

    public String validFor(String sub, Duration ttl) {
        return sign(claims(sub, ttl).build());
    }

    public String expired(String sub) {
        return sign(claims(sub, Duration.ofMinutes(-10)).build());
    }

    /** Correctly signed, but {@code sub} is a JSON number (RFC 7519 wants a string; refused as bad_subject). */
    public String numericSubject(long sub) {
        return sign(claims(null, Duration.ofHours(1)).claim("sub", sub).build());
    }

    public String algNone(String sub) {
        return new PlainJWT(claims(sub, Duration.ofHours(1)).build()).serialize();
    }

    public String badSignature(String sub) {
        try {
            RSAKey other = new RSAKeyGenerator(2048).keyID(key.getKeyID()).generate();
            SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.RS256).keyID(key.getKeyID()).build(),
                    claims(sub, Duration.ofHours(1)).build());
            jwt.sign(new RSASSASigner(other));
            return jwt.serialize();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private JWTClaimsSet.Builder claims(String sub, Duration ttl) {
        Instant now = clock.instant();
        return new JWTClaimsSet.Builder().subject(sub).issuer(TestConfig.ISSUER).audience(TestConfig.AUDIENCE)
                .issueTime(Date.from(now)).expirationTime(Date.from(now.plus(ttl)));
    }

    private String sign(JWTClaimsSet claims) {
        try {
            SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.RS256).keyID(key.getKeyID()).build(), claims);
            jwt.sign(new RSASSASigner(key));
            return jwt.serialize();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
