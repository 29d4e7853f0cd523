package io.notify.cli.bench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;

/** The bar's text, and how it is drawn on a terminal (in place) and elsewhere (a line per period). */
class ProgressBarTest {

    @Test
    void rendersFractionElapsedAndStatus() {
        assertEquals("[###############...............]  50%   13.0s  run 2/3", ProgressBar.render(0.5, 13.04, "run 2/3"));
        assertEquals("[##############################] 100%    1.0s  done", ProgressBar.render(1.7, 1, "done"));
        assertEquals("[..............................]   ?%    0.0s  starting", ProgressBar.render(Double.NaN, 0, "starting"));
        assertTrue(ProgressBar.render(0, 0, "x".repeat(500)).length() <= 160);
    }

    @Test
    void timedFractionMovesFromStartToEndAndStops() {
        assertEquals(0.25, ProgressBar.timed(0.25, 0.5, Duration.ofHours(1)).getAsDouble(), 0.001);
        assertEquals(0.5, ProgressBar.timed(0.25, 0.5, Duration.ZERO).getAsDouble(), 1e-9);
    }

    @Test
    void withoutATerminalPrintsWholeLines() throws Exception {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        try (ProgressBar bar = new ProgressBar(new PrintStream(buf, true, StandardCharsets.UTF_8), false, Duration.ofMillis(20))) {
            bar.set(0.5, "halfway");
            bar.println("a finished step");
            await(() -> text(buf).contains("halfway"));
        }
        String out = text(buf);
        assertFalse(out.contains("\r"));
        assertTrue(out.contains("a finished step\n"));
        assertTrue(out.lines().anyMatch(l -> l.startsWith("[###############...............]  50%") && l.endsWith("halfway")));
    }

    @Test
    void onATerminalRedrawsInPlaceAndKeepsLinesAboveTheBar() throws Exception {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        try (ProgressBar bar = new ProgressBar(new PrintStream(buf, true, StandardCharsets.UTF_8), true, Duration.ofSeconds(5))) {
            bar.set(0.1, "working");
            await(() -> text(buf).contains("working"));
            bar.println("step done");
        }
        String out = text(buf);
        assertTrue(out.startsWith("\r["), out);
        // the bar is wiped before the line, so the line starts at column 0
        assertTrue(out.contains("\rstep done\n") || out.matches("(?s).*\r +\rstep done\n.*"), out);
        assertTrue(out.endsWith("\n"));
    }

    private static String text(ByteArrayOutputStream buf) {
        return buf.toString(StandardCharsets.UTF_8);
    }

    private static void await(BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() < deadline, "timed out waiting for the bar");
            Thread.sleep(10); // polling a condition with a deadline
        }
    }
}
