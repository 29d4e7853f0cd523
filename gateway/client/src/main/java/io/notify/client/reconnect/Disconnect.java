package io.notify.client.reconnect;

import java.time.Duration;
import java.util.Optional;

/** Why a connection attempt or a connection ended: the input of {@link ReconnectPolicy}. */
public sealed interface Disconnect {

    /** A short description for logs and errors. */
    String describe();

    /** The gateway closed the WebSocket with {@code code}; 1006 when it dropped without a close frame. */
    record Closed(int code, String reason) implements Disconnect {
        public String describe() {
            return "closed with " + code + (reason == null || reason.isEmpty() ? "" : " (" + reason + ")");
        }
    }

    /**
     * The SSE stream ended. {@code drainRetry} is the {@code retry:} value the gateway wrote as the
     * last thing before ending it, which it does only when draining (docs/protocol.md §1).
     */
    record StreamEnded(Optional<Duration> drainRetry) implements Disconnect {
        public String describe() {
            return drainRetry.map(d -> "stream ended by a drain (retry " + d.toMillis() + " ms)").orElse("stream ended");
        }
    }

    /**
     * The handshake got HTTP {@code status} instead of an upgrade or an event stream;
     * {@code websocket} tells which handshake. {@code retryAfter} is the Retry-After header.
     */
    record Refused(int status, Optional<Duration> retryAfter, boolean websocket, String detail) implements Disconnect {
        public String describe() {
            return (websocket ? "WebSocket" : "SSE") + " handshake refused with HTTP " + status
                    + (detail == null || detail.isEmpty() ? "" : " (" + detail + ")");
        }
    }

    /** No connection: refused, reset, timed out, DNS, TLS — or it broke without a close frame. */
    record Unreachable(String detail) implements Disconnect {
        public String describe() {
            return "unreachable: " + detail;
        }
    }

    /** No frame at all for {@code silence} (no {@code welcome} in time, or missed pings). */
    record Silent(Duration silence) implements Disconnect {
        public String describe() {
            return "no frame for " + silence.toMillis() + " ms";
        }
    }

    /** The client dropped the connection to resume: a seq gap or an event of an unexpected epoch. */
    record Resync(String why) implements Disconnect {
        public String describe() {
            return "resync: " + why;
        }
    }

    /** The gateway sent a frame the client cannot read. */
    record BadFrame(String detail) implements Disconnect {
        public String describe() {
            return "unreadable frame: " + detail;
        }
    }

    /** The token supplier failed. */
    record TokenFailed(String detail) implements Disconnect {
        public String describe() {
            return "no token: " + detail;
        }
    }
}
