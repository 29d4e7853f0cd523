package io.notify.cli.bench.gateway;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/** A status line on stderr every few seconds while a phase runs; {@link #close} stops it. */
final class ProgressLine implements AutoCloseable {

    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "bench-progress");
        t.setDaemon(true);
        return t;
    });

    private ProgressLine(Duration every, Supplier<String> line) {
        long start = System.nanoTime();
        timer.scheduleAtFixedRate(() -> {
            try {
                System.err.printf("  [%5.1fs] %s%n", (System.nanoTime() - start) / 1e9, line.get());
            } catch (RuntimeException e) {
                System.err.println("  progress: " + e);
            }
        }, every.toMillis(), every.toMillis(), TimeUnit.MILLISECONDS);
    }

    static ProgressLine every(Duration every, Supplier<String> line) {
        return new ProgressLine(every, line);
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
