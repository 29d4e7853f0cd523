package io.notify.devstack;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.CompletableFuture;

/**
 * Drains a child process's output in a daemon thread and watches it for a readiness line.
 *
 * <p>Guarantees: the child never blocks on a full pipe; {@link #ready()} completes when a line
 * containing the marker appears, or fails when the output ends first; the last {@value #KEPT}
 * lines are kept for error messages and nothing more.
 */
final class ProcessOutput {

    static final int KEPT = 50;

    private final Deque<String> lastLines = new ArrayDeque<>();
    private final CompletableFuture<Void> ready = new CompletableFuture<>();

    private ProcessOutput() {
    }

    static ProcessOutput drain(InputStream output, String readyMarker, String threadName) {
        ProcessOutput watcher = new ProcessOutput();
        Thread thread = new Thread(() -> watcher.run(output, readyMarker), threadName);
        thread.setDaemon(true);
        thread.start();
        return watcher;
    }

    private void run(InputStream output, String readyMarker) {
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(output, StandardCharsets.UTF_8))) {
            String line;
            while ((line = reader.readLine()) != null) {
                remember(line);
                if (!ready.isDone() && line.contains(readyMarker)) {
                    ready.complete(null);
                }
            }
        } catch (IOException e) {
            // the JDK may close the pipe under a blocked reader when the process exits
            remember("(output ended: " + e.getMessage() + ")");
        }
        ready.completeExceptionally(new IllegalStateException("process output ended before \"" + readyMarker
                + "\". Last lines:\n" + tail()));
    }

    private synchronized void remember(String line) {
        if (lastLines.size() == KEPT) {
            lastLines.removeFirst();
        }
        lastLines.addLast(line);
    }

    /** Completes once the readiness marker was seen. */
    CompletableFuture<Void> ready() {
        return ready;
    }

    synchronized String tail() {
        return String.join("\n", lastLines);
    }
}
