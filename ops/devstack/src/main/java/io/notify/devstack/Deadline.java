package io.notify.devstack;

import java.time.Duration;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * A point in time by which something must have happened; the only way this module waits.
 *
 * <p>Guarantees: {@link #await} returns as soon as the condition holds and throws
 * {@link TimeoutException} once the deadline has passed; it never waits without a bound.
 */
record Deadline(long deadlineNanos, Duration timeout) {

    static Deadline in(Duration timeout) {
        return new Deadline(System.nanoTime() + timeout.toNanos(), timeout);
    }

    long remainingMillis() {
        return Math.max(0, (deadlineNanos - System.nanoTime()) / 1_000_000);
    }

    boolean expired() {
        return System.nanoTime() - deadlineNanos >= 0;
    }

    /**
     * Polls {@code condition} every {@code pollInterval} until it holds. The pause between polls is
     * a bounded park, not a synchronisation mechanism: the condition itself is the signal.
     */
    void await(String what, Duration pollInterval, BooleanSupplier condition) throws TimeoutException {
        while (!condition.getAsBoolean()) {
            if (expired()) {
                throw new TimeoutException(what + " did not happen within " + timeout);
            }
            LockSupport.parkNanos(
                    Math.min(pollInterval.toNanos(), Math.max(1, deadlineNanos - System.nanoTime())));
            if (Thread.interrupted()) {
                Thread.currentThread().interrupt();
                throw new TimeoutException(what + ": interrupted while waiting");
            }
        }
    }
}
