package io.notify.gateway.auth;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.crypto.ECDSAVerifier;
import com.nimbusds.jose.crypto.MACVerifier;
import com.nimbusds.jose.crypto.RSASSAVerifier;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.KeyUse;
import com.nimbusds.jose.jwk.RSAKey;
import io.notify.common.config.ConfigException;
import io.notify.gateway.config.GatewayConfig.JwtSettings;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.text.ParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Builds the pinned verification keys from configuration, failing fast with the offending key id.
 * JWKS keys are pinned to their {@code alg} member, or for keys without one to the single algorithm
 * their type implies (RSA: RS256; EC: ES256/ES384/ES512 by curve). Symmetric ({@code oct}) keys
 * are refused in a JWKS file: HMAC is only accepted through the explicit dev secret, so the two
 * modes never mix. A JWKS fetched from a URL ({@link #fromRemote}) follows the same rules, except
 * that a key it cannot pin is skipped rather than fatal (an identity provider may publish
 * encryption or other keys beside its signing keys).
 */
public final class KeySetLoader {

    private static final Set<JWSAlgorithm> RSA_ALGS = Set.of(JWSAlgorithm.RS256, JWSAlgorithm.RS384, JWSAlgorithm.RS512,
            JWSAlgorithm.PS256, JWSAlgorithm.PS384, JWSAlgorithm.PS512);
    private static final Set<JWSAlgorithm> EC_ALGS = Set.of(JWSAlgorithm.ES256, JWSAlgorithm.ES384, JWSAlgorithm.ES512);
    private static final String FILE = "notify.gateway.jwt.jwks-file";
    private static final String URL = "notify.gateway.jwt.jwks-url";

    /** The keys of a fetched JWKS that could be pinned, and why each other one was skipped. */
    public record Pinned(List<PinnedKey> keys, List<String> skipped) {
    }

    private KeySetLoader() {
    }

    public static List<PinnedKey> load(JwtSettings settings) {
        if (settings.hmacSecret() != null) {
            return List.of(hmac(settings.hmacSecret()));
        }
        String json;
        try {
            json = Files.readString(settings.jwksFile(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new ConfigException(FILE, "cannot read " + settings.jwksFile() + ": " + e.getMessage());
        }
        return fromJwks(json);
    }

    /** The dev mode: one HS256 key. */
    public static PinnedKey hmac(String secret) {
        try {
            return new PinnedKey(null, JWSAlgorithm.HS256, new MACVerifier(secret.getBytes(StandardCharsets.UTF_8)));
        } catch (JOSEException e) {
            throw new ConfigException("notify.gateway.jwt.hmac-secret", e.getMessage());
        }
    }

    public static List<PinnedKey> fromJwks(String json) {
        JWKSet set;
        try {
            set = JWKSet.parse(json);
        } catch (ParseException e) {
            throw new ConfigException(FILE, "not a JWK set: " + e.getMessage());
        }
        if (set.getKeys().isEmpty()) {
            throw new ConfigException(FILE, "holds no keys");
        }
        List<PinnedKey> keys = new ArrayList<>();
        for (JWK jwk : set.getKeys()) {
            keys.add(pin(jwk, FILE));
        }
        return List.copyOf(keys);
    }

    /** The keys of a JWKS fetched from {@code notify.gateway.jwt.jwks-url}; those that cannot be pinned are skipped. */
    public static Pinned fromRemote(JWKSet set) {
        List<PinnedKey> keys = new ArrayList<>();
        List<String> skipped = new ArrayList<>();
        for (JWK jwk : set.getKeys()) {
            try {
                keys.add(pin(jwk, URL));
            } catch (ConfigException e) {
                skipped.add(e.getMessage());
            }
        }
        return new Pinned(List.copyOf(keys), List.copyOf(skipped));
    }

    private static PinnedKey pin(JWK jwk, String setting) {
        String kid = jwk.getKeyID();
        String name = kid == null ? "(key without kid)" : "key '" + kid + "'";
        if (jwk.getKeyUse() != null && !KeyUse.SIGNATURE.equals(jwk.getKeyUse())) {
            throw new ConfigException(setting, name + " is not a signature key (use=" + jwk.getKeyUse() + ")");
        }
        try {
            if (jwk instanceof RSAKey rsa) {
                JWSAlgorithm alg = declared(jwk, JWSAlgorithm.RS256);
                require(RSA_ALGS.contains(alg), setting, name, alg);
                return new PinnedKey(kid, alg, new RSASSAVerifier(rsa.toPublicJWK()));
            }
            if (jwk instanceof ECKey ec) {
                JWSAlgorithm alg = declared(jwk, forCurve(ec.getCurve(), setting, name));
                require(EC_ALGS.contains(alg) && Curve.forJWSAlgorithm(alg).contains(ec.getCurve()), setting, name, alg);
                return new PinnedKey(kid, alg, new ECDSAVerifier(ec.toPublicJWK()));
            }
        } catch (JOSEException e) {
            throw new ConfigException(setting, name + ": " + e.getMessage());
        }
        throw new ConfigException(setting, name + " has key type " + jwk.getKeyType()
                + "; only RSA and EC keys are accepted (HMAC only through notify.gateway.jwt.hmac-secret)");
    }

    private static JWSAlgorithm declared(JWK jwk, JWSAlgorithm fallback) {
        return jwk.getAlgorithm() == null ? fallback : JWSAlgorithm.parse(jwk.getAlgorithm().getName());
    }

    private static JWSAlgorithm forCurve(Curve curve, String setting, String name) {
        if (Curve.P_256.equals(curve)) {
            return JWSAlgorithm.ES256;
        }
        if (Curve.P_384.equals(curve)) {
            return JWSAlgorithm.ES384;
        }
        if (Curve.P_521.equals(curve)) {
            return JWSAlgorithm.ES512;
        }
        throw new ConfigException(setting, name + " uses unsupported curve " + curve);
    }

    private static void require(boolean ok, String setting, String name, JWSAlgorithm alg) {
        if (!ok) {
            throw new ConfigException(setting, name + " cannot be pinned to alg " + alg);
        }
    }
}
