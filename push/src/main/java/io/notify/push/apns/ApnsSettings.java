package io.notify.push.apns;

import io.notify.protocol.text.Clip;
import java.net.URI;
import java.time.Duration;
import java.util.regex.Pattern;
import javax.net.ssl.SSLContext;

/**
 * What the APNs sender needs, validated here so a bad value fails at startup with the setting's name.
 * Token-based authentication only (a {@code .p8} key signs the provider tokens; no certificates).
 *
 * @param teamId         the Apple developer team id: 10 characters of {@code [A-Z0-9]}
 * @param keyId          the id of the APNs auth key: 10 characters of {@code [A-Z0-9]}
 * @param signingKey     the {@code .p8} key (an unencrypted PKCS#8 PEM P-256 key): its text (containing
 *                       {@code -----BEGIN}) or the path of the file it is in; read by the provider
 * @param productionUrl  APNs for {@code production} registrations (default {@value #DEFAULT_PRODUCTION_URL})
 * @param sandboxUrl     APNs for {@code sandbox} registrations (default {@value #DEFAULT_SANDBOX_URL})
 * @param requestTimeout per push request, connect to response (default {@value #DEFAULT_TIMEOUT_SECONDS} s;
 *                       {@code (0, 5 min]}); past it the push is a {@code Retry}
 * @param sslContext     the TLS context of the HTTP/2 connections; null: the JDK's default (tests pass
 *                       one that trusts a local fake's certificate)
 */
public record ApnsSettings(String teamId, String keyId, String signingKey, URI productionUrl, URI sandboxUrl,
                           Duration requestTimeout, SSLContext sslContext) {

    public static final String DEFAULT_PRODUCTION_URL = "https://api.push.apple.com";
    public static final String DEFAULT_SANDBOX_URL = "https://api.sandbox.push.apple.com";
    public static final long DEFAULT_TIMEOUT_SECONDS = 10;
    public static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(DEFAULT_TIMEOUT_SECONDS);
    public static final Duration MAX_REQUEST_TIMEOUT = Duration.ofMinutes(5);

    private static final Pattern APPLE_ID = Pattern.compile("^[A-Z0-9]{10}$");

    public ApnsSettings {
        if (teamId == null || !APPLE_ID.matcher(teamId).matches()) {
            throw new IllegalArgumentException("apns.team-id must be 10 characters of [A-Z0-9], got '" + Clip.clip(teamId) + "'");
        }
        if (keyId == null || !APPLE_ID.matcher(keyId).matches()) {
            throw new IllegalArgumentException("apns.key-id must be 10 characters of [A-Z0-9], got '" + Clip.clip(keyId) + "'");
        }
        if (signingKey == null || signingKey.isBlank()) {
            throw new IllegalArgumentException("apns.signing-key (the .p8 key, or its path) is required");
        }
        productionUrl = checked("apns.production-url", productionUrl == null ? URI.create(DEFAULT_PRODUCTION_URL) : productionUrl);
        sandboxUrl = checked("apns.sandbox-url", sandboxUrl == null ? URI.create(DEFAULT_SANDBOX_URL) : sandboxUrl);
        if (requestTimeout == null) {
            requestTimeout = DEFAULT_REQUEST_TIMEOUT;
        }
        if (requestTimeout.isNegative() || requestTimeout.isZero() || requestTimeout.compareTo(MAX_REQUEST_TIMEOUT) > 0) {
            throw new IllegalArgumentException("apns.request-timeout must be > 0 and <= " + MAX_REQUEST_TIMEOUT + ", got " + requestTimeout);
        }
    }

    /** Settings for Apple's servers with the default timeout and TLS context. */
    public ApnsSettings(String teamId, String keyId, String signingKey) {
        this(teamId, keyId, signingKey, null, null, null, null);
    }

    private static URI checked(String key, URI url) {
        if (!url.isAbsolute() || !"https".equals(url.getScheme()) || url.getHost() == null
                || !(url.getRawPath() == null || url.getRawPath().isEmpty() || url.getRawPath().equals("/"))) {
            // APNs is HTTP/2 over TLS only
            throw new IllegalArgumentException(key + " must be an absolute https URL without a path, got '" + url + "'");
        }
        return url;
    }

    /** The base URL of {@code environment} ({@code production} or {@code sandbox}), without a trailing slash. */
    String base(String environment) {
        String s = ("production".equals(environment) ? productionUrl : sandboxUrl).toString();
        return s.endsWith("/") ? s.substring(0, s.length() - 1) : s;
    }

    @Override
    public String toString() {
        // the PEM form is the private key
        return "ApnsSettings[teamId=" + teamId + ", keyId=" + keyId + ", signingKey="
                + (signingKey.contains("-----BEGIN") ? "<pem>" : signingKey) + ", productionUrl=" + productionUrl
                + ", sandboxUrl=" + sandboxUrl + ", requestTimeout=" + requestTimeout + "]";
    }
}
