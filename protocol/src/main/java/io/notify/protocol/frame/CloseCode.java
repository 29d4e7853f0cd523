package io.notify.protocol.frame;

import java.util.Optional;

/**
 * WebSocket close codes the gateway uses, each with its short reason text (sent in the close
 * frame; well under the 123-byte limit) and what a client does next. Codes 1000-1013 are RFC 6455
 * / IANA codes; 4000-4999 are Notify's own. See docs/protocol.md.
 */
public enum CloseCode {
    NORMAL(1000, "normal closure", Reconnect.NEVER),
    GOING_AWAY(1001, "going away", Reconnect.PROMPTLY),
    PROTOCOL_ERROR(1002, "protocol error", Reconnect.NEVER),
    UNSUPPORTED_DATA(1003, "text frames only", Reconnect.NEVER),
    INVALID_PAYLOAD(1007, "invalid UTF-8", Reconnect.NEVER),
    POLICY_VIOLATION(1008, "policy violation", Reconnect.NEVER),
    MESSAGE_TOO_BIG(1009, "frame too big", Reconnect.NEVER),
    INTERNAL_ERROR(1011, "server error", Reconnect.BACKOFF),
    TRY_AGAIN_LATER(1013, "try again later", Reconnect.BACKOFF),
    TOKEN_EXPIRED(4001, "token expired", Reconnect.PROMPTLY),
    FORBIDDEN(4003, "forbidden", Reconnect.NEVER),
    SLOW_CONSUMER(4008, "slow consumer", Reconnect.PROMPTLY),
    TOO_MANY_CONNECTIONS(4009, "too many connections", Reconnect.BACKOFF),
    /** The connection reached the node's maximum lifetime (off by default): reconnect to any node and resume. */
    RECYCLED(4010, "connection recycled", Reconnect.PROMPTLY),
    RATE_LIMITED(4029, "rate limited", Reconnect.BACKOFF);

    /** What a client does after a close. */
    public enum Reconnect {
        /** Reconnect after a short random delay (0-1 s) and resume; 4001 first fetches a fresh token. */
        PROMPTLY,
        /** Reconnect with full-jitter exponential backoff (1 s doubling to 60 s) and resume. */
        BACKOFF,
        /** Do not reconnect automatically: surface the error to the application. */
        NEVER
    }

    private final int code;
    private final String reason;
    private final Reconnect policy;

    CloseCode(int code, String reason, Reconnect policy) {
        this.code = code;
        this.reason = reason;
        this.policy = policy;
    }

    public int code() {
        return code;
    }

    public String reason() {
        return reason;
    }

    public Reconnect policy() {
        return policy;
    }

    /** False for terminal codes: reconnecting would fail the same way. */
    public boolean reconnect() {
        return policy != Reconnect.NEVER;
    }

    public static Optional<CloseCode> of(int code) {
        for (CloseCode c : values()) {
            if (c.code == code) {
                return Optional.of(c);
            }
        }
        return Optional.empty();
    }

    /**
     * The policy for any close code, including ones this version does not know and 1006 (the
     * connection dropped without a close frame): unknown codes back off, so a newer server never
     * makes an older client stop for good or hammer it.
     */
    public static Reconnect policyFor(int code) {
        return of(code).map(CloseCode::policy).orElse(Reconnect.BACKOFF);
    }
}
