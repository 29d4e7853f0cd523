package io.notify.common.limits;

import java.util.function.LongSupplier;

/**
 * A token bucket: up to {@code capacity} tokens, refilled continuously at {@code ratePerSecond}.
 * {@link #tryTake()} never blocks; when it refuses, {@link #retryAfterSeconds()} says when one token
 * will be there again (at least 1 s, the granularity of {@code Retry-After}). Thread-safe (a short
 * synchronized section); time comes from {@code nanoTime} so tests drive it by hand.
 */
public final class TokenBucket {

    private final double capacity;
    private final double ratePerNano;
    private final LongSupplier nanoTime;
    private double tokens;
    private long lastRefill;

    public TokenBucket(double ratePerSecond, int capacity, LongSupplier nanoTime) {
        if (ratePerSecond <= 0 || capacity < 1) {
            throw new IllegalArgumentException("rate must be > 0 and capacity >= 1");
        }
        this.capacity = capacity;
        this.ratePerNano = ratePerSecond / 1e9;
        this.nanoTime = nanoTime;
        this.tokens = capacity;
        this.lastRefill = nanoTime.getAsLong();
    }

    public static TokenBucket system(double ratePerSecond, int capacity) {
        return new TokenBucket(ratePerSecond, capacity, System::nanoTime);
    }

    public synchronized boolean tryTake() {
        refill();
        if (tokens >= 1) {
            tokens -= 1;
            return true;
        }
        return false;
    }

    /** Whether a token is there now (none is taken). */
    public synchronized boolean hasToken() {
        refill();
        return tokens >= 1;
    }

    /** Whole seconds until one token is available, at least 1. */
    public synchronized int retryAfterSeconds() {
        refill();
        double missing = Math.max(0, 1 - tokens);
        double seconds = missing / ratePerNano / 1e9;
        return (int) Math.max(1, Math.ceil(seconds));
    }

    private void refill() {
        long now = nanoTime.getAsLong();
        long elapsed = now - lastRefill;
        if (elapsed > 0) {
            tokens = Math.min(capacity, tokens + elapsed * ratePerNano);
            lastRefill = now;
        }
    }
}
