package io.notify.push.webpush;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.interfaces.ECPrivateKey;
import java.security.interfaces.ECPublicKey;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Arrays;
import java.util.Base64;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The application server's VAPID key pair (RFC 8292): a P-256 key that signs every push request's
 * JWT, and whose public half browsers take as {@code applicationServerKey} when they subscribe, so
 * a push service only takes requests signed by the key the subscription names. Built by
 * {@link #generate()}, {@link #fromPem} (an unencrypted PKCS#8 private key; the public key is
 * derived) or {@link #fromBase64Url} (the raw scalar and point most web-push tools print); the
 * public key is checked to belong to the private one. Immutable; {@link #toString()} never shows
 * the private key.
 */
public final class VapidKeys {

    private static final Pattern PKCS8 = Pattern.compile(
            "-----BEGIN PRIVATE KEY-----([A-Za-z0-9+/=\\s]+)-----END PRIVATE KEY-----");
    private static final Base64.Encoder BASE64URL = Base64.getUrlEncoder().withoutPadding();

    private final ECPrivateKey privateKey;
    private final ECPublicKey publicKey;
    private final byte[] publicKeyBytes;

    private VapidKeys(ECPrivateKey privateKey, ECPublicKey publicKey) {
        this.privateKey = privateKey;
        this.publicKey = publicKey;
        this.publicKeyBytes = P256.encode(publicKey);
    }

    /** A new random key pair (store {@link #toPkcs8Pem()} to keep it: subscriptions are bound to it). */
    public static VapidKeys generate() {
        KeyPair pair = P256.generate();
        return new VapidKeys((ECPrivateKey) pair.getPrivate(), (ECPublicKey) pair.getPublic());
    }

    /** The key in the PEM file {@code file} ({@code -----BEGIN PRIVATE KEY-----}, PKCS#8, unencrypted). */
    public static VapidKeys fromPem(Path file) throws IOException {
        try {
            return fromPem(Files.readString(file, StandardCharsets.US_ASCII));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(file + ": " + e.getMessage(), e);
        }
    }

    /** The key in PEM text ({@code -----BEGIN PRIVATE KEY-----}, PKCS#8, unencrypted, P-256). */
    public static VapidKeys fromPem(String pem) {
        if (pem == null) {
            throw new IllegalArgumentException("the VAPID private key PEM is required");
        }
        Matcher block = PKCS8.matcher(pem);
        if (!block.find()) {
            if (pem.contains("BEGIN EC PRIVATE KEY")) {
                throw new IllegalArgumentException("the VAPID key is SEC1 (BEGIN EC PRIVATE KEY); convert it to PKCS#8 with "
                        + "'openssl pkcs8 -topk8 -nocrypt -in key.pem -out vapid.pem'");
            }
            throw new IllegalArgumentException("no unencrypted PKCS#8 private key (-----BEGIN PRIVATE KEY-----) in the VAPID PEM");
        }
        byte[] der;
        try {
            der = Base64.getMimeDecoder().decode(block.group(1));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("the VAPID PEM is not valid base64");
        }
        ECPrivateKey key;
        try {
            key = (ECPrivateKey) KeyFactory.getInstance("EC").generatePrivate(new PKCS8EncodedKeySpec(der));
        } catch (GeneralSecurityException | ClassCastException e) {
            throw new IllegalArgumentException("the VAPID PEM is not a PKCS#8 EC private key: " + e.getMessage(), e);
        }
        if (!key.getParams().getCurve().equals(P256.parameters().getCurve())
                || !key.getParams().getOrder().equals(P256.parameters().getOrder())) {
            throw new IllegalArgumentException("the VAPID key must be on P-256 (prime256v1)");
        }
        // Re-create from the scalar so the key's parameters are the JDK's named P-256.
        ECPrivateKey normalized = P256.privateKey(P256.encode(key));
        return new VapidKeys(normalized, P256.publicKeyOf(normalized));
    }

    /**
     * The key from its base64url (padding tolerated) raw forms: {@code privateKey} the 32-byte scalar,
     * {@code publicKey} the 65-byte uncompressed point, which must be the private key's.
     */
    public static VapidKeys fromBase64Url(String privateKey, String publicKey) {
        ECPrivateKey priv = P256.privateKey(decode("VAPID private key", privateKey));
        byte[] point = decode("VAPID public key", publicKey);
        P256.publicKey(point);
        ECPublicKey derived = P256.publicKeyOf(priv);
        if (!Arrays.equals(P256.encode(derived), point)) {
            throw new IllegalArgumentException("the VAPID public key does not belong to the private key");
        }
        return new VapidKeys(priv, derived);
    }

    /** The public key base64url without padding (87 characters): the browser's {@code applicationServerKey}, the JWT's {@code k}. */
    public String publicKeyBase64Url() {
        return BASE64URL.encodeToString(publicKeyBytes);
    }

    /** The 65-byte uncompressed public point (a copy). */
    public byte[] publicKeyBytes() {
        return publicKeyBytes.clone();
    }

    /** The private scalar base64url without padding (43 characters), for {@link #fromBase64Url}. */
    public String privateKeyBase64Url() {
        return BASE64URL.encodeToString(P256.encode(privateKey));
    }

    /** The private key as an unencrypted PKCS#8 PEM, for {@link #fromPem}. */
    public String toPkcs8Pem() {
        String body = Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(privateKey.getEncoded());
        return "-----BEGIN PRIVATE KEY-----\n" + body + "\n-----END PRIVATE KEY-----\n";
    }

    public ECPublicKey publicKey() {
        return publicKey;
    }

    public ECPrivateKey privateKey() {
        return privateKey;
    }

    @Override
    public String toString() {
        return "VapidKeys[public=" + publicKeyBase64Url() + "]";
    }

    private static byte[] decode(String name, String value) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException("the " + name + " is required (base64url)");
        }
        try {
            return Base64.getUrlDecoder().decode(value.strip().replace("=", ""));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("the " + name + " must be base64url");
        }
    }
}
