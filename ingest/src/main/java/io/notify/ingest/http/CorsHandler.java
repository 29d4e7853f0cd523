package io.notify.ingest.http;

import io.notify.common.http.CorsPolicy;
import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import java.util.Set;

/**
 * CORS for the browsers of an exact origin allowlist ({@code notify.ingest.cors-origins}), so that
 * a page such as the gateway's dev demo can publish with {@code fetch}: the platform's one policy
 * ({@link CorsPolicy}) in front of ingest's routes. Off unless origins are configured: the server
 * does not wrap its routes in this handler when the list is empty.
 *
 * <p>Guarantees: an allowed origin's answers carry {@code Access-Control-Allow-Origin} with exactly
 * that origin and expose {@code Retry-After}; every answer carries {@code Vary: Origin}. An allowed
 * origin's preflight is answered 204 here and never reaches a route; a preflight from any other
 * origin gets 403 with no CORS headers. A plain request from another origin passes through
 * unchanged, and the browser then hides the answer from the page. The API key still authenticates
 * every request: CORS only decides which pages may read the answers.
 */
public final class CorsHandler implements HttpHandler {

    static final String ALLOW_METHODS = "POST, DELETE";
    static final String ALLOW_HEADERS = "Authorization, Content-Type";
    static final String EXPOSE_HEADERS = "Retry-After";

    private final CorsPolicy policy;
    private final HttpHandler next;

    public CorsHandler(Set<String> origins, HttpHandler next) {
        Set<String> allowed = Set.copyOf(origins);
        this.policy = new CorsPolicy(allowed::contains, ALLOW_METHODS, ALLOW_HEADERS, EXPOSE_HEADERS);
        this.next = next;
    }

    @Override
    public void handleRequest(HttpServerExchange exchange) throws Exception {
        CorsPolicy.Verdict verdict = policy.annotate(exchange);
        if (verdict == CorsPolicy.Verdict.NO_ORIGIN || !CorsPolicy.isPreflight(exchange)) {
            next.handleRequest(exchange);
            return;
        }
        if (verdict == CorsPolicy.Verdict.ALLOWED) {
            policy.putPreflightHeaders(exchange);
            exchange.setStatusCode(204);
        } else {
            exchange.setStatusCode(403);
        }
        exchange.endExchange();
    }
}
