package io.notify.client.internal;

import java.net.URI;
import java.util.Locale;

/**
 * A gateway's two endpoints derived from its base URL: {@code http(s)://host:port[/base]} or
 * {@code ws(s)://...}; a trailing {@code /v1/ws} or {@code /v1/sse} is accepted and ignored.
 */
public record Endpoints(URI base, URI webSocket, URI sse) {

    public static final String WS_PATH = "/v1/ws";
    public static final String SSE_PATH = "/v1/sse";

    public static Endpoints of(URI url) {
        String scheme = url.getScheme() == null ? "" : url.getScheme().toLowerCase(Locale.ROOT);
        boolean secure = switch (scheme) {
            case "http", "ws" -> false;
            case "https", "wss" -> true;
            default -> throw new IllegalArgumentException("gateway URL must be http, https, ws or wss, got '" + url + "'");
        };
        if (url.getRawAuthority() == null || url.getRawQuery() != null || url.getRawFragment() != null) {
            throw new IllegalArgumentException("gateway URL must be scheme://host[:port][/path] without query, got '" + url + "'");
        }
        String path = url.getRawPath() == null ? "" : url.getRawPath();
        while (path.endsWith("/")) {
            path = path.substring(0, path.length() - 1);
        }
        if (path.endsWith(WS_PATH)) {
            path = path.substring(0, path.length() - WS_PATH.length());
        } else if (path.endsWith(SSE_PATH)) {
            path = path.substring(0, path.length() - SSE_PATH.length());
        }
        String authority = url.getRawAuthority();
        return new Endpoints(URI.create((secure ? "https://" : "http://") + authority + path),
                URI.create((secure ? "wss://" : "ws://") + authority + path + WS_PATH),
                URI.create((secure ? "https://" : "http://") + authority + path + SSE_PATH));
    }
}
