package io.notify.fanout;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What happens when a stream thread dies: it is replaced (its tasks restart from the last commit,
 * which under exactly_once_v2 rolls back everything uncommitted) up to {@code maxRestarts} times
 * within {@code window}; past that budget the whole client shuts down (state ERROR) so a
 * persistent fault stops loudly instead of looping. One known transient case needs the restart:
 * a write to a node topic deleted behind {@code NodeTopics}' back leaves the exactly-once
 * producer's transaction abortable, so the next write fails the task; after the restart the
 * router skips that topic (see README "Missing node topics"). Thread-safe.
 */
public final class ThreadRestartPolicy implements StreamsUncaughtExceptionHandler {

    private static final Logger LOG = LoggerFactory.getLogger(ThreadRestartPolicy.class);

    private final int maxRestarts;
    private final long windowMs;
    private final Clock clock;
    private final Deque<Long> restarts = new ArrayDeque<>();

    public ThreadRestartPolicy(int maxRestarts, Duration window, Clock clock) {
        this.maxRestarts = maxRestarts;
        this.windowMs = window.toMillis();
        this.clock = clock;
    }

    @Override
    public synchronized StreamThreadExceptionResponse handle(Throwable exception) {
        long now = clock.millis();
        while (!restarts.isEmpty() && now - restarts.peekFirst() > windowMs) {
            restarts.removeFirst();
        }
        if (restarts.size() >= maxRestarts) {
            LOG.error("stream thread failed; {} restarts within {} ms already, shutting this instance down",
                    restarts.size(), windowMs, exception);
            return StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
        }
        restarts.addLast(now);
        LOG.warn("stream thread failed; replacing it (restart {} of {} allowed within {} ms)", restarts.size(),
                maxRestarts, windowMs, exception);
        return StreamThreadExceptionResponse.REPLACE_THREAD;
    }
}
