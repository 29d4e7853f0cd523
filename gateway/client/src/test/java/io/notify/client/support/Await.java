package io.notify.client.support;

import java.time.Duration;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/** Waits on a condition with a deadline, polling briefly (never a fixed sleep as synchronization). */
public final class Await {

    private Await() {
    }

    public static void until(Supplier<String> what, Duration timeout, BooleanSupplier condition) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out after " + timeout.toMillis() + " ms waiting for " + what.get());
            }
            LockSupport.parkNanos(5_000_000);
        }
    }

    public static void until(String what, Duration timeout, BooleanSupplier condition) {
        until(() -> what, timeout, condition);
    }
}
