package io.notify.gateway.disconnect;

import io.notify.protocol.frame.CloseCode;

/**
 * Why the node disconnects a client (or, for {@link #CONNECTIONS_PER_USER} over SSE, refuses it):
 * every per-connection limit and what it answers, in one place. The slug labels
 * {@code notify_gateway_limit_hits_total{limit}} and the close code is what the client sees
 * (docs/gateway.md, "Limits", lists the same pairs; {@code DisconnectTest} keeps them in agreement).
 * A leaf package: the session, the transports (which answer the framing limits themselves) and the
 * handshake all name these without depending on each other. Handshake-time refusals are HTTP
 * statuses and are counted in {@code handshake_rejections_total} instead.
 */
public enum Disconnect {
    FRAME_TOO_BIG("frame_too_big", CloseCode.MESSAGE_TOO_BIG),
    MESSAGE_FRAMES("message_frames", CloseCode.MESSAGE_TOO_BIG),
    MESSAGE_TIMEOUT("message_timeout", CloseCode.PROTOCOL_ERROR),
    INVALID_UTF8("invalid_utf8", CloseCode.INVALID_PAYLOAD),
    PROTOCOL_ERROR("protocol_error", CloseCode.PROTOCOL_ERROR),
    BINARY_FRAME("binary_frame", CloseCode.UNSUPPORTED_DATA),
    INBOUND_RATE("inbound_rate", CloseCode.RATE_LIMITED),
    RESUME_TIMEOUT("resume_timeout", CloseCode.PROTOCOL_ERROR),
    FOREIGN_STREAM("foreign_stream", CloseCode.FORBIDDEN),
    CONNECTIONS_PER_USER("connections_per_user", CloseCode.TOO_MANY_CONNECTIONS),
    SLOW_CONSUMER("slow_consumer", CloseCode.SLOW_CONSUMER),
    MISSED_PONGS("missed_pongs", CloseCode.GOING_AWAY),
    TOKEN_EXPIRED("token_expired", CloseCode.TOKEN_EXPIRED),
    RESUME_UNAVAILABLE("resume_unavailable", CloseCode.TRY_AGAIN_LATER);

    private final String slug;
    private final CloseCode answer;

    Disconnect(String slug, CloseCode answer) {
        this.slug = slug;
        this.answer = answer;
    }

    public String slug() {
        return slug;
    }

    /** The close code a WebSocket client receives (an SSE stream just ends). */
    public CloseCode answer() {
        return answer;
    }

    /** The close reason: {@code detail} when given, else the close code's own. */
    public String reason(String detail) {
        return detail == null ? answer.reason() : detail;
    }
}
