package io.notify.devstack;

import java.time.Duration;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * How tests wait: on a condition with a deadline, polling every 5 ms (never a fixed sleep as
 * synchronization). The one copy for every module's tests and the platform kit.
 */
public final class Await {

    private static final long POLL_NANOS = 5_000_000;

    private Await() {
    }

    /** Returns once {@code condition} holds; throws {@link AssertionError} naming {@code what} after {@code timeout}. */
    public static void until(String what, Duration timeout, BooleanSupplier condition) {
        until(() -> what, timeout, condition);
    }

    /** As {@link #until(String, Duration, BooleanSupplier)}; {@code what} is built only on failure (it may describe the state). */
    public static void until(Supplier<String> what, Duration timeout, BooleanSupplier condition) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("timed out after " + timeout.toMillis() + " ms waiting for " + what.get());
            }
            LockSupport.parkNanos(POLL_NANOS);
        }
    }
}
