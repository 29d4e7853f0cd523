package io.notify.push.fake;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.notify.push.webpush.P256;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.Signature;
import java.security.interfaces.ECPublicKey;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * What a push service checks of an RFC 8292 {@code Authorization: vapid t=<jwt>, k=<key>} header,
 * with JDK crypto and Jackson only (apart from the sender's nimbus signer): 401 when the header is
 * missing or malformed (scheme, {@code t}, {@code k}, a 65-byte P-256 {@code k}, three JWT parts,
 * JSON); 403 when the JWT is not ES256, its signature is not by {@code k}, {@code k} is not the
 * key the subscription was made with, {@code aud} is not this origin, {@code exp} is past or more
 * than 24 h ahead, or {@code sub} is missing. Test code.
 */
final class WebPushVapidCheck {

    /** Why a request was refused: the status and the body the fake answers. */
    record Rejection(int status, String reason) {
    }

    static final Duration MAX_EXPIRY = Duration.ofHours(24);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Base64.Decoder BASE64URL = Base64.getUrlDecoder();

    private WebPushVapidCheck() {
    }

    /** Null when {@code authorization} is acceptable for a push to {@code origin}, else why not. */
    static Rejection check(String authorization, String origin, String subscriptionKey, Instant now) {
        if (authorization == null || !authorization.toLowerCase(Locale.ROOT).startsWith("vapid ")) {
            return new Rejection(401, "missing vapid authorization");
        }
        Map<String, String> params = new HashMap<>();
        for (String part : authorization.substring("vapid ".length()).split(",")) {
            String[] nameValue = part.strip().split("=", 2);
            if (nameValue.length == 2) {
                params.put(nameValue[0].strip().toLowerCase(Locale.ROOT), nameValue[1].strip());
            }
        }
        String token = params.get("t");
        String key = params.get("k");
        if (token == null || key == null) {
            return new Rejection(401, "vapid authorization needs t= and k=");
        }
        ECPublicKey publicKey;
        String[] parts = token.split("\\.");
        JsonNode header;
        JsonNode claims;
        byte[] signature;
        try {
            publicKey = P256.publicKey(BASE64URL.decode(key));
            if (parts.length != 3) {
                return new Rejection(401, "t is not a JWS compact serialization");
            }
            header = JSON.readTree(BASE64URL.decode(parts[0]));
            claims = JSON.readTree(BASE64URL.decode(parts[1]));
            signature = BASE64URL.decode(parts[2]);
        } catch (Exception e) {
            return new Rejection(401, "malformed vapid authorization: " + e.getMessage());
        }
        if (subscriptionKey != null && !subscriptionKey.equals(key.replace("=", ""))) {
            return new Rejection(403, "k is not the applicationServerKey of this subscription");
        }
        if (!"ES256".equals(header.path("alg").asText())) {
            return new Rejection(403, "the JWT must be ES256, got " + header.path("alg").asText());
        }
        if (!verifies(publicKey, (parts[0] + "." + parts[1]).getBytes(StandardCharsets.US_ASCII), signature)) {
            return new Rejection(403, "the JWT signature is not by k");
        }
        if (!origin.equals(claims.path("aud").asText(null))) {
            return new Rejection(403, "aud must be " + origin + ", got " + claims.path("aud"));
        }
        JsonNode exp = claims.path("exp");
        if (!exp.canConvertToLong() || exp.asLong() <= now.getEpochSecond()
                || exp.asLong() > now.plus(MAX_EXPIRY).getEpochSecond()) {
            return new Rejection(403, "exp must be in the future and at most 24 h ahead, got " + exp);
        }
        if (claims.path("sub").asText("").isEmpty()) {
            return new Rejection(403, "sub is required");
        }
        return null;
    }

    private static boolean verifies(ECPublicKey key, byte[] signed, byte[] signature) {
        try {
            Signature verifier = Signature.getInstance("SHA256withECDSAinP1363Format");
            verifier.initVerify(key);
            verifier.update(signed);
            return signature.length == 64 && verifier.verify(signature);
        } catch (GeneralSecurityException e) {
            return false;
        }
    }
}
