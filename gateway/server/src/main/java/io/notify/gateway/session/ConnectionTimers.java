package io.notify.gateway.session;

import io.notify.gateway.config.GatewayConfig;
import io.notify.gateway.disconnect.Disconnect;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The liveness deadlines of one connection, set at its {@code welcome}: the next ping, the pong
 * deadline, the resume deadline and the end of its lifetime (docs/gateway.md, "Connection recycling").
 * The session's sweeper tick asks {@link #due} what is due. Guarantees: the pong deadline counts
 * from the write of the first ping not answered yet, not from its queueing, so a node whose own
 * writes lag does not blame its clients for it; everything but {@link #pingWritten} and
 * {@link #ponged} runs under the session's lock, and those two run on the connection's I/O thread
 * (the write completion and the read of a pong), so the pong state has one writer.
 */
final class ConnectionTimers {

    /** What a tick found due, most urgent first; {@code disconnect} is the limit it hits, null when none. */
    enum Due {
        TOKEN_EXPIRED(Disconnect.TOKEN_EXPIRED), RESUME_TIMEOUT(Disconnect.RESUME_TIMEOUT), MISSED_PONGS(Disconnect.MISSED_PONGS),
        RECYCLE(null), PING(null), NOTHING(null);

        final Disconnect disconnect;

        Due(Disconnect disconnect) {
            this.disconnect = disconnect;
        }

        /** The close reason of a limit that came due; null: the limit's own. */
        String detail(GatewayConfig config) {
            return switch (this) {
                case RESUME_TIMEOUT -> "no resume frame within " + config.resumeTimeout().toMillis() + " ms";
                case MISSED_PONGS -> "missed pongs";
                default -> null;
            };
        }
    }

    private static final long NEVER = Long.MAX_VALUE;

    private final long expiresAtMs;
    private long nextPingNanos = NEVER; // NEVER until the welcome
    private long resumeDeadlineNanos = NEVER; // NEVER: no resume awaited
    private long recycleAtNanos = NEVER; // NEVER: recycling off
    private volatile long pingOutNanos = NEVER; // the write of the first ping not answered yet; NEVER: none

    ConnectionTimers(long expiresAtMs) {
        this.expiresAtMs = expiresAtMs;
    }

    /** The welcome went out at {@code nowNanos}; a WebSocket client ({@code awaitResume}) now owes its resume. */
    void welcomed(long nowNanos, GatewayConfig config, boolean awaitResume) {
        nextPingNanos = nowNanos + config.pingInterval().toNanos();
        recycleAtNanos = lifetimeEnd(nowNanos, config);
        if (awaitResume) {
            resumeDeadlineNanos = nowNanos + config.resumeTimeout().toNanos();
        }
    }

    /** The resume came: no resume deadline any more. */
    void resumed() {
        resumeDeadlineNanos = NEVER;
    }

    /** What is due at {@code nowNanos} / {@code nowMs}; a due ping is scheduled again as it is reported. */
    Due due(long nowNanos, long nowMs, GatewayConfig config, boolean pongsExpected) {
        long pingOut = pingOutNanos;
        if (nowMs >= expiresAtMs) {
            return Due.TOKEN_EXPIRED;
        } else if (resumeDeadlineNanos != NEVER && nowNanos >= resumeDeadlineNanos) {
            return Due.RESUME_TIMEOUT;
        } else if (pongsExpected && pingOut != NEVER && nowNanos - pingOut > config.pongTimeout().toNanos()) {
            return Due.MISSED_PONGS;
        } else if (recycleAtNanos != NEVER && nowNanos - recycleAtNanos >= 0) {
            return Due.RECYCLE;
        } else if (nextPingNanos != NEVER && nowNanos >= nextPingNanos) {
            nextPingNanos = nowNanos + config.pingInterval().toNanos();
            return Due.PING;
        }
        return Due.NOTHING;
    }

    /** A ping reached the socket: the pong deadline starts, unless an earlier unanswered ping started it. */
    void pingWritten() {
        if (pingOutNanos == NEVER) {
            pingOutNanos = System.nanoTime();
        }
    }

    /** A pong (application or WebSocket): every ping written so far is answered. */
    void ponged() {
        pingOutNanos = NEVER;
    }

    /** When a connection welcomed at {@code nowNanos} is recycled: lifetime minus a uniform random jitter; NEVER when off. */
    private static long lifetimeEnd(long nowNanos, GatewayConfig config) {
        long lifetime = config.maxConnectionLifetime().toNanos();
        if (lifetime == 0) {
            return NEVER;
        }
        long jitter = config.connectionLifetimeJitter().toNanos();
        return nowNanos + lifetime - (jitter == 0 ? 0 : ThreadLocalRandom.current().nextLong(jitter + 1));
    }
}
