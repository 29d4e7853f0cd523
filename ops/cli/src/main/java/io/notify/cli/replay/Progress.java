package io.notify.cli.replay;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * A one-line progress bar on stderr, redrawn in place with '\r': fraction of the offset range
 * consumed, records/s and the time left. Shown only when asked for ({@code --progress}) or, by
 * default, when stderr is a terminal and the run has lasted a second; never on stdout, so piped
 * output stays clean. Redraws at most four times a second.
 */
final class Progress {

    private static final long FIRST_DRAW_NANOS = 1_000_000_000L;
    private static final long REDRAW_NANOS = 250_000_000L;
    private static final int BAR = 30;

    private final PrintWriter err;
    private final long total;
    private final boolean enabled;
    private final boolean forced;
    private final LongSupplier nanos;
    private final long started;
    private long lastDraw;
    private boolean drawn;
    private long done;

    Progress(PrintWriter err, long total, Boolean flag, LongSupplier nanos) {
        this.err = err;
        this.total = total;
        this.forced = Boolean.TRUE.equals(flag);
        this.enabled = flag != null ? flag : stderrIsTerminal();
        this.nanos = nanos;
        this.started = nanos.getAsLong();
    }

    static Progress off() {
        return new Progress(null, 0, false, System::nanoTime);
    }

    /** Best effort: on Linux, fd 2 pointing at a tty; elsewhere a console on stdin/stdout. */
    static boolean stderrIsTerminal() {
        try {
            Path fd2 = Path.of("/proc/self/fd/2");
            if (Files.isSymbolicLink(fd2)) {
                String target = Files.readSymbolicLink(fd2).toString();
                return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty");
            }
        } catch (Exception e) {
            // not Linux or not allowed: fall through
        }
        return System.console() != null;
    }

    /** Records {@code consumed} offsets of {@code total} so far; redraws when due. */
    void update(long consumed) {
        done = consumed;
        if (!enabled) {
            return;
        }
        long now = nanos.getAsLong();
        if ((drawn || forced || now - started >= FIRST_DRAW_NANOS) && (!drawn || now - lastDraw >= REDRAW_NANOS)) {
            draw(now);
        }
    }

    /** Draws the final state and ends the line, if a bar was drawn or forced. */
    void finish() {
        if (enabled && (drawn || forced)) {
            draw(nanos.getAsLong());
            err.print('\n');
            err.flush();
        }
    }

    private void draw(long now) {
        double seconds = Math.max(1e-3, (now - started) / 1e9);
        double rate = done / seconds;
        double fraction = total <= 0 ? 1 : Math.min(1, (double) done / total);
        int filled = (int) Math.round(fraction * BAR);
        String eta = rate <= 0 || total <= done ? "0s" : Math.round((total - done) / rate) + "s";
        err.print(String.format(Locale.ROOT, "\r[%s%s] %3d%% %,d/%,d records  %,.0f rec/s  ETA %s   ",
                "#".repeat(filled), ".".repeat(BAR - filled), Math.round(fraction * 100), done, total, rate, eta));
        err.flush();
        drawn = true;
        lastDraw = now;
    }
}
