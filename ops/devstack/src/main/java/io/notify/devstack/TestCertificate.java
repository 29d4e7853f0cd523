package io.notify.devstack;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.util.Base64;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * A self-signed certificate for 127.0.0.1 and localhost and its private key as PEM files ({@code cert.pem},
 * {@code key.pem}, PKCS#8), made with the JDK's {@code keytool} (present wherever the build runs, unlike
 * openssl), for servers a test starts with TLS; {@link #trustingContext} is a client's side.
 *
 * @param certificate the PEM certificate file
 * @param privateKey  the PEM PKCS#8 private key file
 * @param x509        the certificate itself (to compare with what a server presents)
 */
public record TestCertificate(Path certificate, Path privateKey, X509Certificate x509) {

    private static final char[] PASSWORD = "changeit".toCharArray();

    /** A new key pair and certificate ({@code CN=localhost}), written to {@code dir}/cert.pem and {@code dir}/key.pem. */
    public static TestCertificate selfSigned(Path dir) throws IOException, GeneralSecurityException, InterruptedException {
        return selfSigned(dir, "localhost");
    }

    /** As {@link #selfSigned(Path)}, with common name {@code cn} (two certificates of a test tell apart by it). */
    public static TestCertificate selfSigned(Path dir, String cn) throws IOException, GeneralSecurityException, InterruptedException {
        Files.createDirectories(dir);
        Path store = dir.resolve("server.p12");
        Files.deleteIfExists(store);
        Process keytool = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
                "-genkeypair", "-alias", "server", "-keyalg", "RSA", "-keysize", "2048", "-validity", "2",
                "-dname", "CN=" + cn, "-ext", "SAN=ip:127.0.0.1,dns:localhost",
                "-keystore", store.toString(), "-storetype", "PKCS12",
                "-storepass", new String(PASSWORD), "-keypass", new String(PASSWORD))
                .redirectErrorStream(true).start();
        String output = new String(keytool.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!keytool.waitFor(60, TimeUnit.SECONDS) || keytool.exitValue() != 0) {
            throw new IOException("keytool failed: " + output);
        }
        KeyStore ks = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(store)) {
            ks.load(in, PASSWORD);
        }
        Path cert = dir.resolve("cert.pem");
        Path key = dir.resolve("key.pem");
        X509Certificate x509 = (X509Certificate) ks.getCertificate("server");
        Files.writeString(cert, pem("CERTIFICATE", x509.getEncoded()));
        Files.writeString(key, pem("PRIVATE KEY", ks.getKey("server", PASSWORD).getEncoded())); // PKCS#8
        return new TestCertificate(cert, key, x509);
    }

    /** Copies this certificate and key over {@code certificate} and {@code privateKey} (a rotation), key first. */
    public void installAt(Path certificateFile, Path privateKeyFile) throws IOException {
        Files.copy(privateKey, privateKeyFile, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        Files.copy(certificate, certificateFile, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }

    /** A server TLS context presenting this certificate (a local HTTPS or HTTP/2 fake of a remote service). */
    public SSLContext serverContext() {
        try (InputStream in = Files.newInputStream(certificate.resolveSibling("server.p12"))) {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(in, PASSWORD);
            javax.net.ssl.KeyManagerFactory kmf = javax.net.ssl.KeyManagerFactory.getInstance(
                    javax.net.ssl.KeyManagerFactory.getDefaultAlgorithm());
            kmf.init(store, PASSWORD);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(kmf.getKeyManagers(), null, null);
            return context;
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalStateException("cannot build a server TLS context from " + certificate, e);
        }
    }

    /** A client TLS context that trusts this certificate (and nothing else). */
    public SSLContext trustingContext() {
        try {
            KeyStore trust = KeyStore.getInstance("PKCS12");
            trust.load(null, null);
            trust.setCertificateEntry("server", x509);
            TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(trust);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, tmf.getTrustManagers(), null);
            return context;
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalStateException("cannot build a TLS context trusting " + certificate, e);
        }
    }

    /**
     * The certificate a TLS server at {@code host:port} presents in a new handshake (any certificate
     * is accepted here: this only looks at it).
     */
    public static X509Certificate presented(String host, int port) {
        javax.net.ssl.X509TrustManager lookOnly = new javax.net.ssl.X509TrustManager() {
            @Override
            public void checkClientTrusted(X509Certificate[] chain, String authType) {
            }

            @Override
            public void checkServerTrusted(X509Certificate[] chain, String authType) {
            }

            @Override
            public X509Certificate[] getAcceptedIssuers() {
                return new X509Certificate[0];
            }
        };
        try {
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, new javax.net.ssl.TrustManager[]{lookOnly}, null);
            try (javax.net.ssl.SSLSocket socket = (javax.net.ssl.SSLSocket) context.getSocketFactory().createSocket(host, port)) {
                socket.setSoTimeout(10_000);
                socket.startHandshake();
                return (X509Certificate) socket.getSession().getPeerCertificates()[0];
            }
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalStateException("no TLS handshake with " + host + ":" + port + ": " + e, e);
        }
    }

    private static String pem(String type, byte[] der) {
        return "-----BEGIN " + type + "-----\n" + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der)
                + "\n-----END " + type + "-----\n";
    }
}
