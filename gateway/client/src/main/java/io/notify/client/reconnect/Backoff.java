package io.notify.client.reconnect;

import java.time.Duration;
import java.util.Objects;
import java.util.random.RandomGenerator;

/**
 * Exponential backoff with full jitter: the n-th delay (n counted from 0 since the last
 * {@link #reset}) is uniform on {@code [0, min(cap, base·2^n)]}. Full jitter rather than
 * {@code base + jitter}: a fleet of clients cut off at the same moment spreads over the whole
 * window instead of arriving together a little later (seed 001, AWS "Exponential Backoff And
 * Jitter"). The caller resets it only after a connection really opened (the gateway's
 * {@code welcome}), never on a bare TCP connect, so a node that accepts and drops keeps backing off.
 *
 * <p>Not thread-safe: a client uses it from its event thread only. The random source is injected
 * so tests can seed it.
 */
public final class Backoff {

    public static final Duration DEFAULT_BASE = Duration.ofSeconds(1);
    public static final Duration DEFAULT_CAP = Duration.ofSeconds(60);
    /** Attempts beyond this keep the cap; it only stops the counter from growing without bound. */
    private static final int MAX_ATTEMPT = 64;

    private final long baseMillis;
    private final long capMillis;
    private final RandomGenerator random;
    private int attempt;

    /**
     * @param base the ceiling of the first delay (at least 1 ms)
     * @param cap  the largest ceiling, at least {@code base}
     */
    public Backoff(Duration base, Duration cap, RandomGenerator random) {
        this.baseMillis = base.toMillis();
        this.capMillis = cap.toMillis();
        this.random = Objects.requireNonNull(random, "random");
        if (baseMillis < 1) {
            throw new IllegalArgumentException("backoff base must be at least 1 ms, got " + base);
        }
        if (capMillis < baseMillis) {
            throw new IllegalArgumentException("backoff cap (" + cap + ") must be at least the base (" + base + ")");
        }
    }

    /** 1 s doubling to 60 s, as docs/protocol.md §5 prescribes. */
    public static Backoff defaults(RandomGenerator random) {
        return new Backoff(DEFAULT_BASE, DEFAULT_CAP, random);
    }

    /** The ceiling of the next delay: {@code min(cap, base·2^attempt)}. */
    public Duration ceiling() {
        return Duration.ofMillis(ceilingMillis());
    }

    /** The next delay, uniform on {@code [0, ceiling()]}; then the attempt counter goes up by one. */
    public Duration nextDelay() {
        long ceiling = ceilingMillis();
        attempt = Math.min(attempt + 1, MAX_ATTEMPT);
        return Duration.ofMillis(random.nextLong(ceiling + 1));
    }

    /** A delay uniform on {@code [0, max]} that leaves the attempt counter alone (prompt reconnects). */
    public Duration jitter(Duration max) {
        long m = Math.max(0, max.toMillis());
        return Duration.ofMillis(random.nextLong(m + 1));
    }

    /** Back to the first ceiling: call only after a successful open. */
    public void reset() {
        attempt = 0;
    }

    /** Delays taken since the last reset. */
    public int attempt() {
        return attempt;
    }

    private long ceilingMillis() {
        return ceilingMillis(baseMillis, capMillis, attempt);
    }

    /**
     * The default policy's delay after {@code attempt} delays (from 0) for a uniform {@code u} in
     * [0, 1), without an instance: for callers that keep only a counter per client, such as a load
     * generator holding tens of thousands of them.
     */
    public static long delayMillis(int attempt, double u) {
        long ceiling = ceilingMillis(DEFAULT_BASE.toMillis(), DEFAULT_CAP.toMillis(), attempt);
        return (long) (u * (ceiling + 1));
    }

    private static long ceilingMillis(long baseMillis, long capMillis, int attempt) {
        // base·2^attempt overflows long long before the cap matters: stop doubling once past the cap
        if (attempt >= Long.numberOfLeadingZeros(baseMillis) - 1) {
            return capMillis;
        }
        return Math.min(capMillis, baseMillis << attempt);
    }
}
