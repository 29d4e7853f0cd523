package io.notify.gateway.auth;

import io.undertow.server.HttpServerExchange;
import io.undertow.util.Headers;
import java.util.Deque;
import java.util.regex.Pattern;

/**
 * Where a handshake credential comes from, in this order: {@code Authorization: Bearer <jwt>}
 * (preferred; wins when several are present), a connect ticket in the {@code ticket} query
 * parameter ({@link TicketStore}), or the JWT itself in the {@code access_token} query parameter
 * (browsers cannot set headers on WebSocket or EventSource). Also the one place that knows how to
 * keep credentials out of logs: {@link #redact} masks the values of both parameters in any query
 * string or URI, and any bearer credential, before it is logged.
 */
public final class TokenSource {

    public static final String QUERY_PARAM = "access_token";
    public static final String TICKET_PARAM = "ticket";
    private static final Pattern IN_QUERY = Pattern.compile("(?i)((?:access_token|ticket)=)[^&#\\s]*");
    private static final Pattern BEARER = Pattern.compile("(?i)(bearer\\s+)[A-Za-z0-9._~+/=-]+");

    private TokenSource() {
    }

    /** The JWT the client presented (the header, else {@code access_token}), or null. */
    public static String extract(HttpServerExchange exchange) {
        String bearer = bearer(exchange);
        return bearer != null ? bearer : query(exchange, QUERY_PARAM);
    }

    /** The JWT of an {@code Authorization: Bearer} header only, or null (the ticket endpoint takes no other). */
    public static String bearer(HttpServerExchange exchange) {
        String auth = exchange.getRequestHeaders().getFirst(Headers.AUTHORIZATION);
        if (auth != null && auth.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return auth.substring(7).trim();
        }
        return null;
    }

    /** The connect ticket of the {@code ticket} query parameter, or null. */
    public static String ticket(HttpServerExchange exchange) {
        return query(exchange, TICKET_PARAM);
    }

    private static String query(HttpServerExchange exchange, String name) {
        Deque<String> q = exchange.getQueryParameters().get(name);
        return q == null || q.isEmpty() ? null : q.getFirst();
    }

    /** {@code text} with any access_token or ticket value and any bearer credential replaced by {@code REDACTED}. */
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
