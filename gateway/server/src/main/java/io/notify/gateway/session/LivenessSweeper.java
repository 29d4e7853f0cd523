package io.notify.gateway.session;

import io.notify.common.logging.LogFields;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Drives every session's timers (pings, missed pongs, SSE keep-alives, token expiry, resume
 * timeout) from one periodic task instead of a timer per connection: cost per tick is one pass
 * over the table, with no allocation per idle connection. Timer resolution is the sweep interval.
 */
public final class LivenessSweeper implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(LivenessSweeper.class);

    private final SessionTable table;
    private final Clock clock;
    private final ScheduledFuture<?> task;

    public LivenessSweeper(SessionTable table, Clock clock, ScheduledExecutorService timer, Duration interval) {
        this.table = table;
        this.clock = clock;
        this.task = timer.scheduleWithFixedDelay(this::sweep, interval.toMillis(), interval.toMillis(), TimeUnit.MILLISECONDS);
    }

    void sweep() {
        long nanos = System.nanoTime();
        long millis = clock.millis();
        for (Session s : table.all()) {
            try {
                s.tick(nanos, millis);
            } catch (RuntimeException e) {
                try (LogFields f = s.logFields(s.stream())) {
                    LOG.error("liveness tick of connection {} failed", s.id(), e);
                }
            }
        }
    }

    @Override
    public void close() {
        task.cancel(false);
    }
}
