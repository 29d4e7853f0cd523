package io.notify.gateway.handshake;

import io.notify.common.http.HttpResponses;
import io.notify.common.http.Problem;
import io.notify.gateway.admission.HandshakeGate;
import io.notify.gateway.admission.HandshakeVerdict;
import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.HeaderMap;
import io.undertow.util.Headers;
import io.undertow.util.HttpString;
import io.undertow.util.Methods;

/**
 * {@code GET /v1/ws/check}: why this node would refuse a handshake (docs/protocol.md, "Why a handshake
 * is refused"). A browser hides the status of a refused WebSocket handshake (the page sees close 1006)
 * and of a CORS request from a refused origin (a network error), so a client whose attempts keep
 * failing before {@code welcome} asks here: {@code 200 {"ok":true}}, or {@code 200 {"ok":false,
 * "reason":"origin"|"token"|"draining"|"admission"|"unavailable","detail":…,"status":…,"retryAfter":…}}
 * with the status the handshake gets. Always 200 when the check ran, so that a page reads the body the
 * same way whatever it says.
 *
 * <p>Inputs: the request's {@code Origin} (else {@code ?origin=}: a same-origin GET carries no Origin
 * header) and the JWT of its {@code Authorization: Bearer} header, as {@code POST /v1/tickets} takes
 * it. No ticket (checking one would spend it) and no token in the URL.
 * The checks are the handshake's, in its order ({@link HandshakeGate#check}); the handshake bucket is
 * looked at, not taken from (reason {@code admission} when it is empty). The checks have their own
 * bucket per node ({@link HandshakeGate#CHECK_RATE_PER_SECOND}/s, burst {@link HandshakeGate#CHECK_BURST}):
 * past it a check is answered 503 + Retry-After without running, counted in
 * {@code handshake_rejections_total{transport="check",reason="rate_limited"}}; so a page that spends
 * it through its visitors' browsers spends nothing a handshake needs.
 *
 * <p>CORS: open to every origin, on this route only, since the page that most needs the answer is
 * one whose origin is refused. Every answer carries {@code Access-Control-Allow-Origin} with the
 * request's Origin; the preflight (an {@code Authorization} header makes one) is answered 204 without
 * any check. Credentials (cookies) are never allowed, and the answer says nothing beyond the reason:
 * no claim, no key, no allowlist.
 */
public final class CheckEndpoint implements HttpHandler {

    static final String TRANSPORT = "check";
    static final int PREFLIGHT_MAX_AGE_SECONDS = 600;
    private static final HttpString ALLOW_ORIGIN = new HttpString("Access-Control-Allow-Origin");

    private final HandshakeGate gate;

    public CheckEndpoint(HandshakeGate gate) {
        this.gate = gate;
    }

    @Override
    public void handleRequest(HttpServerExchange exchange) {
        String origin = exchange.getRequestHeaders().getFirst(Headers.ORIGIN);
        HeaderMap out = exchange.getResponseHeaders();
        out.put(Headers.VARY, "Origin");
        if (origin != null) {
            out.put(ALLOW_ORIGIN, origin);
        }
        if (exchange.getRequestMethod().equals(Methods.OPTIONS)) {
            out.put(Headers.ALLOW, "GET, OPTIONS");
            if (origin != null) {
                out.put(new HttpString("Access-Control-Allow-Methods"), "GET");
                out.put(new HttpString("Access-Control-Allow-Headers"), "Authorization");
                out.put(new HttpString("Access-Control-Max-Age"), Integer.toString(PREFLIGHT_MAX_AGE_SECONDS));
            }
            exchange.setStatusCode(204);
            exchange.endExchange();
            return;
        }
        if (!exchange.getRequestMethod().equals(Methods.GET)) {
            out.put(Headers.ALLOW, "GET, OPTIONS");
            HttpResponses.problem(exchange, Problem.of(405, "method-not-allowed", "Method not allowed", "use GET"));
            return;
        }
        out.put(Headers.CACHE_CONTROL, "no-store");
        HandshakeVerdict verdict = gate.check(exchange, TRANSPORT);
        if (verdict != null) { // null: the check's own bucket refused it (answered 503)
            HttpResponses.json(exchange, 200, verdict);
        }
    }
}
