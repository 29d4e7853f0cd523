package io.notify.registry;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;

/**
 * A WARN line at most once per interval for a failure that can repeat per event; the next line
 * says how many were suppressed, so nothing is hidden and nothing floods. Thread-safe. Shared by
 * both sides of the registry ({@code lease} and {@code route}); not meant for use outside it.
 */
public final class RateLimitedLog {

    private final Logger log;
    private final long intervalNanos;
    private final AtomicLong nextAllowed = new AtomicLong(Long.MIN_VALUE);
    private final AtomicLong suppressed = new AtomicLong();

    public RateLimitedLog(Logger log, Duration interval) {
        this.log = log;
        this.intervalNanos = interval.toNanos();
    }

    public void warn(String message, Throwable cause) {
        long now = System.nanoTime();
        long allowed = nextAllowed.get();
        if ((allowed == Long.MIN_VALUE || now - allowed >= 0) && nextAllowed.compareAndSet(allowed, now + intervalNanos)) {
            long skipped = suppressed.getAndSet(0);
            String suffix = skipped == 0 ? "" : " (" + skipped + " similar suppressed)";
            if (cause == null) {
                log.warn("{}{}", message, suffix);
            } else {
                log.warn("{}: {}{}", message, describe(cause), suffix);
            }
        } else {
            suppressed.incrementAndGet();
        }
    }

    public static String describe(Throwable t) {
        Throwable root = unwrap(t);
        String message = root.getMessage();
        return root.getClass().getSimpleName() + (message == null ? "" : ": " + message);
    }

    /** True when Redis answered with an error reply (e.g. WRONGTYPE): Redis is up, the data or command is not. */
    public static boolean isCommandError(Throwable t) {
        return t != null && unwrap(t) instanceof io.lettuce.core.RedisCommandExecutionException;
    }

    private static Throwable unwrap(Throwable t) {
        Throwable root = t;
        while ((root instanceof java.util.concurrent.CompletionException
                || root instanceof java.util.concurrent.ExecutionException) && root.getCause() != null) {
            root = root.getCause();
        }
        return root;
    }
}
