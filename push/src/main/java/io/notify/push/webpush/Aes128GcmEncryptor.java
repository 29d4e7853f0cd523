package io.notify.push.webpush;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.SecureRandom;
import java.security.interfaces.ECPrivateKey;
import java.security.interfaces.ECPublicKey;
import java.util.Objects;
import java.util.function.Supplier;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.bouncycastle.asn1.x9.X9ECParameters;
import org.bouncycastle.crypto.AsymmetricCipherKeyPair;
import org.bouncycastle.crypto.agreement.ECDHBasicAgreement;
import org.bouncycastle.crypto.ec.CustomNamedCurves;
import org.bouncycastle.crypto.generators.ECKeyPairGenerator;
import org.bouncycastle.crypto.params.ECDomainParameters;
import org.bouncycastle.crypto.params.ECKeyGenerationParameters;
import org.bouncycastle.crypto.params.ECPrivateKeyParameters;
import org.bouncycastle.crypto.params.ECPublicKeyParameters;
import org.bouncycastle.math.ec.ECPoint;
import org.bouncycastle.util.BigIntegers;

/**
 * Web Push message encryption (RFC 8291 on RFC 8188 {@code aes128gcm}): the body a push service
 * carries to one subscription. Each message gets a fresh ephemeral P-256 key pair and a fresh
 * 16-byte salt, and is one record: {@code salt(16) || rs(4) = 4096 || idlen(1) = 65 ||
 * as_public(65) || AES-128-GCM(plaintext || 0x02)}, no padding. A plaintext is at most
 * {@link #MAX_PLAINTEXT} bytes, so the whole body fits the 4,096 bytes every push service must take.
 * The P-256 key pair and ECDH are BouncyCastle's lightweight API on its custom secp256r1 curve (a
 * key pair and an agreement take ~270 µs on the 2-core bench box against ~1,450 µs with the JDK 17
 * provider: the sender's largest cost per push, docs/BENCHMARKS.md); HKDF and AES-GCM are the JDK's.
 * Thread-safe.
 */
public final class Aes128GcmEncryptor {

    /** The record size written in the header, and the body size every push service takes. */
    public static final int RECORD_SIZE = 4096;
    /** salt, rs, idlen, keyid. */
    public static final int HEADER_BYTES = 16 + 4 + 1 + P256.PUBLIC_KEY_BYTES;
    /** The largest plaintext whose body is at most {@link #RECORD_SIZE} bytes (RFC 8291 §4: 3,993). */
    public static final int MAX_PLAINTEXT = RECORD_SIZE - HEADER_BYTES - 16 - 1;

    private static final int SALT_BYTES = 16;
    private static final int AUTH_SECRET_BYTES = 16;
    private static final byte LAST_RECORD_DELIMITER = 2;
    private static final byte[] KEY_INFO = info("WebPush: info");
    private static final byte[] CEK_INFO = info("Content-Encoding: aes128gcm");
    private static final byte[] NONCE_INFO = info("Content-Encoding: nonce");

    private static final X9ECParameters CURVE = CustomNamedCurves.getByName("secp256r1");
    private static final ECDomainParameters DOMAIN = new ECDomainParameters(CURVE.getCurve(), CURVE.getG(), CURVE.getN(), CURVE.getH());

    private final Supplier<AsymmetricCipherKeyPair> ephemeralKeys;
    private final Supplier<byte[]> salts;

    /** An encryptor with fresh keys and salts from the JDK's secure random. */
    public Aes128GcmEncryptor() {
        SecureRandom random = new SecureRandom();
        this.ephemeralKeys = () -> {
            ECKeyPairGenerator generator = new ECKeyPairGenerator();
            generator.init(new ECKeyGenerationParameters(DOMAIN, random));
            return generator.generateKeyPair();
        };
        this.salts = randomSalts(random);
    }

    /** For tests: the ephemeral application-server key pairs (JDK keys) and salts it uses, in order. */
    Aes128GcmEncryptor(Supplier<KeyPair> ephemeralKeys, Supplier<byte[]> salts) {
        Objects.requireNonNull(ephemeralKeys, "ephemeralKeys");
        this.ephemeralKeys = () -> {
            KeyPair k = ephemeralKeys.get();
            return new AsymmetricCipherKeyPair(new ECPublicKeyParameters(point(P256.encode((ECPublicKey) k.getPublic())), DOMAIN),
                    new ECPrivateKeyParameters(((ECPrivateKey) k.getPrivate()).getS(), DOMAIN));
        };
        this.salts = Objects.requireNonNull(salts, "salts");
    }

