package io.notify.gateway.admission;

import io.notify.common.http.HttpResponses;
import io.notify.common.http.Problem;
import io.notify.common.limits.TokenBucket;
import io.notify.gateway.auth.AuthRejection;
import io.notify.gateway.auth.AuthResult;
import io.notify.gateway.auth.TicketStore;
import io.notify.gateway.auth.TokenSource;
import io.notify.gateway.auth.TokenVerifier;
import io.notify.gateway.metrics.GatewayMetrics;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.Headers;
import java.util.Deque;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The checks every handshake (WebSocket and SSE) passes before any upgrade or response body, in
 * this order: draining → 503 ({@link #admit}); {@code Origin} not on the allowlist → 403; token or
 * connect ticket missing or invalid → 401; no verification keys (a JWKS URL not fetched yet) → 503 +
 * Retry-After ({@link #authenticate}); then the node's handshake token bucket → 503 + Retry-After
 * ({@link #take}). The bucket comes last so that only authenticated handshakes from allowed origins
 * draw on it: a client without a valid token, or a page of a refused origin, is answered 401/403 and
 * can never spend the tokens signed-in users need (the price: a refused handshake costs its token's
 * verification, microseconds). {@code POST /v1/tickets} passes the same checks with transport
 * {@code ticket}, its token taken from the {@code Authorization} header only. Each refusal is answered
 * here (problem+json), counted by reason and logged at debug level with the token and ticket
 * redacted. Runs on the I/O thread; never blocks.
 */
public final class HandshakeGate {

    private static final Logger LOG = LoggerFactory.getLogger(HandshakeGate.class);
    private static final int DRAINING_RETRY_AFTER_SECONDS = 1;
    private static final int KEYS_UNAVAILABLE_RETRY_AFTER_SECONDS = 5;
    /**
     * {@code GET /v1/ws/check} answers anyone (its CORS is open to every origin), so it has its own
     * bucket per node, apart from the handshakes': a page that makes its visitors' browsers call it
     * spends only this one.
     */
    public static final int CHECK_RATE_PER_SECOND = 100;
    public static final int CHECK_BURST = 200;

    private final TokenBucket handshakes;
    private final TokenBucket checks = TokenBucket.system(CHECK_RATE_PER_SECOND, CHECK_BURST);
    private final OriginPolicy origins;
    private final TokenVerifier verifier;
    private final TicketStore tickets;
    private final BooleanSupplier draining;
    private final GatewayMetrics metrics;

    public HandshakeGate(TokenBucket handshakes, OriginPolicy origins, TokenVerifier verifier, TicketStore tickets,
                         BooleanSupplier draining, GatewayMetrics metrics) {
        this.handshakes = handshakes;
        this.origins = origins;
        this.verifier = verifier;
        this.tickets = tickets;
        this.draining = draining;
        this.metrics = metrics;
    }

    /**
     * What a handshake from this request's {@code Origin} (or {@code ?origin=}) with the JWT of its
     * {@code Authorization} header would be answered now ({@code GET /v1/ws/check}), decided in the
     * handshake's order without answering: draining; the origin; the token; whether the node's
     * handshake bucket has a token now (looked at, not taken). Redeems no ticket. A refusal is counted
     * and logged like a handshake's, under {@code transport}. Null when the check itself was refused
     * by its own bucket ({@link #CHECK_RATE_PER_SECOND}, {@link #CHECK_BURST}): answered here, 503 +
     * Retry-After, counted as {@code rate_limited}.
     */
    public HandshakeVerdict check(HttpServerExchange exchange, String transport) {
        if (!checks.tryTake()) {
            refuse(exchange, transport, "rate_limited");
            HttpResponses.retryLater(exchange, Problem.of(503, "overloaded", "Too many checks",
                    "the node answers a bounded number of handshake checks per second; retry after the delay"),
                    checks.retryAfterSeconds());
            return null;
        }
        if (draining.getAsBoolean()) {
            refuse(exchange, transport, "draining");
            return HandshakeVerdict.refused("draining", "this node is shutting down; another node will answer",
                    503, DRAINING_RETRY_AFTER_SECONDS);
        }
        if (!origins.allows(checkedOrigin(exchange))) {
            refuse(exchange, transport, "origin");
            return HandshakeVerdict.refused("origin",
                    "the Origin of this page is not on the gateway's allowed-origins", 403, null);
        }
        AuthResult result = verifier.verify(TokenSource.bearer(exchange));
        if (result instanceof AuthResult.Rejected rejected) {
            refuse(exchange, transport, rejected.reason().slug());
            return rejected.reason() == AuthRejection.KEYS_UNAVAILABLE
                    ? HandshakeVerdict.refused("unavailable", rejected.reason().slug(), 503, KEYS_UNAVAILABLE_RETRY_AFTER_SECONDS)
                    : HandshakeVerdict.refused("token", rejected.reason().slug(), 401, null);
        }
        if (!handshakes.hasToken()) {
            refuse(exchange, transport, "rate_limited");
            return HandshakeVerdict.refused("admission", "the node admits a bounded number of handshakes per second",
                    503, handshakes.retryAfterSeconds());
        }
        return HandshakeVerdict.OK;
    }

    /**
     * The origin a check is about: the {@code Origin} header, else the {@code origin} query parameter.
     * Browsers send no {@code Origin} with a same-origin GET, yet do with the same page's WebSocket
     * handshake and ticket request, so a page names its origin itself. Trusting it is harmless: the
     * answer decides nothing, and anyone can learn the same by sending that Origin to a preflight.
     */
    private static String checkedOrigin(HttpServerExchange exchange) {
        String header = exchange.getRequestHeaders().getFirst(Headers.ORIGIN);
        if (header != null) {
            return header;
        }
        Deque<String> param = exchange.getQueryParameters().get("origin");
        return param == null || param.isEmpty() ? null : param.getFirst();
    }

    /** The node's state: false, answered 503, while it drains. */
    public boolean admit(HttpServerExchange exchange, String transport) {
        if (draining.getAsBoolean()) {
            refuse(exchange, transport, "draining");
            HttpResponses.retryLater(exchange, Problem.of(503, "draining", "Node draining",
                    "this node is shutting down; connect again (another node will answer)"), DRAINING_RETRY_AFTER_SECONDS);
            return false;
        }
        return true;
    }

    /**
     * Takes a token of the node's handshake bucket for an authenticated handshake (or ticket); false
     * when the bucket is empty (answered 503 + Retry-After, counted {@code rate_limited}).
     */
    public boolean take(HttpServerExchange exchange, String transport) {
        if (!handshakes.tryTake()) {
            refuse(exchange, transport, "rate_limited");
            HttpResponses.retryLater(exchange, Problem.of(503, "overloaded", "Too many handshakes",
                    "the node admits a bounded number of handshakes per second; retry after the delay, with jitter"),
                    handshakes.retryAfterSeconds());
            return false;
        }
        return true;
    }

    /**
     * Origin and credential of a handshake: the {@code Authorization} header, else a {@code ticket}
     * (redeemed here, so it is spent whatever happens to the handshake afterwards), else
     * {@code access_token}. The authenticated user, or null when refused (the answer is sent).
     */
    public AuthResult.Authenticated authenticate(HttpServerExchange exchange, String transport) {
        if (!originAllowed(exchange, transport)) {
            return null;
        }
        String ticket = TokenSource.bearer(exchange) == null ? TokenSource.ticket(exchange) : null;
        return answer(exchange, transport, ticket != null ? tickets.redeem(ticket) : verifier.verify(TokenSource.extract(exchange)));
    }

    /** Origin and the JWT of the {@code Authorization} header only (the ticket endpoint); null when refused (answered). */
    public AuthResult.Authenticated authenticateBearer(HttpServerExchange exchange, String transport) {
        if (!originAllowed(exchange, transport)) {
            return null;
        }
        return answer(exchange, transport, verifier.verify(TokenSource.bearer(exchange)));
    }

    /** Whether a browser page of {@code origin} may connect (and call the ticket endpoint); null: no Origin header. */
    public boolean allowsOrigin(String origin) {
        return origins.allows(origin);
    }

    private boolean originAllowed(HttpServerExchange exchange, String transport) {
        String origin = exchange.getRequestHeaders().getFirst(Headers.ORIGIN);
        if (!origins.allows(origin)) {
            refuse(exchange, transport, "origin");
            HttpResponses.problem(exchange, Problem.of(403, "origin-not-allowed", "Origin not allowed",
                    "the Origin of this page may not connect"));
            return false;
        }
        return true;
    }

    private AuthResult.Authenticated answer(HttpServerExchange exchange, String transport, AuthResult result) {
        if (result instanceof AuthResult.Rejected rejected) {
            refuse(exchange, transport, rejected.reason().slug());
            if (rejected.reason() == AuthRejection.KEYS_UNAVAILABLE) {
                HttpResponses.retryLater(exchange, Problem.of(503, "keys-unavailable", "Verification keys unavailable",
                        "this node has no token verification keys yet (its JWKS URL could not be fetched); retry after the delay"),
                        KEYS_UNAVAILABLE_RETRY_AFTER_SECONDS);
                return null;
            }
            boolean ticket = switch (rejected.reason()) {
                case UNKNOWN_TICKET, TICKET_EXPIRED, TICKET_REUSED -> true;
                default -> false;
            };
            exchange.getResponseHeaders().put(Headers.WWW_AUTHENTICATE,
                    "Bearer error=\"invalid_token\", error_description=\"" + rejected.reason().slug() + "\"");
            HttpResponses.problem(exchange, Problem.of(401, "unauthenticated", "Unauthenticated",
                    (ticket ? "ticket refused: " : "token refused: ") + rejected.reason().slug()));
            return null;
        }
        return (AuthResult.Authenticated) result;
    }

    /** Counts and logs a refusal decided elsewhere (e.g. a bad subprotocol, too many connections). */
    public void refuse(HttpServerExchange exchange, String transport, String reason) {
        metrics.handshakeRejected(transport, reason);
        if (LOG.isDebugEnabled()) {
            LOG.debug("{} handshake refused ({}) from {}: {}", transport, reason, exchange.getSourceAddress(),
                    TokenSource.loggableUri(exchange));
        }
    }
}
