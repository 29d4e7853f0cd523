package io.notify.gateway.config;

import io.notify.common.config.ConfigException;
import io.notify.common.config.Settings;
import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;

/**
 * A JWKS fetched from {@code url} (docs/gateway.md, "Keys from a JWKS URL"): fetched at start,
 * then every {@code refreshInterval}; the keys stay in force until {@code cacheTtl} after the last
 * successful fetch (then tokens are refused until one succeeds); a token naming an unknown
 * {@code kid} triggers a refetch at most once per {@code refetchMinInterval}, which is also the
 * retry delay after a failed fetch. {@code fetchTimeout} bounds the connect and the read of one
 * fetch. Every error names its key ({@code notify.gateway.jwt.jwks-*}).
 *
 * @param url    https; plain http only for a loopback host (tests, dev)
 * @param caFile PEM certificates trusted for {@code url} instead of the JVM's trust store, or null
 */
public record RemoteJwks(URI url, Path caFile, Duration refreshInterval, Duration cacheTtl, Duration refetchMinInterval,
                         Duration fetchTimeout) {

    public RemoteJwks {
        String scheme = url.getScheme() == null ? "" : url.getScheme().toLowerCase(Locale.ROOT);
        if (url.getHost() == null || !(scheme.equals("https") || scheme.equals("http"))) {
            throw new ConfigException("notify.gateway.jwt.jwks-url", "'" + url + "' is not an https URL");
        }
        if (url.getUserInfo() != null) {
            throw new ConfigException("notify.gateway.jwt.jwks-url", "must not carry credentials");
        }
        if (scheme.equals("http") && !isLoopback(url.getHost())) {
            throw new ConfigException("notify.gateway.jwt.jwks-url",
                    "must be https; plain http only for a loopback host (localhost, 127.0.0.0/8, [::1])");
        }
        if (caFile != null && !scheme.equals("https")) {
            throw new ConfigException("notify.gateway.jwt.jwks-ca-file", "only applies to an https notify.gateway.jwt.jwks-url");
        }
        if (cacheTtl.compareTo(refreshInterval) <= 0) {
            throw new ConfigException("notify.gateway.jwt.jwks-cache-ttl",
                    "must be longer than notify.gateway.jwt.jwks-refresh-interval");
        }
    }

    /** The {@code notify.gateway.jwt.jwks-*} settings; null when no {@code jwks-url} is set. */
    static RemoteJwks load(Settings s) {
        String raw = s.raw("notify.gateway.jwt.jwks-url");
        if (raw == null) {
            return null;
        }
        URI url;
        try {
            url = new URI(raw);
        } catch (URISyntaxException e) {
            throw new ConfigException("notify.gateway.jwt.jwks-url", "'" + raw + "' is not a URL: " + e.getMessage());
        }
        String caFile = s.raw("notify.gateway.jwt.jwks-ca-file");
        return new RemoteJwks(url,
                caFile == null ? null : Path.of(caFile),
                s.duration("notify.gateway.jwt.jwks-refresh-interval", Duration.ofMinutes(5), Duration.ofSeconds(1), Duration.ofHours(24)),
                s.duration("notify.gateway.jwt.jwks-cache-ttl", Duration.ofHours(1), Duration.ofSeconds(2), Duration.ofDays(7)),
                s.duration("notify.gateway.jwt.jwks-refetch-min-interval", Duration.ofSeconds(30), Duration.ofMillis(100), Duration.ofHours(1)),
                s.duration("notify.gateway.jwt.jwks-fetch-timeout", Duration.ofSeconds(5), Duration.ofMillis(100), Duration.ofMinutes(1)));
    }

    /** A literal loopback address or {@code localhost}; never a DNS lookup. */
    static boolean isLoopback(String host) {
        if (host.equalsIgnoreCase("localhost")) {
            return true;
        }
        boolean literal = host.startsWith("[") || host.matches("[0-9.]+");
        try {
            return literal && InetAddress.getByName(host).isLoopbackAddress();
        } catch (UnknownHostException e) {
            return false;
        }
    }
}