    /** The point of a 65-byte uncompressed public key; IllegalArgumentException unless it is one on P-256. */
    private static ECPoint point(byte[] uncompressed) {
        if (uncompressed == null || uncompressed.length != P256.PUBLIC_KEY_BYTES || uncompressed[0] != 4) {
            throw new IllegalArgumentException("a P-256 public key is 65 bytes starting with 0x04 (uncompressed), got "
                    + (uncompressed == null ? "none" : uncompressed.length + " bytes"));
        }
        try {
            ECPoint p = CURVE.getCurve().decodePoint(uncompressed); // checks the point is on the curve
            if (p.isInfinity() || !p.isValid()) {
                throw new IllegalArgumentException("the public key is not a point on P-256");
            }
            return p;
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("the public key is not a point on P-256");
        }
    }

    /**
     * The encrypted body of {@code plaintext} for the subscription whose keys are {@code uaPublic}
     * (65-byte uncompressed point, {@code keys.p256dh}) and {@code authSecret} (16 bytes,
     * {@code keys.auth}). Throws IllegalArgumentException for a malformed key or a plaintext over
     * {@link #MAX_PLAINTEXT} bytes.
     */
    public byte[] encrypt(byte[] plaintext, byte[] uaPublic, byte[] authSecret) {
        Objects.requireNonNull(plaintext, "plaintext");
        if (plaintext.length > MAX_PLAINTEXT) {
            throw new IllegalArgumentException("a Web Push plaintext is at most " + MAX_PLAINTEXT + " bytes, got " + plaintext.length);
        }
        if (authSecret == null || authSecret.length != AUTH_SECRET_BYTES) {
            throw new IllegalArgumentException("the auth secret is 16 bytes");
        }
        ECPublicKeyParameters uaKey = new ECPublicKeyParameters(point(uaPublic), DOMAIN);
        AsymmetricCipherKeyPair ephemeral = ephemeralKeys.get();
        byte[] asPublic = ((ECPublicKeyParameters) ephemeral.getPublic()).getQ().getEncoded(false);
        byte[] salt = salts.get();
        if (salt.length != SALT_BYTES) {
            throw new IllegalStateException("a salt is 16 bytes, got " + salt.length);
        }
        try {
            ECDHBasicAgreement agreement = new ECDHBasicAgreement();
            agreement.init(ephemeral.getPrivate());
            byte[] ecdhSecret = BigIntegers.asUnsignedByteArray(32, agreement.calculateAgreement(uaKey)); // x, as the JDK's ECDH gives it
            // RFC 8291 §3.3/3.4: the auth secret keys the first HKDF, the salt the second.
            byte[] ikm = Hkdf.derive(authSecret, ecdhSecret, Hkdf.concat(KEY_INFO, uaPublic, asPublic), 32);
            byte[] cek = Hkdf.derive(salt, ikm, CEK_INFO, 16);
            byte[] nonce = Hkdf.derive(salt, ikm, NONCE_INFO, 12);
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(cek, "AES"), new GCMParameterSpec(128, nonce));
            byte[] record = cipher.doFinal(Hkdf.concat(plaintext, new byte[] {LAST_RECORD_DELIMITER}));
            return ByteBuffer.allocate(HEADER_BYTES + record.length)
                    .put(salt)
                    .putInt(RECORD_SIZE)
                    .put((byte) asPublic.length)
                    .put(asPublic)
                    .put(record)
                    .array();
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException("cannot encrypt for this subscription: " + e.getMessage(), e);
        }
    }

    private static Supplier<byte[]> randomSalts(SecureRandom random) {
        return () -> {
            byte[] salt = new byte[SALT_BYTES];
            random.nextBytes(salt);
            return salt;
        };
    }

    private static byte[] info(String label) {
        byte[] text = label.getBytes(StandardCharsets.US_ASCII);
        return Hkdf.concat(text, new byte[] {0});
    }
}
