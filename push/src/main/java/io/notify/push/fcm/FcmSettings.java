package io.notify.push.fcm;

import java.net.URI;
import java.time.Duration;

/**
 * What the FCM sender needs, validated here so a bad value fails at startup with the setting's name.
 *
 * @param serviceAccount the Firebase project's service account key: its JSON text (starting with
 *                       <code>{</code>) or the path of the file it is in; read by {@link ServiceAccount#load}
 * @param baseUrl        the FCM HTTP v1 API (default {@value #DEFAULT_BASE_URL}; a local fake in tests),
 *                       an absolute {@code http(s)} URL without path
 * @param requestTimeout per request (the OAuth token request and each send), connect to response
 *                       (default {@value #DEFAULT_TIMEOUT_SECONDS} s; {@code (0, 5 min]}); past it the
 *                       push is a {@code Retry}
 */
public record FcmSettings(String serviceAccount, URI baseUrl, Duration requestTimeout) {

    public static final String DEFAULT_BASE_URL = "https://fcm.googleapis.com";
    public static final long DEFAULT_TIMEOUT_SECONDS = 10;
    public static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(DEFAULT_TIMEOUT_SECONDS);
    public static final Duration MAX_REQUEST_TIMEOUT = Duration.ofMinutes(5);

    public FcmSettings {
        if (serviceAccount == null || serviceAccount.isBlank()) {
            throw new IllegalArgumentException("fcm.service-account (the service account JSON, or its path) is required");
        }
        if (baseUrl == null) {
            baseUrl = URI.create(DEFAULT_BASE_URL);
        }
        if (!baseUrl.isAbsolute() || baseUrl.getHost() == null
                || !(baseUrl.getScheme().equals("https") || baseUrl.getScheme().equals("http"))
                || !(baseUrl.getRawPath() == null || baseUrl.getRawPath().isEmpty() || baseUrl.getRawPath().equals("/"))) {
            throw new IllegalArgumentException("fcm.base-url must be an absolute http(s) URL without a path, got '" + baseUrl + "'");
        }
        if (requestTimeout == null) {
            requestTimeout = DEFAULT_REQUEST_TIMEOUT;
        }
        if (requestTimeout.isNegative() || requestTimeout.isZero() || requestTimeout.compareTo(MAX_REQUEST_TIMEOUT) > 0) {
            throw new IllegalArgumentException("fcm.request-timeout must be > 0 and <= " + MAX_REQUEST_TIMEOUT + ", got " + requestTimeout);
        }
    }

    /** Settings for the real FCM with the default timeout. */
    public FcmSettings(String serviceAccount) {
        this(serviceAccount, null, null);
    }

    /** {@link #baseUrl} without a trailing slash, to append API paths to. */
    String base() {
        String s = baseUrl.toString();
        return s.endsWith("/") ? s.substring(0, s.length() - 1) : s;
    }

    @Override
    public String toString() {
        // the JSON form holds a private key
        return "FcmSettings[serviceAccount=" + (serviceAccount.strip().startsWith("{") ? "<json>" : serviceAccount)
                + ", baseUrl=" + baseUrl + ", requestTimeout=" + requestTimeout + "]";
    }
}
