package io.notify.fanout.query;

import io.notify.common.auth.BearerKeys;
import io.notify.common.http.HttpResponses;
import io.notify.common.http.Problem;
import io.undertow.server.HttpHandler;
import io.undertow.util.Headers;

/**
 * The query API's gate: a request reaches its handler only with {@code Authorization: Bearer <token>}
 * naming one of the configured service tokens (compared in constant time, {@link BearerKeys});
 * otherwise it is answered {@code 401} problem+json with {@code WWW-Authenticate: Bearer} and counted
 * as outcome {@code unauthorized}. The token is never logged, nor echoed in the answer.
 */
final class QueryAuth {

    static final Problem UNAUTHORIZED = Problem.of(401, "unauthorized", "Unauthorized",
            "the query API is for Notify services: send a service token as 'Authorization: Bearer <token>'");

    private final BearerKeys tokens;
    private final QueryMetrics metrics;

    QueryAuth(BearerKeys tokens, QueryMetrics metrics) {
        this.tokens = tokens;
        this.metrics = metrics;
    }

    /** {@code next}, for callers with a service token; {@code kind} labels the refusals (head, events, batch). */
    HttpHandler guard(String kind, HttpHandler next) {
        return ex -> {
            long start = System.nanoTime();
            String token = tokens.authenticate(ex.getRequestHeaders().getFirst(Headers.AUTHORIZATION)).orElse(null);
            if (token == null) {
                metrics.request(kind, "unauthorized", start);
                ex.getResponseHeaders().put(Headers.WWW_AUTHENTICATE, "Bearer");
                HttpResponses.problem(ex, UNAUTHORIZED);
                return;
            }
            metrics.tokenUsed(token);
            next.handleRequest(ex);
        };
    }
}
