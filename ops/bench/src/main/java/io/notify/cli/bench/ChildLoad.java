package io.notify.cli.bench;

import io.notify.devstack.JavaProcess;
import io.notify.protocol.NotifyJson;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * A measuring client in a child JVM of its own (own heap, own GC; it exits by itself when this
 * JVM dies, see {@link JavaProcess}). The child prints one {@code bench-result <LoadResult JSON>}
 * line and exits; the parent waits for that within a bound and kills the child past it.
 */
final class ChildLoad {

    static final String RESULT_PREFIX = "bench-result ";
    private static final List<String> JVM = List.of("-Xmx512m", "-XX:+UseParallelGC");

    private ChildLoad() {
    }

    /** Runs {@code mainClass} with {@code args} and returns its result; fails past {@code bound}. */
    static LoadResult run(Class<?> mainClass, List<String> args, Path log, Duration bound)
            throws IOException, InterruptedException {
        return run(mainClass, args, Map.of(), log, bound);
    }

    /** As {@link #run(Class, List, Path, Duration)}, with {@code environment} for the child: where its secrets go. */
    static LoadResult run(Class<?> mainClass, List<String> args, Map<String, String> environment, Path log, Duration bound)
            throws IOException, InterruptedException {
        JavaProcess child = new JavaProcess(mainClass.getName(), args, JVM, log, environment).start();
        try {
            long deadline = System.nanoTime() + bound.toNanos();
            while (child.isAlive()) {
                if (System.nanoTime() - deadline > 0) {
                    throw new IOException(mainClass.getSimpleName() + " did not finish within " + bound + "; see " + log);
                }
                TimeUnit.MILLISECONDS.sleep(100); // poll interval of a bounded wait for the child's exit
            }
        } finally {
            child.kill();
        }
        String json = lastResult(Files.readAllLines(log, StandardCharsets.UTF_8))
                .orElseThrow(() -> new IOException(mainClass.getSimpleName() + " printed no result; see " + log));
        return NotifyJson.mapper().readValue(json, LoadResult.class);
    }

    /** The child side: prints the result line and exits (Kafka clients may leave threads behind). */
    static void emit(LoadResult result) {
        try {
            System.out.println(RESULT_PREFIX + NotifyJson.mapper().writeValueAsString(result));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        System.out.flush();
        System.exit(0);
    }

    /** The JSON of the last result line of a child's output, if any. */
    static Optional<String> lastResult(List<String> lines) {
        for (int i = lines.size() - 1; i >= 0; i--) {
            if (lines.get(i).startsWith(RESULT_PREFIX)) {
                return Optional.of(lines.get(i).substring(RESULT_PREFIX.length()));
            }
        }
        return Optional.empty();
    }
}
