package io.notify.gateway.support;

import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSet;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;

/**
 * A JWKS endpoint the tests serve themselves on 127.0.0.1 (JDK {@code HttpServer}/{@code HttpsServer}):
 * it answers {@code GET /jwks.json} with the keys last given to {@link #serve}, or with an error
 * status after {@link #fail}, or not at all while {@link #hang} holds; it counts the requests. The
 * HTTPS variant presents a self-signed certificate for 127.0.0.1 made by the JDK's {@code keytool}
 * when the server starts; {@link #caFile} is that certificate as PEM, for
 * {@code notify.gateway.jwt.jwks-ca-file}.
 */
public final class JwksServer implements AutoCloseable {

    private static final String PASSWORD = "jwks-test";

    private final HttpServer server;
    private final ExecutorService handlers = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "jwks-test-server");
        t.setDaemon(true);
        return t;
    });
    private final AtomicInteger hits = new AtomicInteger();
    private final Path caFile;
    private volatile String body = "{\"keys\":[]}";
    private volatile int status = 200;
    private volatile CountDownLatch hang;

    private JwksServer(boolean https) {
        try {
            InetSocketAddress any = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
            if (https) {
                Path dir = Files.createTempDirectory("notify-jwks-tls");
                dir.toFile().deleteOnExit();
                KeyStore store = selfSigned(dir.resolve("server.p12"));
                HttpsServer tls = HttpsServer.create(any, 0);
                tls.setHttpsConfigurator(new HttpsConfigurator(serverContext(store)));
                server = tls;
                caFile = dir.resolve("ca.pem");
                Files.writeString(caFile, "-----BEGIN CERTIFICATE-----\n"
                        + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(store.getCertificate("jwks").getEncoded())
                        + "\n-----END CERTIFICATE-----\n");
                caFile.toFile().deleteOnExit();
            } else {
                server = HttpServer.create(any, 0);
                caFile = null;
            }
        } catch (Exception e) {
            throw new IllegalStateException("cannot start the JWKS test server", e);
        }
        server.createContext("/jwks.json", this::handle);
        server.setExecutor(handlers);
        server.start();
    }

    public static JwksServer http() {
        return new JwksServer(false);
    }

    /** HTTPS with a certificate no JVM trusts by default: only {@link #caFile} makes it trusted. */
    public static JwksServer https() {
        return new JwksServer(true);
    }

    /** From now on the endpoint serves exactly these keys, as given (pass public halves). */
    public JwksServer serve(List<? extends JWK> keys) {
        body = new JWKSet(List.copyOf(keys)).toString(false);
        status = 200;
        return this;
    }

    public JwksServer serve(JWK... keys) {
        return serve(List.of(keys));
    }

    /** From now on the endpoint answers {@code httpStatus} with no key set. */
    public JwksServer fail(int httpStatus) {
        status = httpStatus;
        return this;
    }

    /** Requests wait, unanswered, until {@link #release}. */
    public JwksServer hang() {
        hang = new CountDownLatch(1);
        return this;
    }

    public void release() {
        CountDownLatch h = hang;
        hang = null;
        if (h != null) {
            h.countDown();
        }
    }

    /** Requests received so far (answered or not). */
    public int hits() {
        return hits.get();
    }

    public URI url() {
        String scheme = server instanceof HttpsServer ? "https" : "http";
        return URI.create(scheme + "://127.0.0.1:" + server.getAddress().getPort() + "/jwks.json");
    }

    /** The self-signed certificate as PEM (HTTPS only). */
    public Path caFile() {
        if (caFile == null) {
            throw new IllegalStateException("plain HTTP has no certificate");
        }
        return caFile;
    }

    private void handle(HttpExchange exchange) throws IOException {
        hits.incrementAndGet();
        try {
            CountDownLatch h = hang;
            if (h != null) {
                h.await(30, TimeUnit.SECONDS);
            }
            byte[] bytes = (status == 200 ? body : "{\"error\":\"test\"}").getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(status, bytes.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IOException e) {
            // the client gave up (its read timeout): nothing to answer
        } finally {
            exchange.close();
        }
    }

    private static KeyStore selfSigned(Path file) throws Exception {
        Path keytool = Path.of(System.getProperty("java.home"), "bin", "keytool");
        Process p = new ProcessBuilder(keytool.toString(), "-genkeypair", "-alias", "jwks", "-keyalg", "EC", "-groupname", "secp256r1",
                "-sigalg", "SHA256withECDSA", "-dname", "CN=127.0.0.1", "-ext", "SAN=ip:127.0.0.1,dns:localhost", "-validity", "2",
                "-keystore", file.toString(), "-storetype", "PKCS12", "-storepass", PASSWORD, "-keypass", PASSWORD)
                .redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IllegalStateException("keytool failed: " + output);
        }
        file.toFile().deleteOnExit();
        KeyStore store = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(file)) {
            store.load(in, PASSWORD.toCharArray());
        }
        return store;
    }

    private static SSLContext serverContext(KeyStore store) throws Exception {
        KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        keys.init(store, PASSWORD.toCharArray());
        SSLContext tls = SSLContext.getInstance("TLS");
        tls.init(keys.getKeyManagers(), null, null);
        return tls;
    }

    @Override
    public void close() {
        release();
        server.stop(0);
        handlers.shutdownNow();
    }
}
