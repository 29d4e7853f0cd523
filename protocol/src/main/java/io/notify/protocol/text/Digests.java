package io.notify.protocol.text;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;

/** Short stable names made from text: its SHA-256 in base64url, cut to the length a name allows. */
public final class Digests {

    /** The length of a whole SHA-256 in unpadded base64url. */
    public static final int SHA256_BASE64URL_LENGTH = 43;

    private Digests() {
    }

    /** The first {@code length} (1..43) characters of base64url(SHA-256(UTF-8 of {@code text})), unpadded. */
    public static String sha256Base64Url(String text, int length) {
        if (length < 1 || length > SHA256_BASE64URL_LENGTH) {
            throw new IllegalArgumentException("length must be 1.." + SHA256_BASE64URL_LENGTH + ", got " + length);
        }
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
            return Base64.getUrlEncoder().withoutPadding().encodeToString(hash).substring(0, length);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }
}
