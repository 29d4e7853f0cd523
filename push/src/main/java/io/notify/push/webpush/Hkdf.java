package io.notify.push.webpush;

import java.security.GeneralSecurityException;
import java.util.Arrays;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * HKDF with HMAC-SHA-256 (RFC 5869) for at most one output block (32 bytes): all RFC 8291 needs
 * (IKM 32, CEK 16, nonce 12 bytes), so the expand step is the single {@code T(1)}.
 */
final class Hkdf {

    private static final int HASH_BYTES = 32;

    private Hkdf() {
    }

    /** The first {@code length} (1..32) bytes of HKDF-Expand(HKDF-Extract(salt, ikm), info). */
    static byte[] derive(byte[] salt, byte[] ikm, byte[] info, int length) {
        if (length < 1 || length > HASH_BYTES) {
            throw new IllegalArgumentException("one HKDF block gives 1..32 bytes, asked " + length);
        }
        byte[] prk = hmac(salt, ikm);
        byte[] block = hmac(prk, concat(info, new byte[] {1}));
        return Arrays.copyOf(block, length);
    }

    private static byte[] hmac(byte[] key, byte[] data) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return mac.doFinal(data);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
        }
    }

    static byte[] concat(byte[]... parts) {
        int length = 0;
        for (byte[] part : parts) {
            length += part.length;
        }
        byte[] out = new byte[length];
        int at = 0;
        for (byte[] part : parts) {
            System.arraycopy(part, 0, out, at, part.length);
            at += part.length;
        }
        return out;
    }
}
