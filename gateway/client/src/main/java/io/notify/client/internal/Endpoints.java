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

    /**
     * The SSE URL with the rooms to subscribe at connect (docs/protocol.md §8): {@code ?rooms=a,b}
     * and {@code &broadcast=true} for {@code b:all}; the plain {@link #sse()} without any.
     */
    public URI sse(java.util.List<io.notify.schemas.stream.StreamId> streams) {
        StringBuilder names = new StringBuilder();
        boolean broadcast = false;
        for (io.notify.schemas.stream.StreamId s : streams) {
            if (s.isBroadcast()) {
                broadcast = true;
            } else if (s.isRoom()) {
                names.append(names.length() == 0 ? "" : ",").append(s.room()); // room names need no escaping: [A-Za-z0-9._:-]
            }
        }
        if (names.length() == 0 && !broadcast) {
            return sse;
        }
        String query = (names.length() > 0 ? "rooms=" + names : "") + (broadcast ? (names.length() > 0 ? "&" : "") + "broadcast=true" : "");
        return URI.create(sse + "?" + query);
    }
}
