package io.notify.common.tls;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.notify.common.config.ConfigException;
import io.undertow.Undertow;
import io.undertow.server.HttpHandler;
import java.io.IOException;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedKeyManager;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A service's server-side TLS: one {@link SSLContext} for its listeners, whose certificate and key
 * come from PEM files ({@link TlsSettings}) and are reloaded when the files change.
 *
 * <p>Why a key manager of our own: Undertow takes an {@code SSLContext} when the listener is built
 * and has no way to swap it on a running listener. The context's only key manager here delegates
 * each handshake to the current pair's key manager, a volatile field; a reload replaces that
 * field, so new handshakes present the new certificate and open connections keep theirs. The
 * previous pair's key manager is kept one more generation, for a handshake that chose its alias
 * just before a swap.
 *
 * <p>Every {@code reload-interval} the files' modification times and sizes are compared with the
 * pair in use; on a change both are read and checked (the key must belong to the certificate). A
 * pair that fails — half written, mismatched mid-rotation, unparsable — is refused with a logged
 * error and the old pair kept; it is tried again when either file changes again. Meters:
 * {@code notify.tls.reloads{result=ok|failed}} and {@code notify.tls.certificate.expiry} (the
 * presented leaf's notAfter, seconds since the epoch).
 */
public final class ServerTls implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ServerTls.class);

    /** One loaded pair: its key manager, its alias there, its leaf certificate. */
    private record Generation(X509ExtendedKeyManager keys, String alias, X509Certificate leaf) {
    }

    private final TlsSettings settings;
    private final SSLContext context;
    private final ScheduledExecutorService checker;
    private final Counter reloaded;
    private final Counter failed;
    private volatile Generation current;
    private volatile Generation previous;
    private String lastTried;
    private int generations;

    private ServerTls(TlsSettings settings, MeterRegistry meters) {
        this.settings = settings;
        String stamp = stamp();
        try {
            this.current = load();
        } catch (IOException | GeneralSecurityException e) {
            throw new ConfigException(settings.certKey(), "cannot use the TLS certificate and key: " + e.getMessage());
        }
        this.lastTried = stamp;
        try {
            this.context = SSLContext.getInstance("TLS");
            context.init(new KeyManager[]{new Delegating()}, null, null);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("no TLS in this JVM", e);
        }
        this.reloaded = Counter.builder("notify.tls.reloads").tag("result", "ok")
                .description("TLS certificate and key pairs loaded after a change of their files").register(meters);
        this.failed = Counter.builder("notify.tls.reloads").tag("result", "failed")
                .description("Changed TLS certificate and key files refused (the previous pair stays in use)").register(meters);
        Gauge.builder("notify.tls.certificate.expiry", this, t -> t.current.leaf().getNotAfter().getTime() / 1000.0)
                .baseUnit("seconds").description("When the presented TLS certificate expires (seconds since the epoch)")
                .register(meters);
        this.checker = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "tls-reload");
            t.setDaemon(true);
            return t;
        });
        long ms = settings.reloadInterval().toMillis();
        checker.scheduleWithFixedDelay(this::check, ms, ms, TimeUnit.MILLISECONDS);
    }

    /** The service's TLS when {@code settings} has a pair (read now: a bad pair is a ConfigException), else null. */
    public static ServerTls startOrNull(java.util.Optional<TlsSettings> settings, MeterRegistry meters) {
        return settings.map(s -> new ServerTls(s, meters)).orElse(null);
    }

    /**
     * Adds a listener to {@code builder}: HTTPS with {@code tls}'s context, or plain HTTP when {@code tls}
     * is null; {@code handler} null means the builder's root handler.
     */
    public static Undertow.Builder addListener(Undertow.Builder builder, ServerTls tls, int port, String host, HttpHandler handler) {
        if (tls == null) {
            return handler == null ? builder.addHttpListener(port, host) : builder.addHttpListener(port, host, handler);
        }
        return handler == null ? builder.addHttpsListener(port, host, tls.context)
                : builder.addHttpsListener(port, host, tls.context, handler);
    }

    /** The URL scheme of a listener with {@code tls} (null: none). */
    public static String scheme(ServerTls tls) {
        return tls == null ? "http" : "https";
    }

    public SSLContext context() {
        return context;
    }

    /**
     * A client context trusting the certificates of this service's certificate file as read at start
     * (the leaf and its intermediates): for calls between instances that share a CA or a certificate.
     */
    public SSLContext peerTrust() {
        return PemFiles.trusting(settings.certFile(), settings.certKey());
    }

    /** The leaf certificate new handshakes present. */
    public X509Certificate certificate() {
        return current.leaf();
    }

    /** One check of the files (the timer's job; tests may call it). */
    public synchronized void check() {
        String stamp = stamp();
        if (stamp.equals(lastTried)) {
            return;
        }
        lastTried = stamp;
        try {
            Generation next = load();
            previous = current;
            current = next;
            reloaded.increment();
            LOG.info("TLS: loaded a new certificate from {} ({}, valid until {})", settings.certFile(),
                    next.leaf().getSubjectX500Principal().getName(), next.leaf().getNotAfter().toInstant());
        } catch (IOException | GeneralSecurityException | RuntimeException e) {
            failed.increment();
            LOG.error("TLS: the changed files {} and {} are refused, the previous certificate stays in use: {}",
                    settings.certFile(), settings.keyFile(), e.getMessage());
        }
    }

    private String stamp() {
        return stamp(settings.certFile()) + "|" + stamp(settings.keyFile());
    }

    private static String stamp(Path file) {
        try {
            return Files.getLastModifiedTime(file) + ":" + Files.size(file); // the full precision the file system keeps
        } catch (IOException e) {
            return "missing";
        }
    }

    private synchronized Generation load() throws IOException, GeneralSecurityException {
        PemFiles.KeyPair pair = PemFiles.read(settings.certFile(), settings.keyFile());
        String alias = "notify-" + ++generations;
        KeyStore store = KeyStore.getInstance("PKCS12");
        store.load(null, null);
        char[] password = new char[0];
        store.setKeyEntry(alias, pair.key(), password, pair.chain());
        KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(store, password);
        for (KeyManager km : kmf.getKeyManagers()) {
            if (km instanceof X509ExtendedKeyManager x) {
                return new Generation(x, alias, pair.chain()[0]);
            }
        }
        throw new GeneralSecurityException("the JVM's key manager factory makes no X509ExtendedKeyManager");
    }

    @Override
    public void close() {
        checker.shutdownNow();
    }

    /** The context's key manager: each call goes to the current pair's (a chosen alias may be the previous pair's). */
    private final class Delegating extends X509ExtendedKeyManager {

        private X509ExtendedKeyManager owner(String alias) {
            Generation c = current;
            Generation p = previous;
            return p != null && !names(alias, c) && names(alias, p) ? p.keys() : c.keys();
        }

        /** SunX509 hands out the entry's alias, PKIX {@code <n>.<alias>}. */
        private static boolean names(String alias, Generation g) {
            return alias.equals(g.alias()) || alias.endsWith("." + g.alias());
        }

        @Override
        public String chooseEngineServerAlias(String keyType, Principal[] issuers, SSLEngine engine) {
            return current.keys().chooseEngineServerAlias(keyType, issuers, engine);
        }

        @Override
        public String chooseServerAlias(String keyType, Principal[] issuers, Socket socket) {
            return current.keys().chooseServerAlias(keyType, issuers, socket);
        }

        @Override
        public String[] getServerAliases(String keyType, Principal[] issuers) {
            return current.keys().getServerAliases(keyType, issuers);
        }

        @Override
        public X509Certificate[] getCertificateChain(String alias) {
            return alias == null ? null : owner(alias).getCertificateChain(alias);
        }

        @Override
        public PrivateKey getPrivateKey(String alias) {
            return alias == null ? null : owner(alias).getPrivateKey(alias);
        }

        @Override
        public String[] getClientAliases(String keyType, Principal[] issuers) {
            return null; // a server's context: never a client
        }

        @Override
        public String chooseClientAlias(String[] keyType, Principal[] issuers, Socket socket) {
            return null;
        }

        @Override
        public String chooseEngineClientAlias(String[] keyType, Principal[] issuers, SSLEngine engine) {
            return null;
        }
    }
}
