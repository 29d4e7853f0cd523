package io.notify.gateway.handshake;

import io.notify.common.http.HttpResponses;
import io.notify.common.http.Problem;
import io.notify.gateway.admission.HandshakeGate;
import io.notify.gateway.auth.AuthResult;
import io.notify.gateway.auth.TicketStore;
import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.HeaderMap;
import io.undertow.util.Headers;
import io.undertow.util.HttpString;
import io.undertow.util.Methods;

/**
 * {@code POST /v1/tickets} with {@code Authorization: Bearer <jwt>}: a connect ticket for this node
 * (docs/gateway.md, "Connect tickets"), answered {@code 201 {"ticket":"…","expiresIn":30}} with
 * {@code Cache-Control: no-store}. The same checks as a handshake, in the same order and with the
 * same answers (draining and the handshake rate limit → 503, a foreign {@code Origin} → 403, a token
 * refused → 401 with its reason), counted under transport {@code ticket}; the token is read from the
 * header only, never from the URL. Every ticket held already → 503 {@code tickets-full} + Retry-After.
 *
 * <p>CORS: a page on an allowed origin ({@code allowed-origins}) may call it from another origin:
 * {@code OPTIONS /v1/tickets} answers its preflight (204, POST with an {@code Authorization}
 * header), and every answer to such a page carries {@code Access-Control-Allow-Origin} for it, so
 * the page sees a refusal's status. No cookies are involved ({@code Allow-Credentials} is never sent).
 */
public final class TicketEndpoint implements HttpHandler {

    static final String TRANSPORT = "ticket";
    private static final int FULL_RETRY_AFTER_SECONDS = 5;
    private static final int PREFLIGHT_MAX_AGE_SECONDS = 600;

    /** The answer's body. */
    public record TicketAnswer(String ticket, long expiresIn) {
        @Override
        public String toString() {
            return "TicketAnswer[ticket=REDACTED, expiresIn=" + expiresIn + "]";
        }
    }

    private final HandshakeGate gate;
    private final TicketStore tickets;

    public TicketEndpoint(HandshakeGate gate, TicketStore tickets) {
        this.gate = gate;
        this.tickets = tickets;
    }

    @Override
    public void handleRequest(HttpServerExchange exchange) {
        String origin = exchange.getRequestHeaders().getFirst(Headers.ORIGIN);
        boolean cors = origin != null && gate.allowsOrigin(origin);
        HeaderMap out = exchange.getResponseHeaders();
        out.put(Headers.VARY, "Origin");
        if (cors) {
            out.put(new HttpString("Access-Control-Allow-Origin"), origin);
            out.put(new HttpString("Access-Control-Expose-Headers"), "Retry-After, WWW-Authenticate");
        }
        if (exchange.getRequestMethod().equals(Methods.OPTIONS)) {
            preflight(exchange, origin, cors);
            return;
        }
        if (!exchange.getRequestMethod().equals(Methods.POST)) {
            out.put(Headers.ALLOW, "POST, OPTIONS");
            HttpResponses.problem(exchange, Problem.of(405, "method-not-allowed", "Method not allowed", "use POST"));
            return;
        }
        out.put(Headers.CACHE_CONTROL, "no-store");
        if (!gate.admit(exchange, TRANSPORT)) {
            return;
        }
        AuthResult.Authenticated user = gate.authenticateBearer(exchange, TRANSPORT);
        if (user == null) {
            return;
        }
        TicketStore.Issued issued = tickets.issue(user);
        if (issued == null) {
            gate.refuse(exchange, TRANSPORT, "tickets_full");
            HttpResponses.retryLater(exchange, Problem.of(503, "tickets-full", "Too many tickets",
                    "this node holds the maximum number of connect tickets; retry after the delay, with jitter"),
                    FULL_RETRY_AFTER_SECONDS);
            return;
        }
        // whole seconds, rounded up: a ticket valid 29.4 s is announced as 30 s, the same as the TTL
        long seconds = (issued.expiresIn().toMillis() + 999) / 1000;
        HttpResponses.json(exchange, 201, new TicketAnswer(issued.ticket(), seconds));
    }

    private void preflight(HttpServerExchange exchange, String origin, boolean cors) {
        if (origin != null && !cors) {
            gate.refuse(exchange, TRANSPORT, "origin");
            HttpResponses.problem(exchange, Problem.of(403, "origin-not-allowed", "Origin not allowed",
                    "the Origin of this page may not connect"));
            return;
        }
        HeaderMap out = exchange.getResponseHeaders();
        out.put(Headers.ALLOW, "POST, OPTIONS");
        if (cors) {
            out.put(new HttpString("Access-Control-Allow-Methods"), "POST");
            out.put(new HttpString("Access-Control-Allow-Headers"), "Authorization");
            out.put(new HttpString("Access-Control-Max-Age"), Integer.toString(PREFLIGHT_MAX_AGE_SECONDS));
        }
        exchange.setStatusCode(204);
        exchange.endExchange();
    }
}
