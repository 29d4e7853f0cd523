package io.notify.gateway.admission;

import io.notify.common.http.HttpResponses;
import io.notify.common.http.Problem;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.HeaderMap;
import io.undertow.util.Headers;
import io.undertow.util.HttpString;

/**
 * CORS for the gateway's HTTP endpoints that a page on another allowed origin calls with an
 * {@code Authorization} header ({@code POST /v1/tickets}, the inbox API): every answer to an origin
 * on {@code allowed-origins} carries {@code Access-Control-Allow-Origin} for it and exposes
 * {@code Retry-After} and {@code WWW-Authenticate}, so the page sees why it was refused; a preflight
 * from such an origin is answered 204 with the methods and headers the endpoint takes, from any
 * other origin 403 (counted as a refusal with reason {@code origin}). No cookies are involved:
 * {@code Access-Control-Allow-Credentials} is never sent. Whether the request itself is allowed is
 * the {@link HandshakeGate}'s decision, not this class's.
 */
public final class Cors {

    static final int PREFLIGHT_MAX_AGE_SECONDS = 600;
    private static final HttpString ALLOW_ORIGIN = new HttpString("Access-Control-Allow-Origin");

    private final HandshakeGate gate;
    private final String transport;
    private final String methods;
    private final String headers;

    /**
     * @param transport the refusal metric's transport tag ({@code ticket}, {@code inbox})
     * @param methods   {@code Access-Control-Allow-Methods} of a preflight, e.g. {@code "POST"}
     * @param headers   {@code Access-Control-Allow-Headers} of a preflight, e.g. {@code "Authorization"}
     */
    public Cors(HandshakeGate gate, String transport, String methods, String headers) {
        this.gate = gate;
        this.transport = transport;
        this.methods = methods;
        this.headers = headers;
    }

    /** Puts the CORS headers of every answer: {@code Vary: Origin}, and for an allowed origin the allow and expose headers. */
    public void answerHeaders(HttpServerExchange exchange) {
        String origin = exchange.getRequestHeaders().getFirst(Headers.ORIGIN);
        HeaderMap out = exchange.getResponseHeaders();
        out.put(Headers.VARY, "Origin");
        if (origin != null && gate.allowsOrigin(origin)) {
            out.put(ALLOW_ORIGIN, origin);
            out.put(new HttpString("Access-Control-Expose-Headers"), "Retry-After, WWW-Authenticate");
        }
    }

    /**
     * Answers an {@code OPTIONS} request (call after {@link #answerHeaders}): 403 for an origin not
     * allowed, else 204 with {@code Allow: allow} and, for a cross-origin page, the preflight's answer.
     * True when it was answered 204.
     */
    public boolean preflight(HttpServerExchange exchange, String allow) {
        String origin = exchange.getRequestHeaders().getFirst(Headers.ORIGIN);
        boolean cors = origin != null && gate.allowsOrigin(origin);
        if (origin != null && !cors) {
            gate.refuse(exchange, transport, "origin");
            HttpResponses.problem(exchange, Problem.of(403, "origin-not-allowed", "Origin not allowed",
                    "the Origin of this page may not connect"));
            return false;
        }
        HeaderMap out = exchange.getResponseHeaders();
        out.put(Headers.ALLOW, allow);
        if (cors) {
            out.put(new HttpString("Access-Control-Allow-Methods"), methods);
            out.put(new HttpString("Access-Control-Allow-Headers"), headers);
            out.put(new HttpString("Access-Control-Max-Age"), Integer.toString(PREFLIGHT_MAX_AGE_SECONDS));
        }
        exchange.setStatusCode(204);
        exchange.endExchange();
        return true;
    }
}
