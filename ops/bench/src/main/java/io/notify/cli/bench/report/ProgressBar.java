package io.notify.cli.bench.report;

import java.io.PrintStream;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.DoubleSupplier;
import java.util.function.Supplier;

/**
 * A progress bar on stderr while a bench runs: {@code [#########...........]  45%   13.0s  status}.
 * On a terminal ({@code System.console() != null}) it is redrawn in place with {@code \r} five
 * times a second; otherwise (a pipe, a log file, CI) one line is printed every few seconds. Lines
 * printed through {@link #println} appear above the bar. The fraction and status come from
 * suppliers set with {@link #track}; a NaN fraction shows an empty bar and no percentage.
 */
public final class ProgressBar implements AutoCloseable {

    static final int BAR = 30;
    private final PrintStream err;
    private final boolean terminal;
    private final long start = System.nanoTime();
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "bench-progress");
        t.setDaemon(true);
        return t;
    });
    private volatile DoubleSupplier fraction = () -> Double.NaN;
    private volatile Supplier<String> status = () -> "";
    private int drawnWidth;

    ProgressBar(PrintStream err, boolean terminal, Duration every) {
        this.err = err;
        this.terminal = terminal;
        long period = terminal ? 200 : every.toMillis();
        timer.scheduleAtFixedRate(this::draw, period, period, TimeUnit.MILLISECONDS);
    }

    /** A bar on {@code System.err}: in place on a terminal, a line every {@code every} otherwise. */
    public static ProgressBar start(Duration every) {
        return new ProgressBar(System.err, System.console() != null, every);
    }

    /** A bar on {@code System.err}, a line every 5 s when stderr is not a terminal. */
    public static ProgressBar start() {
        return start(Duration.ofSeconds(5));
    }

    /** Where the bar reads its fraction done (0..1, or NaN if unknown) and its status text from now on. */
    public ProgressBar track(DoubleSupplier fraction, Supplier<String> status) {
        this.fraction = fraction;
        this.status = status;
        return this;
    }

    /** Sets a fixed fraction and status. */
    public ProgressBar set(double fraction, String status) {
        return track(() -> fraction, () -> status);
    }

    /**
     * A fraction that moves linearly from {@code from} to {@code to} over {@code expected} from now
     * (and stops at {@code to}): for phases whose length is known but whose inside is not visible.
     */
    public static DoubleSupplier timed(double from, double to, Duration expected) {
        long t0 = System.nanoTime();
        double nanos = Math.max(1, expected.toNanos());
        return () -> from + (to - from) * Math.min(1, (System.nanoTime() - t0) / nanos);
    }

    /** Prints a line above the bar (on a terminal the bar is cleared first and redrawn next tick). */
    public synchronized void println(String line) {
        clear();
        err.println(line);
    }

    private synchronized void draw() {
        String line;
        try {
            line = render(fraction.getAsDouble(), (System.nanoTime() - start) / 1e9, status.get());
        } catch (RuntimeException e) {
            line = render(Double.NaN, (System.nanoTime() - start) / 1e9, "progress: " + e);
        }
        if (terminal) {
            err.print("\r" + line + " ".repeat(Math.max(0, drawnWidth - line.length())));
            drawnWidth = line.length();
        } else {
            err.println(line);
        }
        err.flush();
    }

    private void clear() {
        if (terminal && drawnWidth > 0) {
            err.print("\r" + " ".repeat(drawnWidth) + "\r");
            drawnWidth = 0;
        }
    }

    /** One bar line; pure. */
    static String render(double fraction, double seconds, String status) {
        boolean known = Double.isFinite(fraction);
        double f = known ? Math.max(0, Math.min(1, fraction)) : 0;
        int filled = (int) Math.floor(f * BAR);
        String pct = known ? String.format("%3d%%", (int) Math.floor(f * 100)) : "  ?%";
        String line = String.format("[%s%s] %s %6.1fs  %s", "#".repeat(filled), ".".repeat(BAR - filled), pct, seconds, status);
        return line.length() > 160 ? line.substring(0, 157) + "..." : line;
    }

    /** Stops redrawing; on a terminal the final state stays on its own line. */
    @Override
    public synchronized void close() {
        timer.shutdownNow();
        if (terminal && drawnWidth > 0) {
            err.println();
            drawnWidth = 0;
        }
    }
}
