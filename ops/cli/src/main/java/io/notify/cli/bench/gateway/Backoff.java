package io.notify.cli.bench.gateway;

/**
 * Client reconnect delays as docs/protocol.md §5 prescribes for BACKOFF: full jitter, a random
 * time in {@code [0, min(60 s, 1 s × 2^attempt))}, never earlier than a refusal's
 * {@code Retry-After} (the jitter is added on top of it, so refused clients do not return as one
 * herd when the delay ends).
 */
final class Backoff {

    static final long CAP_MS = 60_000;

    private Backoff() {
    }

    /**
     * @param failedAttempts     attempts that failed so far (1 after the first failure)
     * @param retryAfterSeconds  the refusal's {@code Retry-After}, or -1
     * @param uniform            a random number in [0, 1)
     */
    static long retryDelayMs(int failedAttempts, int retryAfterSeconds, double uniform) {
        int exponent = Math.max(0, Math.min(failedAttempts - 1, 16));
        long window = Math.min(CAP_MS, 1000L << exponent);
        long jitter = (long) (uniform * window);
        return retryAfterSeconds >= 0 ? retryAfterSeconds * 1000L + jitter : jitter;
    }
}
