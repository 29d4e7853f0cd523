package io.notify.gateway.auth;

import com.nimbusds.jose.KeySourceException;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.source.JWKSetCacheRefreshEvaluator;
import com.nimbusds.jose.jwk.source.JWKSetSource;
import com.nimbusds.jose.jwk.source.JWKSourceBuilder;
import com.nimbusds.jose.jwk.source.URLBasedJWKSetSource;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jose.util.DefaultResourceRetriever;
import io.notify.common.config.ConfigException;
import io.notify.gateway.config.RemoteJwks;
import io.notify.gateway.metrics.GatewayMetrics;
import java.io.IOException;
import java.io.InputStream;
import java.net.MalformedURLException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocketFactory;
import javax.net.ssl.TrustManagerFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The keys of a JWKS served at {@code notify.gateway.jwt.jwks-url} (docs/gateway.md, "Keys from a
 * JWKS URL"). Every fetch runs on one background thread ({@code gateway-jwks}); a handshake only
 * reads the immutable key list of the last successful fetch, so no I/O thread ever waits for the
 * network:
 * <ul>
 * <li>{@link #start} fetches once and waits for it at most {@code 2 × fetch-timeout + 1 s}; a node
 *     whose JWKS cannot be fetched still starts, and answers handshakes {@code keys_unavailable}
 *     (503) until a retry succeeds;</li>
 * <li>after a successful fetch the next one is due {@code refresh-interval} later, after a failed one
 *     {@code refetch-min-interval} later; a failure keeps the keys in force;</li>
 * <li>keys not confirmed by a successful fetch for {@code cache-ttl} are dropped (the identity
 *     provider may have withdrawn them meanwhile);</li>
 * <li>a token naming a {@code kid} no key has asks for one refetch; at most one such refetch starts
 *     per {@code refetch-min-interval}, however many tokens ask (the rest are counted in
 *     {@code jwks_refetches_limited_total}). The token that asked is refused all the same: its client
 *     reconnects and finds the new key.</li>
 * </ul>
 * Rotation therefore needs no coordination: while the endpoint serves the old and the new key both
 * verify; once it stops serving the old one, the next fetch drops it.
 *
 * <p>From nimbus-jose-jwt this uses {@link URLBasedJWKSetSource} over a {@link DefaultResourceRetriever}
 * (connect and read timeouts, a 50 KiB size limit, its own trust store) to fetch and parse the set.
 * Its caching sources are not used: {@code CachingJWKSetSource} and
 * {@code RefreshAheadCachingJWKSetSource} load on the caller's thread when the cache is empty, expired
 * or misses a kid (an I/O thread would wait up to the refresh timeout), and a failed scheduled refresh
 * is not rescheduled; {@code RateLimitedJWKSetSource} admits two fetches per interval and throttles
 * scheduled refreshes with the same budget. The volatile list and the one-slot limiter here are
 * what the handshake path can afford.
 */
public final class RemoteKeySet implements KeyRing {

    private static final Logger LOG = LoggerFactory.getLogger(RemoteKeySet.class);

    private final JWKSetSource<SecurityContext> source;
    private final String url;
    private final RemoteJwks settings;
    private final GatewayMetrics metrics;
    private final LongSupplier nanoTime;
    private final long refetchMinNanos;
    private final AtomicLong lastRefetch;
    private final ScheduledThreadPoolExecutor fetcher;
    private volatile List<PinnedKey> keys = List.of();
    // touched on the fetcher thread only
    private ScheduledFuture<?> nextFetch;
    private ScheduledFuture<?> expiry;

    private RemoteKeySet(JWKSetSource<SecurityContext> source, RemoteJwks settings, GatewayMetrics metrics, LongSupplier nanoTime) {
        this.source = source;
        this.url = settings.url().toString();
        this.settings = settings;
        this.metrics = metrics;
        this.nanoTime = nanoTime;
        this.refetchMinNanos = settings.refetchMinInterval().toNanos();
        this.lastRefetch = new AtomicLong(nanoTime.getAsLong() - refetchMinNanos);
        this.fetcher = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "gateway-jwks");
            t.setDaemon(true);
            return t;
        });
        fetcher.setRemoveOnCancelPolicy(true);
        metrics.gauge("notify.gateway.jwks.keys", "Verification keys in force from the JWKS URL (0: every token is refused)",
                () -> keys.size());
    }

    /** The key set of {@code settings.url()}, fetched with nimbus' URL source; nothing is fetched before {@link #start}. */
    public static RemoteKeySet create(RemoteJwks settings, GatewayMetrics metrics) {
        return create(settings, metrics, System::nanoTime);
    }

    /** As {@link #create(RemoteJwks, GatewayMetrics)}, the refetch rate limit timed by {@code nanoTime} (tests). */
    static RemoteKeySet create(RemoteJwks settings, GatewayMetrics metrics, LongSupplier nanoTime) {
        int timeoutMs = (int) settings.fetchTimeout().toMillis();
        SSLSocketFactory tls = settings.caFile() == null ? null : trusting(settings.caFile());
        DefaultResourceRetriever retriever = new DefaultResourceRetriever(timeoutMs, timeoutMs,
                JWKSourceBuilder.DEFAULT_HTTP_SIZE_LIMIT, true, tls);
        try {
            return new RemoteKeySet(new URLBasedJWKSetSource<>(settings.url().toURL(), retriever), settings, metrics, nanoTime);
        } catch (MalformedURLException | IllegalArgumentException e) {
            throw new ConfigException("notify.gateway.jwt.jwks-url", "'" + settings.url() + "' is not a URL: " + e.getMessage());
        }
    }

    /** A socket factory that trusts exactly the certificates of a PEM file. */
    static SSLSocketFactory trusting(Path caFile) {
        try (InputStream in = Files.newInputStream(caFile)) {
            Collection<? extends Certificate> certs = CertificateFactory.getInstance("X.509").generateCertificates(in);
            if (certs.isEmpty()) {
                throw new ConfigException("notify.gateway.jwt.jwks-ca-file", caFile + " holds no certificate");
            }
            KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
            store.load(null, null);
            int i = 0;
            for (Certificate cert : certs) {
                store.setCertificateEntry("ca-" + i++, cert);
            }
            TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            trust.init(store);
            SSLContext tls = SSLContext.getInstance("TLS");
            tls.init(null, trust.getTrustManagers(), null);
            return tls.getSocketFactory();
        } catch (IOException | GeneralSecurityException e) {
            throw new ConfigException("notify.gateway.jwt.jwks-ca-file", "cannot read certificates from " + caFile + ": " + e.getMessage());
        }
    }

    @Override
    public List<PinnedKey> keys() {
        return keys;
    }

    /** On an I/O thread: at most one refetch per refetch-min-interval starts, on the fetcher thread. */
    @Override
    public void unknownKid(String kid) {
        long now = nanoTime.getAsLong();
        long last = lastRefetch.get();
        if (now - last < refetchMinNanos || !lastRefetch.compareAndSet(last, now)) {
            metrics.jwksRefetchLimited();
            return;
        }
        try {
            fetcher.execute(() -> fetch("unknown_kid"));
        } catch (RejectedExecutionException e) {
            // closed: the node is stopping
        }
    }

    /** Fetches the first keys; returns when they are in force, or after a bounded wait (they arrive later). */
    @Override
    public void start() {
        Future<?> first = fetcher.submit(() -> fetch("startup"));
        Duration wait = settings.fetchTimeout().multipliedBy(2).plusSeconds(1);
        try {
            first.get(wait.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            LOG.warn("JWKS {} not fetched within {} ms; starting without keys (handshakes refused: keys_unavailable)",
                    url, wait.toMillis());
        } catch (ExecutionException e) {
            throw new IllegalStateException(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Returns once every fetch requested so far has run (tests). */
    void awaitFetches() throws InterruptedException, ExecutionException {
        fetcher.submit(() -> { }).get();
    }

    private void fetch(String trigger) {
        KeySetLoader.Pinned pinned;
        try {
            JWKSet set = source.getJWKSet(JWKSetCacheRefreshEvaluator.forceRefresh(), System.currentTimeMillis(), null);
            pinned = KeySetLoader.fromRemote(set);
            for (String skipped : pinned.skipped()) {
                LOG.warn("JWKS {}: key skipped: {}", url, skipped);
            }
            if (pinned.keys().isEmpty()) {
                throw new KeySourceException("no usable signature key in the set");
            }
        } catch (KeySourceException | RuntimeException e) {
            metrics.jwksFetchFailed(trigger);
            LOG.warn("JWKS fetch from {} ({}) failed: {}; {} key(s) stay in force, next try in {} ms", url, trigger,
                    e.getMessage(), keys.size(), settings.refetchMinInterval().toMillis());
            scheduleFetch(settings.refetchMinInterval());
            return;
        }
        List<PinnedKey> before = keys;
        keys = pinned.keys();
        metrics.jwksRefreshed(trigger);
        if (!kids(before).equals(kids(pinned.keys()))) {
            LOG.info("JWKS {} ({}): keys in force {}", url, trigger, kids(pinned.keys()));
        }
        scheduleFetch(settings.refreshInterval());
        if (expiry != null) {
            expiry.cancel(false);
        }
        expiry = fetcher.schedule(this::expire, settings.cacheTtl().toMillis(), TimeUnit.MILLISECONDS);
    }

    private void scheduleFetch(Duration delay) {
        if (nextFetch != null) {
            nextFetch.cancel(false);
        }
        nextFetch = fetcher.schedule(() -> fetch("scheduled"), delay.toMillis(), TimeUnit.MILLISECONDS);
    }

    private void expire() {
        LOG.error("JWKS {}: no successful fetch for {} ms (jwks-cache-ttl); its keys are dropped, handshakes refused "
                + "(keys_unavailable) until a fetch succeeds", url, settings.cacheTtl().toMillis());
        keys = List.of();
        metrics.jwksExpired();
    }

    private static List<String> kids(List<PinnedKey> keys) {
        return keys.stream().map(k -> k.kid() == null ? "(no kid)" : k.kid()).toList();
    }

    @Override
    public void close() {
        fetcher.shutdownNow();
        try {
            fetcher.awaitTermination(2, TimeUnit.SECONDS);
            source.close();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IOException e) {
            LOG.debug("closing the JWKS source", e);
        }
    }
}
