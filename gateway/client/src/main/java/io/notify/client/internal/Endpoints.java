package io.notify.client.internal;

import io.notify.protocol.stream.StreamId;
import java.net.URI;
import java.util.List;
import java.util.Locale;

/**
 * A gateway's endpoints derived from its base URL: {@code http(s)://host:port[/base]} or
 * {@code ws(s)://...}; a trailing {@code /v1/ws} or {@code /v1/sse} is accepted and ignored. The
 * WebSocket and SSE URLs carry the device id ({@code ?device=}, docs/protocol.md §1) when the client
 * has one; the inbox, push and preferences APIs ({@code /v1/inbox...}, {@code /v1/push...},
 * {@code /v1/preferences}) are on the same host, over http(s).
 */
public record Endpoints(URI base, URI webSocket, URI sse) {

    public static final String WS_PATH = "/v1/ws";
    public static final String SSE_PATH = "/v1/sse";
    public static final String INBOX_PATH = "/v1/inbox";
    public static final String PUSH_PATH = "/v1/push";
    public static final String PREFERENCES_PATH = "/v1/preferences";

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

    /** The WebSocket URL with {@code ?device=} ({@code device} is checked by {@link DeviceIds}: nothing to escape); null: none. */
    public URI webSocket(String device) {
        return device == null ? webSocket : URI.create(webSocket + "?device=" + device);
    }

    /** {@link #sse(List, String)} without a device. */
    public URI sse(List<StreamId> streams) {
        return sse(streams, null);
    }

    /**
     * The SSE URL with the rooms to subscribe at connect (docs/protocol.md §8): {@code ?rooms=a,b}
     * and {@code &broadcast=true} for {@code b:all}, and {@code device=} when given; the plain
     * {@link #sse()} without any.
     */
    public URI sse(List<StreamId> streams, String device) {
        StringBuilder names = new StringBuilder();
        boolean broadcast = false;
        for (StreamId s : streams) {
            if (s.isBroadcast()) {
                broadcast = true;
            } else if (s.isRoom()) {
                names.append(names.length() == 0 ? "" : ",").append(s.room()); // room names need no escaping: [A-Za-z0-9._:-]
            }
        }
        StringBuilder query = new StringBuilder();
        if (names.length() > 0) {
            query.append("&rooms=").append(names);
        }
        if (broadcast) {
            query.append("&broadcast=true");
        }
        if (device != null) {
            query.append("&device=").append(device);
        }
        return query.length() == 0 ? sse : URI.create(sse + "?" + query.substring(1));
    }

    /**
     * A URL of the gateway's user API: {@code path} is {@link #INBOX_PATH}, {@link #PUSH_PATH} or
     * {@link #PREFERENCES_PATH} and what follows it (query included).
     */
    public URI inbox(String path) {
        return URI.create(base + path);
    }
}
