package io.notify.gateway.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.PlainJWT;
import com.nimbusds.jwt.SignedJWT;
import io.notify.common.config.ConfigException;
import io.notify.gateway.config.GatewayConfig.JwtSettings;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Date;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class TokenVerifierTest {

    private static final Instant NOW = Instant.parse("2026-11-29T10:00:00Z");
    private static final String ISS = "https://auth.example";
    private static final String AUD = "notify";
    private static RSAKey rsa;
    private static RSAKey otherRsa;
    private static ECKey ec;
    private static TokenVerifier verifier;

    @BeforeAll
    static void keys() throws Exception {
        rsa = new RSAKeyGenerator(2048).keyID("k1").generate();
        otherRsa = new RSAKeyGenerator(2048).keyID("k1").generate();
        ec = new ECKeyGenerator(Curve.P_256).keyID("e1").generate();
        String jwks = new JWKSet(List.of(rsa.toPublicJWK(), ec.toPublicJWK())).toString();
        verifier = new TokenVerifier(KeySetLoader.fromJwks(jwks), ISS, AUD, Duration.ofSeconds(30),
                Clock.fixed(NOW, ZoneOffset.UTC));
    }

    private static JWTClaimsSet.Builder claims() {
        return new JWTClaimsSet.Builder().subject("42").issuer(ISS).audience(AUD)
                .expirationTime(Date.from(NOW.plusSeconds(600))).issueTime(Date.from(NOW));
    }

    private static String rs256(RSAKey key, JWTClaimsSet claims) throws Exception {
        SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.RS256).keyID(key.getKeyID()).build(), claims);
        jwt.sign(new RSASSASigner(key));
        return jwt.serialize();
    }

    private static AuthRejection rejection(String token) {
        return assertInstanceOf(AuthResult.Rejected.class, verifier.verify(token)).reason();
    }

    @Test
    void acceptsAValidTokenAndTakesTheUserFromSub() throws Exception {
        var ok = assertInstanceOf(AuthResult.Authenticated.class, verifier.verify(rs256(rsa, claims().build())));
        assertEquals("42", ok.userId());
        assertEquals(NOW.plusSeconds(630), ok.expiresAt(), "expiry includes the skew");
    }

    @Test
    void theRoomsClaimIsReadAndAForgedOneFailsTheSignature() throws Exception {
        var none = assertInstanceOf(AuthResult.Authenticated.class, verifier.verify(rs256(rsa, claims().build())));
        assertNull(none.rooms(), "no claim: public rooms only");
        String token = rs256(rsa, claims().claim("rooms", List.of("chat-*", "org-7.*")).build());
        var ok = assertInstanceOf(AuthResult.Authenticated.class, verifier.verify(token));
        assertEquals(List.of("chat-*", "org-7.*"), ok.rooms().patterns());
        assertTrue(ok.rooms().matches("chat-1"));
        assertFalse(ok.rooms().matches("secret"));

        // the same token with its payload swapped for one that claims every room: the signature no longer holds
        String[] parts = token.split("\\.");
        String forgedPayload = com.nimbusds.jose.util.Base64URL.encode(claims().claim("rooms", List.of("*")).build().toString())
                .toString();
        assertEquals(AuthRejection.BAD_SIGNATURE, rejection(parts[0] + "." + forgedPayload + "." + parts[2]));
    }

    @Test
    void aMalformedRoomsClaimRefusesTheToken() throws Exception {
        for (Object bad : List.of("chat-*", List.of("chat-*", 7), List.of("a b"), List.of(""), List.of("x|y"),
                java.util.Collections.nCopies(65, "r"), java.util.Map.of("chat-*", true))) {
            assertEquals(AuthRejection.BAD_ROOMS_CLAIM, rejection(rs256(rsa, claims().claim("rooms", bad).build())), bad.toString());
        }
        var empty = assertInstanceOf(AuthResult.Authenticated.class,
                verifier.verify(rs256(rsa, claims().claim("rooms", List.of()).build())));
        assertTrue(empty.rooms().isEmpty(), "an empty claim allows no room beyond the public ones");
    }

    @Test
    void acceptsEs256WithItsPinnedKey() throws Exception {
        SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.ES256).keyID("e1").build(), claims().build());
        jwt.sign(new ECDSASigner(ec));
        assertInstanceOf(AuthResult.Authenticated.class, verifier.verify(jwt.serialize()));
    }

    @Test
    void refusesABadSignature() throws Exception {
        assertEquals(AuthRejection.BAD_SIGNATURE, rejection(rs256(otherRsa, claims().build())));
    }

    @Test
    void refusesAnExpiredTokenBeyondTheSkewOnly() throws Exception {
        assertEquals(AuthRejection.EXPIRED, rejection(rs256(rsa, claims().expirationTime(Date.from(NOW.minusSeconds(31))).build())));
        assertInstanceOf(AuthResult.Authenticated.class,
                verifier.verify(rs256(rsa, claims().expirationTime(Date.from(NOW.minusSeconds(20))).build())));
    }

    @Test
    void refusesATokenNotYetValid() throws Exception {
        assertEquals(AuthRejection.NOT_YET_VALID, rejection(rs256(rsa, claims().notBeforeTime(Date.from(NOW.plusSeconds(60))).build())));
        assertInstanceOf(AuthResult.Authenticated.class,
                verifier.verify(rs256(rsa, claims().notBeforeTime(Date.from(NOW.plusSeconds(10))).build())));
    }

    @Test
    void refusesATokenIssuedInTheFuture() throws Exception {
        assertEquals(AuthRejection.ISSUED_IN_FUTURE, rejection(rs256(rsa, claims().issueTime(Date.from(NOW.plusSeconds(60))).build())));
        assertInstanceOf(AuthResult.Authenticated.class,
                verifier.verify(rs256(rsa, claims().issueTime(Date.from(NOW.plusSeconds(10))).build())), "within the skew");
        assertInstanceOf(AuthResult.Authenticated.class,
                verifier.verify(rs256(rsa, claims().issueTime(Date.from(NOW.minusSeconds(3600))).build())));
    }

    @Test
    void refusesAlgNone() {
        String none = new PlainJWT(claims().build()).serialize();
        assertEquals(AuthRejection.ALG_NOT_ALLOWED, rejection(none));
    }

    @Test
    void refusesHsRsConfusion() throws Exception {
        // the classic attack: HS256 "signed" with the RSA public key's bytes, naming the RSA key's kid
        SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.HS256).keyID("k1").build(), claims().build());
        jwt.sign(new MACSigner(rsa.toPublicKey().getEncoded()));
        assertEquals(AuthRejection.ALG_NOT_ALLOWED, rejection(jwt.serialize()));
    }

    @Test
    void refusesWrongAudienceAndIssuer() throws Exception {
        assertEquals(AuthRejection.WRONG_AUDIENCE, rejection(rs256(rsa, claims().audience("other").build())));
        assertEquals(AuthRejection.WRONG_ISSUER, rejection(rs256(rsa, claims().issuer("https://evil.example").build())));
    }

    @Test
    void refusesMissingClaimsBadSubjectsUnknownKeysAndGarbage() throws Exception {
        assertEquals(AuthRejection.MISSING_CLAIM, rejection(rs256(rsa, claims().expirationTime(null).build())));
        assertEquals(AuthRejection.MISSING_CLAIM, rejection(rs256(rsa, claims().subject(null).build())));
        assertEquals(AuthRejection.BAD_SUBJECT, rejection(rs256(rsa, claims().subject("a|b").build())));
        RSAKey stranger = new RSAKeyGenerator(2048).keyID("k9").generate();
        assertEquals(AuthRejection.UNKNOWN_KEY, rejection(rs256(stranger, claims().build())));
        assertEquals(AuthRejection.MALFORMED, rejection("not.a.jwt"));
        assertEquals(AuthRejection.MISSING_TOKEN, rejection(null));
        assertEquals(AuthRejection.MALFORMED, rejection("x".repeat(TokenVerifier.MAX_TOKEN_CHARS + 1)));
    }

    @Test
    void refusesAKidThatNamesNoConfiguredKeyEvenWhenTheOnlyKeyHasNone() throws Exception {
        // issue 14, finding 8: a key without kid used to match a token of any kid
        RSAKey anonymous = new RSAKeyGenerator(2048).generate();
        TokenVerifier noKid = new TokenVerifier(KeySetLoader.fromJwks(new JWKSet(anonymous.toPublicJWK()).toString()), ISS, AUD,
                Duration.ZERO, Clock.fixed(NOW, ZoneOffset.UTC));
        SignedJWT named = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.RS256).keyID("retired-key").build(), claims().build());
        named.sign(new RSASSASigner(anonymous));
        assertEquals(AuthRejection.UNKNOWN_KEY,
                assertInstanceOf(AuthResult.Rejected.class, noKid.verify(named.serialize())).reason());
        SignedJWT unnamed = new SignedJWT(new JWSHeader(JWSAlgorithm.RS256), claims().build());
        unnamed.sign(new RSASSASigner(anonymous));
        assertInstanceOf(AuthResult.Authenticated.class, noKid.verify(unnamed.serialize()), "a token without kid may use any key");
    }

    @Test
    void hmacModeRefusesATokenNamingAKid() throws Exception {
        String secret = "0123456789abcdef0123456789abcdef";
        TokenVerifier hmac = new TokenVerifier(List.of(KeySetLoader.hmac(secret)), ISS, AUD, Duration.ZERO,
                Clock.fixed(NOW, ZoneOffset.UTC));
        SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.HS256).keyID("dev").build(), claims().build());
        jwt.sign(new MACSigner(secret));
        assertEquals(AuthRejection.UNKNOWN_KEY, assertInstanceOf(AuthResult.Rejected.class, hmac.verify(jwt.serialize())).reason());
    }

    @Test
    void refusesANumericSubject() throws Exception {
        // RFC 7519 4.1.2: sub is a string; nimbus turns a JSON number into its decimal string
        assertEquals(AuthRejection.BAD_SUBJECT, rejection(rs256(rsa, claims().claim("sub", 42).build())));
        assertEquals(AuthRejection.BAD_SUBJECT, rejection(rs256(rsa, claims().claim("sub", 42.5).build())));
        assertEquals(AuthRejection.BAD_SUBJECT, rejection(rs256(rsa, claims().claim("sub", true).build())));
    }

    @Test
    void hmacModeVerifiesOnlyHs256() throws Exception {
        String secret = "0123456789abcdef0123456789abcdef";
        TokenVerifier hmac = new TokenVerifier(List.of(KeySetLoader.hmac(secret)), ISS, AUD, Duration.ZERO,
                Clock.fixed(NOW, ZoneOffset.UTC));
        SignedJWT jwt = new SignedJWT(new JWSHeader(JWSAlgorithm.HS256), claims().build());
        jwt.sign(new MACSigner(secret));
        assertInstanceOf(AuthResult.Authenticated.class, hmac.verify(jwt.serialize()));
        SignedJWT rs = new SignedJWT(new JWSHeader(JWSAlgorithm.RS256), claims().build()); // no kid: it reaches the HMAC key
        rs.sign(new RSASSASigner(rsa));
        assertEquals(AuthRejection.ALG_NOT_ALLOWED, assertInstanceOf(AuthResult.Rejected.class, hmac.verify(rs.serialize())).reason());
    }

    @Test
    void keyConfigurationFailsFastNamingTheKey() throws Exception {
        assertThrows(ConfigException.class, () -> new JwtSettings(null, null, null, ISS, AUD, Duration.ZERO));
        assertThrows(ConfigException.class, () -> new JwtSettings(java.nio.file.Path.of("x"), null, "0123456789abcdef0123456789abcdef",
                ISS, AUD, Duration.ZERO), "a JWKS file and an HMAC secret never mix");
        String oct = "{\"keys\":[{\"kty\":\"oct\",\"kid\":\"s\",\"k\":\"c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0\"}]}";
        assertThrows(ConfigException.class, () -> KeySetLoader.fromJwks(oct), "no HMAC keys in a JWKS file");
        String mismatched = "{\"keys\":[" + rsa.toPublicJWK().toJSONString().replace("\"kty\"", "\"alg\":\"ES256\",\"kty\"") + "]}";
        ConfigException e = assertThrows(ConfigException.class, () -> KeySetLoader.fromJwks(mismatched));
        org.junit.jupiter.api.Assertions.assertTrue(e.getMessage().contains("k1"), e.getMessage());
    }
}
