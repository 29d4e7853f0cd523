package io.notify.push.fake;

import io.notify.push.webpush.P256;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.interfaces.ECPrivateKey;
import java.util.Arrays;
import javax.crypto.Cipher;
import javax.crypto.KeyAgreement;
import javax.crypto.Mac;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * A browser's side of RFC 8291: decrypts an {@code aes128gcm} Web Push body with the subscription's
 * private key and auth secret, as a user agent would, written apart from the sender's encryptor so
 * the two check each other. Single record only (every Web Push message is one); trailing padding
 * after the {@code 0x02} delimiter is accepted. Throws {@link GeneralSecurityException} with the reason
 * on any malformed or forged body. Test code.
 */
public final class WebPushDecryptor {

    private WebPushDecryptor() {
    }

    /** The plaintext of {@code body}, sent to the subscription ({@code uaPrivate}, {@code uaPublic}, {@code authSecret}). */
    public static byte[] decrypt(byte[] body, ECPrivateKey uaPrivate, byte[] uaPublic, byte[] authSecret)
            throws GeneralSecurityException {
        if (body.length < 21) {
            throw new GeneralSecurityException("body shorter than the aes128gcm header");
        }
        ByteBuffer in = ByteBuffer.wrap(body);
        byte[] salt = new byte[16];
        in.get(salt);
        long rs = Integer.toUnsignedLong(in.getInt());
        int idlen = in.get() & 0xff;
        if (idlen != 65 || in.remaining() < idlen) {
            throw new GeneralSecurityException("keyid must be the 65-byte application server key, idlen " + idlen);
        }
        byte[] asPublic = new byte[idlen];
        in.get(asPublic);
        byte[] record = new byte[in.remaining()];
        in.get(record);
        if (rs < 18 || record.length > rs || record.length < 17) {
            throw new GeneralSecurityException("one record of 17.." + rs + " bytes expected, got " + record.length);
        }
        KeyAgreement agreement = KeyAgreement.getInstance("ECDH");
        agreement.init(uaPrivate);
        try {
            agreement.doPhase(P256.publicKey(asPublic), true);
        } catch (IllegalArgumentException e) {
            throw new GeneralSecurityException("keyid is not a P-256 point");
        }
        byte[] ecdh = agreement.generateSecret();
        byte[] keyInfo = concat(ascii("WebPush: info\0"), uaPublic, asPublic);
        byte[] ikm = hkdf(authSecret, ecdh, keyInfo, 32);
        byte[] cek = hkdf(salt, ikm, ascii("Content-Encoding: aes128gcm\0"), 16);
        byte[] nonce = hkdf(salt, ikm, ascii("Content-Encoding: nonce\0"), 12);
        Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
        cipher.init(Cipher.DECRYPT_MODE, new SecretKeySpec(cek, "AES"), new GCMParameterSpec(128, nonce));
        byte[] padded = cipher.doFinal(record);
        int end = padded.length - 1;
        while (end >= 0 && padded[end] == 0) {
            end--;
        }
        if (end < 0 || padded[end] != 2) {
            throw new GeneralSecurityException("the record does not end with the last-record delimiter 0x02");
        }
        return Arrays.copyOf(padded, end);
    }

    private static byte[] hkdf(byte[] salt, byte[] ikm, byte[] info, int length) throws GeneralSecurityException {
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(salt, "HmacSHA256"));
        byte[] prk = mac.doFinal(ikm);
        mac.init(new SecretKeySpec(prk, "HmacSHA256"));
        mac.update(info);
        mac.update((byte) 1);
        return Arrays.copyOf(mac.doFinal(), length);
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    private static byte[] concat(byte[]... parts) {
        ByteBuffer out = ByteBuffer.allocate(Arrays.stream(parts).mapToInt(p -> p.length).sum());
        for (byte[] part : parts) {
            out.put(part);
        }
        return out.array();
    }
}
