package io.notify.ingest.http;

import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.HttpString;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * CORS for the browsers of an exact origin allowlist ({@code notify.ingest.cors-origins}), so that
 * a page such as the gateway's dev demo can publish with {@code fetch}. Off unless origins are
 * configured. The server does not wrap its routes in this handler when the list is empty.
 *
 * <p>Guarantees: an allowed origin gets {@code Access-Control-Allow-Origin} set to exactly itself,
 * with {@code Vary: Origin}. Its preflight is answered 204 here and never reaches a route. A
 * preflight from any other origin gets 403 with no CORS headers. A plain request from another
 * origin passes through unchanged, and the browser then hides the answer from the page. The API
 * key still authenticates every request: CORS only decides which pages may read the answers.
 */
public final class CorsHandler implements HttpHandler {

    static final String ALLOW_METHODS = "POST";
    static final String ALLOW_HEADERS = "Authorization, Content-Type";
    static final String EXPOSE_HEADERS = "Retry-After";
    static final String MAX_AGE_SECONDS = "600";

    private static final HttpString ORIGIN = new HttpString("Origin");
    private static final HttpString REQUEST_METHOD = new HttpString("Access-Control-Request-Method");

    /** How a request is treated. */
    enum Verdict { PASS, ANNOTATE, PREFLIGHT, REFUSE_PREFLIGHT }

    private final Set<String> origins;
    private final HttpHandler next;

    public CorsHandler(Set<String> origins, HttpHandler next) {
        this.origins = Set.copyOf(origins);
        this.next = next;
    }

    Verdict verdict(String method, String origin, String preflightMethod) {
        boolean preflight = "OPTIONS".equals(method) && preflightMethod != null;
        if (origin == null) {
            return Verdict.PASS;
        }
        if (!origins.contains(origin)) {
            return preflight ? Verdict.REFUSE_PREFLIGHT : Verdict.PASS;
        }
        return preflight ? Verdict.PREFLIGHT : Verdict.ANNOTATE;
    }

    /** The CORS response headers for an allowed origin. */
    static Map<String, String> headers(Verdict verdict, String origin) {
        Map<String, String> h = new LinkedHashMap<>();
        if (verdict == Verdict.PREFLIGHT || verdict == Verdict.ANNOTATE) {
            h.put("Access-Control-Allow-Origin", origin);
            h.put("Vary", "Origin");
        }
        if (verdict == Verdict.PREFLIGHT) {
            h.put("Access-Control-Allow-Methods", ALLOW_METHODS);
            h.put("Access-Control-Allow-Headers", ALLOW_HEADERS);
            h.put("Access-Control-Max-Age", MAX_AGE_SECONDS);
        } else if (verdict == Verdict.ANNOTATE) {
            h.put("Access-Control-Expose-Headers", EXPOSE_HEADERS);
        }
        return h;
    }

    @Override
    public void handleRequest(HttpServerExchange exchange) throws Exception {
        String origin = exchange.getRequestHeaders().getFirst(ORIGIN);
        Verdict verdict = verdict(exchange.getRequestMethod().toString(), origin,
                exchange.getRequestHeaders().getFirst(REQUEST_METHOD));
        headers(verdict, origin).forEach((name, value) -> exchange.getResponseHeaders().put(new HttpString(name), value));
        switch (verdict) {
            case PREFLIGHT -> {
                exchange.setStatusCode(204);
                exchange.endExchange();
            }
            case REFUSE_PREFLIGHT -> {
                exchange.setStatusCode(403);
                exchange.endExchange();
            }
            default -> next.handleRequest(exchange);
        }
    }
}
