package io.notify.push.webpush;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.AlgorithmParameters;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.Signature;
import java.security.interfaces.ECPrivateKey;
import java.security.interfaces.ECPublicKey;
import java.security.spec.ECFieldFp;
import java.security.spec.ECGenParameterSpec;
import java.security.spec.ECParameterSpec;
import java.security.spec.ECPoint;
import java.security.spec.ECPrivateKeySpec;
import java.security.spec.ECPublicKeySpec;
import java.util.Arrays;
import javax.crypto.KeyAgreement;

/**
 * The NIST P-256 (secp256r1) curve as Web Push writes its keys: a public key is the 65-byte
 * uncompressed point {@code 0x04 || X || Y} (RFC 8291 {@code p256dh}, RFC 8292 {@code k}), a
 * private key the 32-byte big-endian scalar. Converts both ways between those bytes and the JDK's
 * {@link ECPublicKey} / {@link ECPrivateKey}; a public point is checked to lie on the curve, so a
 * malformed subscription key fails here with a clear message instead of deep inside ECDH.
 * JDK providers only; stateless and thread-safe.
 */
public final class P256 {

    /** Length of an uncompressed point. */
    public static final int PUBLIC_KEY_BYTES = 65;
    /** Length of a private scalar. */
    public static final int PRIVATE_KEY_BYTES = 32;

    private static final int COORDINATE_BYTES = 32;
    private static final ECParameterSpec SPEC = spec();
    private static final BigInteger P = ((ECFieldFp) SPEC.getCurve().getField()).getP();
    private static final BigInteger A = SPEC.getCurve().getA();
    private static final BigInteger B = SPEC.getCurve().getB();

    private P256() {
    }

    /** The curve's parameters, as the JDK names them. */
    public static ECParameterSpec parameters() {
        return SPEC;
    }

    /** A fresh key pair from the JDK's default secure random. */
    public static KeyPair generate() {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
            generator.initialize(new ECGenParameterSpec("secp256r1"));
            return generator.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("P-256 is part of every JDK", e);
        }
    }

    /** {@code 0x04 || X || Y} of {@code key}. */
    public static byte[] encode(ECPublicKey key) {
        byte[] out = new byte[PUBLIC_KEY_BYTES];
        out[0] = 4;
        writeUnsigned(key.getW().getAffineX(), out, 1);
        writeUnsigned(key.getW().getAffineY(), out, 1 + COORDINATE_BYTES);
        return out;
    }

    /** The 32-byte scalar of {@code key}. */
    public static byte[] encode(ECPrivateKey key) {
        byte[] out = new byte[PRIVATE_KEY_BYTES];
        writeUnsigned(key.getS(), out, 0);
        return out;
    }

    /** The public key of an uncompressed point; throws IllegalArgumentException unless it is one on P-256. */
    public static ECPublicKey publicKey(byte[] point) {
        if (point == null || point.length != PUBLIC_KEY_BYTES || point[0] != 4) {
            throw new IllegalArgumentException("a P-256 public key is 65 bytes starting with 0x04 (uncompressed), got "
                    + (point == null ? "null" : point.length + " bytes"));
        }
        BigInteger x = new BigInteger(1, Arrays.copyOfRange(point, 1, 1 + COORDINATE_BYTES));
        BigInteger y = new BigInteger(1, Arrays.copyOfRange(point, 1 + COORDINATE_BYTES, PUBLIC_KEY_BYTES));
        if (!onCurve(x, y)) {
            throw new IllegalArgumentException("the public key is not a point on P-256");
        }
        return publicKey(x, y);
    }

    /** The private key of a 32-byte scalar; throws IllegalArgumentException unless 0 < scalar < n. */
    public static ECPrivateKey privateKey(byte[] scalar) {
        if (scalar == null || scalar.length != PRIVATE_KEY_BYTES) {
            throw new IllegalArgumentException("a P-256 private key is a 32-byte scalar, got "
                    + (scalar == null ? "null" : scalar.length + " bytes"));
        }
        BigInteger s = new BigInteger(1, scalar);
        if (s.signum() == 0 || s.compareTo(SPEC.getOrder()) >= 0) {
            throw new IllegalArgumentException("the private key is not a P-256 scalar (0 < s < n)");
        }
        try {
            return (ECPrivateKey) KeyFactory.getInstance("EC").generatePrivate(new ECPrivateKeySpec(s, SPEC));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("P-256 is part of every JDK", e);
        }
    }

    /**
     * The public key of {@code privateKey}, derived with JDK primitives only: ECDH with the generator
     * gives X of s·G, the curve equation gives Y up to its sign, and a signature picks the sign.
     */
    public static ECPublicKey publicKeyOf(ECPrivateKey privateKey) {
        try {
            KeyAgreement agreement = KeyAgreement.getInstance("ECDH");
            agreement.init(privateKey);
            agreement.doPhase(publicKey(SPEC.getGenerator().getAffineX(), SPEC.getGenerator().getAffineY()), true);
            BigInteger x = new BigInteger(1, agreement.generateSecret());
            BigInteger ySquared = x.pow(3).add(A.multiply(x)).add(B).mod(P);
            // P ≡ 3 (mod 4), so a square root is ySquared^((P + 1) / 4).
            BigInteger y = ySquared.modPow(P.add(BigInteger.ONE).shiftRight(2), P);
            byte[] probe = "p256-public-key-derivation".getBytes(StandardCharsets.US_ASCII);
            Signature signer = Signature.getInstance("SHA256withECDSA");
            signer.initSign(privateKey);
            signer.update(probe);
            byte[] signature = signer.sign();
            for (BigInteger candidate : new BigInteger[] {y, P.subtract(y)}) {
                ECPublicKey key = publicKey(x, candidate);
                Signature verifier = Signature.getInstance("SHA256withECDSA");
                verifier.initVerify(key);
                verifier.update(probe);
                if (verifier.verify(signature)) {
                    return key;
                }
            }
            throw new IllegalArgumentException("no P-256 public key matches the private key");
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException("cannot derive the public key: " + e.getMessage(), e);
        }
    }

    private static ECPublicKey publicKey(BigInteger x, BigInteger y) {
        try {
            return (ECPublicKey) KeyFactory.getInstance("EC").generatePublic(new ECPublicKeySpec(new ECPoint(x, y), SPEC));
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException("not a P-256 public key: " + e.getMessage(), e);
        }
    }

    private static boolean onCurve(BigInteger x, BigInteger y) {
        if (x.compareTo(P) >= 0 || y.compareTo(P) >= 0) {
            return false;
        }
        BigInteger left = y.multiply(y).mod(P);
        BigInteger right = x.pow(3).add(A.multiply(x)).add(B).mod(P);
        return left.equals(right);
    }

    private static void writeUnsigned(BigInteger value, byte[] out, int offset) {
        byte[] bytes = value.toByteArray();
        int start = bytes.length > COORDINATE_BYTES ? bytes.length - COORDINATE_BYTES : 0;
        int length = bytes.length - start;
        System.arraycopy(bytes, start, out, offset + COORDINATE_BYTES - length, length);
    }

    private static ECParameterSpec spec() {
        try {
            AlgorithmParameters parameters = AlgorithmParameters.getInstance("EC");
            parameters.init(new ECGenParameterSpec("secp256r1"));
            return parameters.getParameterSpec(ECParameterSpec.class);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("P-256 is part of every JDK", e);
        }
    }
}
