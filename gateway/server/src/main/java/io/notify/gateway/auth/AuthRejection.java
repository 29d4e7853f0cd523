package io.notify.gateway.auth;

/**
 * Why a handshake token (or connect ticket) was refused. Every value but {@link #KEYS_UNAVAILABLE} is answered with HTTP
 * 401; the slug labels the {@code handshake_rejections_total} metric and log lines (never the token
 * itself).
 */
public enum AuthRejection {
    MISSING_TOKEN("missing_token"),
    MALFORMED("malformed_token"),
    /** alg=none, an encrypted token, or an algorithm no configured key is pinned to (HS/RS confusion lands here). */
    ALG_NOT_ALLOWED("alg_not_allowed"),
    UNKNOWN_KEY("unknown_key"),
    BAD_SIGNATURE("bad_signature"),
    MISSING_CLAIM("missing_claim"),
    EXPIRED("token_expired"),
    NOT_YET_VALID("token_not_yet_valid"),
    /** An {@code iat} later than now beyond the skew: a token from a clock that is wrong, or made to outlive its issuer's rules. */
    ISSUED_IN_FUTURE("token_issued_in_future"),
    WRONG_ISSUER("wrong_issuer"),
    WRONG_AUDIENCE("wrong_audience"),
    BAD_SUBJECT("bad_subject"),
    /** A {@code rooms} claim that is not an array of at most 64 room patterns (docs/protocol.md, "Rooms and broadcast"). */
    BAD_ROOMS_CLAIM("bad_rooms_claim"),
    /** A connect ticket this node never issued, or forgot (swept): another node's, a forged or a mistyped one. */
    UNKNOWN_TICKET("unknown_ticket"),
    /** A connect ticket presented after its validity (ticket-ttl, or the token's exp if sooner). */
    TICKET_EXPIRED("ticket_expired"),
    /** A connect ticket presented again: each is redeemed by the first handshake that presents it. */
    TICKET_REUSED("ticket_reused"),
    /**
     * The node has no verification keys: a JWKS URL not fetched yet, or its keys past
     * {@code jwks-cache-ttl}. Not the token's fault: answered 503 + Retry-After.
     */
    KEYS_UNAVAILABLE("keys_unavailable");

    private final String slug;

    AuthRejection(String slug) {
        this.slug = slug;
    }

    public String slug() {
        return slug;
    }
}
