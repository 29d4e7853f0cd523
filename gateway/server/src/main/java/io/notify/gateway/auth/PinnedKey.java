package io.notify.gateway.auth;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSVerifier;

/**
 * One verification key and the single algorithm it may verify. Pinning the algorithm per key is
 * what defeats algorithm confusion: a token claiming HS256 is never checked against an RSA key,
 * whatever its header says.
 *
 * @param kid the JWK key id, or null when the key has none (then it only matches tokens without kid: a token naming a kid never reaches it)
 */
public record PinnedKey(String kid, JWSAlgorithm algorithm, JWSVerifier verifier) {

    public PinnedKey {
        if (algorithm == null || verifier == null) {
            throw new IllegalArgumentException("a pinned key needs an algorithm and a verifier");
        }
        if (!verifier.supportedJWSAlgorithms().contains(algorithm)) {
            throw new IllegalArgumentException("verifier cannot check " + algorithm);
        }
    }
}
