package io.notify.client.internal;

import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The two daemon threads of a client: the event loop (all state, all listener callbacks, all
 * timers) and the token thread (the token supplier may block). Work submitted after shutdown is
 * refused quietly; an exception escaping a task is logged, never lost and never fatal to the loop.
 */
final class LoopThreads {

    private static final Logger LOG = LoggerFactory.getLogger(LoopThreads.class);
    private static final AtomicInteger IDS = new AtomicInteger();

    private final ScheduledThreadPoolExecutor loop;
    private final ExecutorService token;
    private volatile Thread loopThread;

    LoopThreads() {
        int id = IDS.incrementAndGet();
        this.loop = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "notify-client-" + id);
            t.setDaemon(true);
            loopThread = t;
            return t;
        });
        loop.setRemoveOnCancelPolicy(true);
        loop.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
        this.token = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "notify-client-" + id + "-token");
            t.setDaemon(true);
            return t;
        });
    }

    /** Runs {@code task} on the loop; false when the loop is shut down. */
    boolean run(Runnable task) {
        try {
            loop.execute(guard(task));
            return true;
        } catch (RejectedExecutionException e) {
            return false;
        }
    }

    /** Runs {@code task} on the loop after {@code delay}; null when the loop is shut down. */
    ScheduledFuture<?> schedule(Runnable task, Duration delay) {
        try {
            return loop.schedule(guard(task), Math.max(0, delay.toNanos()), TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException e) {
            return null;
        }
    }

    /** Runs {@code task} on the token thread; false when the client is closed. */
    boolean token(Runnable task) {
        try {
            token.execute(guard(task));
            return true;
        } catch (RejectedExecutionException e) {
            return false; // closed while connecting
        }
    }

    /** Runs {@code task} on the loop and waits for it (inline when already on the loop, e.g. from a listener). */
    void runAndWait(Runnable task, Duration timeout) {
        if (Thread.currentThread() == loopThread) {
            guard(task).run();
            return;
        }
        try {
            loop.submit(guard(task)).get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException | ExecutionException e) {
            // already shut down, or logged by guard
        } catch (TimeoutException e) {
            LOG.warn("the client's event loop did not finish closing within {} ms (a listener still running?)", timeout.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    void shutdown() {
        loop.shutdown();
        token.shutdownNow();
    }

    private static Runnable guard(Runnable task) {
        return () -> {
            try {
                task.run();
            } catch (RuntimeException | Error e) {
                LOG.error("unexpected failure in the notify client's event loop", e);
            }
        };
    }
}
