package io.notify.client.reconnect;

import io.notify.protocol.frame.CloseCode;
import java.time.Duration;
import java.util.Optional;

/**
 * Turns a {@link Disconnect} into a {@link ReconnectPlan} (docs/protocol.md §5, README "Reconnect"):
 *
 * <ul>
 *   <li>close codes follow {@link CloseCode#policyFor}: NEVER stops; PROMPTLY (1001 drain, 4001
 *       token expired — with a fresh token —, 4008 slow consumer) waits a small random delay
 *       {@code [0, promptly]}; BACKOFF (1006, 1011, 1013, 4009, 4029, unknown) takes the next
 *       full-jitter delay;</li>
 *   <li>an SSE stream ended by a drain waits the {@code retry:} the gateway wrote (it already
 *       spread its clients); any other end backs off;</li>
 *   <li>a refused handshake: 401 backs off with a fresh token; 403 stops; 429/503 back off, but at
 *       least Retry-After; other 5xx back off; on WebSocket any other status (a proxy that does not
 *       upgrade: 101 without the subprotocol, 200, 400, 404, 426, ...) switches to SSE when
 *       fallback is on, else backs off; on SSE any other 4xx stops (retrying fails the same way);</li>
 *   <li>unreachable, silent, unreadable frame, token failure: back off; resync: promptly.</li>
 * </ul>
 *
 * The backoff attempt counter is not reset here: the client resets it on {@code welcome}.
 */
public final class ReconnectPolicy {

    private final Backoff backoff;
    private final Duration promptly;
    private final Duration maxRetryAfter;

    /**
     * @param promptly      the largest delay of a PROMPTLY reconnect (1 s in the protocol)
     * @param maxRetryAfter the largest Retry-After honoured (a guard against absurd values)
     */
    public ReconnectPolicy(Backoff backoff, Duration promptly, Duration maxRetryAfter) {
        this.backoff = backoff;
        this.promptly = promptly;
        this.maxRetryAfter = maxRetryAfter;
    }

    /**
     * @param sseFallback the client is on WebSocket and may still switch to SSE
     */
    public ReconnectPlan decide(Disconnect why, boolean sseFallback) {
        if (why instanceof Disconnect.Closed c) {
            return switch (CloseCode.policyFor(c.code())) {
                case NEVER -> ReconnectPlan.stopped();
                case PROMPTLY -> {
                    ReconnectPlan plan = ReconnectPlan.retry(backoff.jitter(promptly));
                    yield c.code() == CloseCode.TOKEN_EXPIRED.code() ? plan.withFreshToken() : plan;
                }
                case BACKOFF -> ReconnectPlan.retry(backoff.nextDelay());
            };
        }
        if (why instanceof Disconnect.StreamEnded s) {
            return s.drainRetry().map(ReconnectPlan::retry).orElseGet(() -> ReconnectPlan.retry(backoff.nextDelay()));
        }
        if (why instanceof Disconnect.Refused r) {
            return refused(r, sseFallback);
        }
        if (why instanceof Disconnect.Resync) {
            return ReconnectPlan.retry(backoff.jitter(promptly));
        }
        return ReconnectPlan.retry(backoff.nextDelay());
    }

    private ReconnectPlan refused(Disconnect.Refused r, boolean sseFallback) {
        int s = r.status();
        if (s == 401) {
            return ReconnectPlan.retry(backoff.nextDelay()).withFreshToken();
        }
        if (s == 403) {
            return ReconnectPlan.stopped();
        }
        if (s == 429 || s == 503) {
            Duration delay = backoff.nextDelay();
            Optional<Duration> hint = r.retryAfter().map(d -> d.compareTo(maxRetryAfter) > 0 ? maxRetryAfter : d);
            return ReconnectPlan.retry(hint.filter(h -> h.compareTo(delay) > 0).orElse(delay));
        }
        if (s >= 500) {
            return ReconnectPlan.retry(backoff.nextDelay());
        }
        if (r.websocket()) {
            return sseFallback ? ReconnectPlan.retry(backoff.jitter(promptly)).onSse() : ReconnectPlan.retry(backoff.nextDelay());
        }
        return s >= 400 ? ReconnectPlan.stopped() : ReconnectPlan.retry(backoff.nextDelay());
    }
}
