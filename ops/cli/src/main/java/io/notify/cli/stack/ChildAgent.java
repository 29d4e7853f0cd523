package io.notify.cli.stack;

import io.notify.devstack.JavaProcess;
import io.notify.protocol.NotifyJson;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A load generator or verifier in a JVM of its own (own heap, own threads), driven by one-line
 * commands on its stdin; its stdout lines are replies, except {@code progress ...} lines, of which
 * the latest is kept. Its stderr goes to a log file. Every wait is bounded; {@link #close} closes
 * its stdin (the child exits at end of stdin) and kills it if it lingers.
 */
public final class ChildAgent implements AutoCloseable {

    private final Process process;
    private final Path log;
    private final OutputStream stdin;
    /** Replies not yet awaited; a child answers one line per command, so more means it is misbehaving. */
    static final int MAX_UNREAD_REPLIES = 10_000;

    private final BlockingQueue<String> replies = new LinkedBlockingQueue<>(MAX_UNREAD_REPLIES);
    private volatile String progress = "";
    private volatile boolean overflowed;

    private ChildAgent(Process process, Path log) {
        this.process = process;
        this.log = log;
        this.stdin = process.getOutputStream();
        Thread reader = new Thread(this::readStdout, "agent-reader-" + process.pid());
        reader.setDaemon(true);
        reader.start();
    }

    /** Starts {@code mainClass} on this JVM's classpath. */
    public static ChildAgent start(String mainClass, List<String> jvmOptions, List<String> args, Path log) throws IOException {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(jvmOptions);
        cmd.add("-cp");
        cmd.add(JavaProcess.absoluteClasspath());
        cmd.add(mainClass);
        cmd.addAll(args);
        Files.createDirectories(log.toAbsolutePath().getParent());
        Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        return new ChildAgent(p, log);
    }

    private void readStdout() {
        try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = out.readLine()) != null) {
                if (line.startsWith("progress ")) {
                    progress = line.substring("progress ".length());
                } else if (!replies.offer(line)) {
                    overflowed = true; // reported by the next await
                }
            }
        } catch (IOException | RuntimeException e) {
            if (!replies.offer("error stdout: " + e)) {
                overflowed = true;
            }
        }
    }

    /** The latest progress line (without its "progress " prefix), or empty. */
    public String progress() {
        return progress;
    }

    public long pid() {
        return process.pid();
    }

    public Path log() {
        return log;
    }

    public void send(String command) throws IOException {
        stdin.write((command + "\n").getBytes(StandardCharsets.UTF_8));
        stdin.flush();
    }

    /** The rest of the next reply starting with {@code prefix}; fails on an error line, exit or timeout. */
    public String await(String prefix, Duration bound) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + bound.toNanos();
        while (true) {
            if (overflowed) {
                throw new IOException("agent " + pid() + " wrote over " + MAX_UNREAD_REPLIES + " unread replies; see " + log);
            }
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw new IOException("agent " + pid() + " sent no '" + prefix + "' within " + bound + "; see " + log);
            }
            String line = replies.poll(Math.min(left, 200_000_000L), TimeUnit.NANOSECONDS);
            if (line == null) {
                if (!process.isAlive() && replies.isEmpty()) {
                    throw new IOException("agent " + pid() + " exited with " + process.exitValue() + "; see " + log);
                }
                continue;
            }
            if (line.startsWith("error")) {
                throw new IOException("agent " + pid() + ": " + line + "; see " + log);
            }
            if (line.startsWith(prefix)) {
                return line.substring(prefix.length()).trim();
            }
        }
    }

    /** {@link #send} then {@link #await}, the reply parsed as JSON. */
    public <T> T call(String command, String replyPrefix, Class<T> type, Duration bound) throws IOException, InterruptedException {
        send(command);
        return NotifyJson.mapper().readValue(await(replyPrefix, bound), type);
    }

    @Override
    public void close() {
        try {
            stdin.close(); // the agent exits at end of stdin
        } catch (IOException ignored) {
            // already gone
        }
        try {
            if (!process.waitFor(5, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                process.waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
