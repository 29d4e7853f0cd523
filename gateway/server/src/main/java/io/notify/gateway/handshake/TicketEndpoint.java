package io.notify.gateway.handshake;

import io.notify.common.http.HttpResponses;
import io.notify.common.http.Problem;
import io.notify.gateway.admission.Cors;
import io.notify.gateway.admission.HandshakeGate;
import io.notify.gateway.auth.AuthResult;
import io.notify.gateway.auth.TicketStore;
import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.Headers;
import io.undertow.util.Methods;

/**
 * {@code POST /v1/tickets} with {@code Authorization: Bearer <jwt>}: a connect ticket for this node
 * (docs/gateway.md, "Connect tickets"), answered {@code 201 {"ticket":"…","expiresIn":30}} with
 * {@code Cache-Control: no-store}. The same checks as a handshake, in the same order and with the
 * same answers (draining and the handshake rate limit → 503, a foreign {@code Origin} → 403, a token
 * refused → 401 with its reason), counted under transport {@code ticket}; the token is read from the
 * header only, never from the URL. Every ticket held already → 503 {@code tickets-full} + Retry-After.
 *
 * <p>CORS ({@link Cors}): a page on an allowed origin ({@code allowed-origins}) may call it from another
 * origin: {@code OPTIONS /v1/tickets} answers its preflight (204, POST with an {@code Authorization}
 * header), and every answer to such a page carries {@code Access-Control-Allow-Origin} for it, so
 * the page sees a refusal's status. No cookies are involved ({@code Allow-Credentials} is never sent).
 */
public final class TicketEndpoint implements HttpHandler {

    static final String TRANSPORT = "ticket";
    private static final int FULL_RETRY_AFTER_SECONDS = 5;

    /** The answer's body. */
    public record TicketAnswer(String ticket, long expiresIn) {
        @Override
        public String toString() {
            return "TicketAnswer[ticket=REDACTED, expiresIn=" + expiresIn + "]";
        }
    }

    private final HandshakeGate gate;
    private final TicketStore tickets;
    private final Cors cors;

    public TicketEndpoint(HandshakeGate gate, TicketStore tickets) {
        this.gate = gate;
        this.tickets = tickets;
        this.cors = new Cors(gate, TRANSPORT, "POST", "Authorization");
    }

    @Override
    public void handleRequest(HttpServerExchange exchange) {
        cors.answerHeaders(exchange);
        if (exchange.getRequestMethod().equals(Methods.OPTIONS)) {
            cors.preflight(exchange, "POST, OPTIONS");
            return;
        }
        if (!exchange.getRequestMethod().equals(Methods.POST)) {
            exchange.getResponseHeaders().put(Headers.ALLOW, "POST, OPTIONS");
            HttpResponses.problem(exchange, Problem.of(405, "method-not-allowed", "Method not allowed", "use POST"));
            return;
        }
        exchange.getResponseHeaders().put(Headers.CACHE_CONTROL, "no-store");
        if (!gate.admit(exchange, TRANSPORT)) {
            return;
        }
        AuthResult.Authenticated user = gate.authenticateBearer(exchange, TRANSPORT);
        if (user == null || !gate.take(exchange, TRANSPORT)) {
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
}
