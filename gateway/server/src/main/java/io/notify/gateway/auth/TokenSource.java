package io.notify.gateway.auth;

import io.undertow.server.HttpServerExchange;
import io.undertow.util.Headers;
import java.util.Deque;
import java.util.regex.Pattern;

/**
 * Where a handshake token comes from: {@code Authorization: Bearer <jwt>} (preferred; wins when
 * both are present) or the {@code access_token} query parameter (browsers cannot set headers on
 * WebSocket or EventSource). Also the one place that knows how to keep the token out of logs:
 * {@link #redact} masks the parameter's value in any query string or URI before it is logged.
 */
public final class TokenSource {

    public static final String QUERY_PARAM = "access_token";
    private static final Pattern IN_QUERY = Pattern.compile("(?i)(access_token=)[^&#\\s]*");
    private static final Pattern BEARER = Pattern.compile("(?i)(bearer\\s+)[A-Za-z0-9._~+/=-]+");

    private TokenSource() {
    }

    /** The token the client presented, or null. */
    public static String extract(HttpServerExchange exchange) {
        String auth = exchange.getRequestHeaders().getFirst(Headers.AUTHORIZATION);
        if (auth != null && auth.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return auth.substring(7).trim();
        }
        Deque<String> q = exchange.getQueryParameters().get(QUERY_PARAM);
        return q == null || q.isEmpty() ? null : q.getFirst();
    }

    /** {@code text} with any access_token value and any bearer credential replaced by {@code REDACTED}. */
    public static String redact(String text) {
        if (text == null) {
            return null;
        }
        String out = IN_QUERY.matcher(text).replaceAll("$1REDACTED");
        return BEARER.matcher(out).replaceAll("$1REDACTED");
    }

    /** The request path and query, safe to log. */
    public static String loggableUri(HttpServerExchange exchange) {
        String q = exchange.getQueryString();
        return exchange.getRequestPath() + (q == null || q.isEmpty() ? "" : "?" + redact(q));
    }
}
