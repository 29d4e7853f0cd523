package io.notify.gateway.admission;

import io.notify.common.http.CorsPolicy;
import io.notify.common.http.HttpResponses;
import io.notify.common.http.Problem;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.Headers;

/**
 * CORS for the gateway's HTTP endpoints that a page on another allowed origin calls with an
 * {@code Authorization} header ({@code POST /v1/tickets}, the inbox API): the platform's one policy
 * ({@link CorsPolicy}) over the origins the {@link HandshakeGate} allows ({@code allowed-origins}).
 * Answers to such an origin expose {@code Retry-After} and {@code WWW-Authenticate}, so the page
 * sees why it was refused; a preflight from another origin is answered 403 with a problem body and
 * counted as a refusal with reason {@code origin}. Whether the request itself is allowed is the
 * gate's decision, not this class's.
 */
public final class Cors {

    private final HandshakeGate gate;
    private final String transport;
    private final CorsPolicy policy;

    /**
     * @param transport the refusal metric's transport tag ({@code ticket}, {@code inbox})
     * @param methods   {@code Access-Control-Allow-Methods} of a preflight, e.g. {@code "POST"}
     * @param headers   {@code Access-Control-Allow-Headers} of a preflight, e.g. {@code "Authorization"}
     */
    public Cors(HandshakeGate gate, String transport, String methods, String headers) {
        this.gate = gate;
        this.transport = transport;
        this.policy = new CorsPolicy(gate::allowsOrigin, methods, headers, "Retry-After, WWW-Authenticate");
    }

    /** Puts the CORS headers of every answer: {@code Vary: Origin}, and for an allowed origin the allow and expose headers. */
    public void answerHeaders(HttpServerExchange exchange) {
        policy.annotate(exchange);
    }

    /**
     * Answers an {@code OPTIONS} request (call after {@link #answerHeaders}): 403 for an origin not
     * allowed, else 204 with {@code Allow: allow} and, for a cross-origin page, the preflight's answer.
     * True when it was answered 204.
     */
    public boolean preflight(HttpServerExchange exchange, String allow) {
        CorsPolicy.Verdict verdict = policy.verdict(exchange.getRequestHeaders().getFirst(Headers.ORIGIN));
        if (verdict == CorsPolicy.Verdict.REFUSED) {
            gate.refuse(exchange, transport, "origin");
            HttpResponses.problem(exchange, Problem.of(403, "origin-not-allowed", "Origin not allowed",
                    "the Origin of this page may not connect"));
            return false;
        }
        exchange.getResponseHeaders().put(Headers.ALLOW, allow);
        if (verdict == CorsPolicy.Verdict.ALLOWED) {
            policy.putPreflightHeaders(exchange);
        }
        exchange.setStatusCode(204);
        exchange.endExchange();
        return true;
    }
}
