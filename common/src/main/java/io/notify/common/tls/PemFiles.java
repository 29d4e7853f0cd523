package io.notify.common.tls;

import io.notify.common.config.ConfigException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * PEM files for TLS: a certificate chain, a PKCS#8 private key (checked to belong to the chain's
 * first certificate), and client contexts that trust the certificates of a CA file.
 */
public final class PemFiles {

    private static final Pattern BLOCK = Pattern.compile("-----BEGIN ([A-Z0-9 ]+)-----([A-Za-z0-9+/=\\s]+)-----END \\1-----");

    /** A certificate chain (leaf first) and its private key. */
    public record KeyPair(X509Certificate[] chain, PrivateKey key) {
    }

    private PemFiles() {
    }

    /**
     * Reads and checks a pair: the chain of {@code certFile} and the key of {@code keyFile}, which
     * must sign what the leaf certificate's public key verifies.
     *
     * @throws IOException on a file that cannot be read or parsed, or a key that is not the certificate's
     */
    public static KeyPair read(Path certFile, Path keyFile) throws IOException {
        List<X509Certificate> chain = certificates(certFile);
        PrivateKey key = privateKey(keyFile);
        X509Certificate leaf = chain.get(0);
        try {
            String algorithm = switch (key.getAlgorithm()) {
                case "RSA" -> "SHA256withRSA";
                case "EC" -> "SHA256withECDSA";
                default -> key.getAlgorithm(); // Ed25519, Ed448, EdDSA
            };
            byte[] probe = "notify-tls-pair-check".getBytes(StandardCharsets.US_ASCII);
            Signature sign = Signature.getInstance(algorithm);
            sign.initSign(key);
            sign.update(probe);
            byte[] signature = sign.sign();
            Signature verify = Signature.getInstance(algorithm);
            verify.initVerify(leaf.getPublicKey());
            verify.update(probe);
            if (!verify.verify(signature)) {
                throw new IOException("the key in " + keyFile + " does not belong to the certificate in " + certFile);
            }
        } catch (GeneralSecurityException e) {
            throw new IOException("the key in " + keyFile + " does not belong to the certificate in " + certFile + ": " + e.getMessage(), e);
        }
        return new KeyPair(chain.toArray(X509Certificate[]::new), key);
    }

    /** The certificates of a PEM file, in file order; at least one. */
    public static List<X509Certificate> certificates(Path file) throws IOException {
        try {
            List<X509Certificate> out = CertificateFactory.getInstance("X.509")
                    .generateCertificates(new ByteArrayInputStream(Files.readAllBytes(file))).stream()
                    .map(c -> (X509Certificate) c).toList();
            if (out.isEmpty()) {
                throw new IOException(file + " holds no PEM certificate");
            }
            return out;
        } catch (GeneralSecurityException e) {
            throw new IOException("cannot read certificates from " + file + ": " + e.getMessage(), e);
        }
    }

    /** The PKCS#8 key of a PEM file ({@code BEGIN PRIVATE KEY}, unencrypted): RSA, EC, Ed25519 or Ed448. */
    static PrivateKey privateKey(Path file) throws IOException {
        Matcher m = BLOCK.matcher(Files.readString(file, StandardCharsets.US_ASCII));
        while (m.find()) {
            String type = m.group(1);
            if (type.equals("PRIVATE KEY")) {
                PKCS8EncodedKeySpec spec = new PKCS8EncodedKeySpec(Base64.getMimeDecoder().decode(m.group(2)));
                for (String algorithm : List.of("RSA", "EC", "Ed25519", "Ed448")) {
                    try {
                        return KeyFactory.getInstance(algorithm).generatePrivate(spec);
                    } catch (GeneralSecurityException e) {
                        // the next algorithm
                    }
                }
                throw new IOException(file + " holds a PKCS#8 key of an algorithm other than RSA, EC, Ed25519, Ed448");
            }
            if (type.endsWith("PRIVATE KEY")) {
                throw new IOException(file + " holds a '" + type + "'; an unencrypted PKCS#8 'PRIVATE KEY' is expected"
                        + " (convert: openssl pkcs8 -topk8 -nocrypt -in " + file.getFileName() + " -out key.pkcs8.pem)");
            }
        }
        throw new IOException(file + " holds no PEM 'PRIVATE KEY'");
    }

    /**
     * A client context that trusts exactly the certificates of the PEM file {@code caFile}
     * (a CA, or a server's own certificate), hostnames verified as usual.
     *
     * @param key the setting that names the file (errors name it)
     */
    public static SSLContext trusting(Path caFile, String key) {
        try {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(null, null);
            int i = 0;
            for (Certificate cert : certificates(caFile)) {
                store.setCertificateEntry("ca-" + i++, cert);
            }
            TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            trust.init(store);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, trust.getTrustManagers(), null);
            return context;
        } catch (IOException | GeneralSecurityException e) {
            throw new ConfigException(key, "cannot trust " + caFile + ": " + e.getMessage());
        }
    }
}
