package io.notify.gateway.admission;

/**
 * What {@code GET /v1/ws/check} answers (docs/protocol.md, "Why a handshake is refused"): whether a
 * handshake with the same inputs would be accepted now, and if not, why. {@code reason} is one of
 * {@code origin}, {@code token}, {@code draining}, {@code admission}, {@code unavailable};
 * {@code detail} a short human-readable explanation that names no secret (for {@code token} the
 * refusal's slug, e.g. {@code token_expired}); {@code status} the HTTP status the handshake gets
 * (403, 401, 503); {@code retryAfter} the seconds of its {@code Retry-After}, where it has one.
 * Absent fields are left out of the JSON.
 */
public record HandshakeVerdict(boolean ok, String reason, String detail, Integer status, Integer retryAfter) {

    static final HandshakeVerdict OK = new HandshakeVerdict(true, null, null, null, null);

    static HandshakeVerdict refused(String reason, String detail, int status, Integer retryAfter) {
        return new HandshakeVerdict(false, reason, detail, status, retryAfter);
    }
}
