package io.notify.client.reconnect;

import java.time.Duration;

/**
 * What a client does after a {@link Disconnect}: stop, or retry after {@code delay}, optionally
 * with a fresh token and/or on SSE from now on.
 */
public record ReconnectPlan(boolean stop, Duration delay, boolean refreshToken, boolean switchToSse) {

    public static ReconnectPlan stopped() {
        return new ReconnectPlan(true, Duration.ZERO, false, false);
    }

    public static ReconnectPlan retry(Duration delay) {
        return new ReconnectPlan(false, delay, false, false);
    }

    public ReconnectPlan withFreshToken() {
        return new ReconnectPlan(stop, delay, true, switchToSse);
    }

    public ReconnectPlan onSse() {
        return new ReconnectPlan(stop, delay, refreshToken, true);
    }
}
