package io.notify.cli.bench.gateway;

import io.notify.schemas.NotifyJson;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The parent's handle on one {@link LoadAgent} child JVM: commands go to its stdin, replies and
 * progress come from its stdout (read by a daemon thread), its stderr goes to a log file. Every
 * wait is bounded; {@link #close} kills the child (it also exits by itself at end of stdin).
 */
final class AgentProcess implements AutoCloseable {

    /** The latest "progress" line: open connections, phase done/failed/rejected, events received. */
    record Progress(long open, long done, long failed, long rejected, long events) {
        static final Progress NONE = new Progress(0, 0, 0, 0, 0);
    }

    private final Process process;
    private final Path log;
    private final OutputStream stdin;
    private final BlockingQueue<String> replies = new LinkedBlockingQueue<>();
    private volatile Progress progress = Progress.NONE;

    private AgentProcess(Process process, Path log) {
        this.process = process;
        this.log = log;
        this.stdin = process.getOutputStream();
        Thread reader = new Thread(this::readStdout, "agent-reader-" + process.pid());
        reader.setDaemon(true);
        reader.start();
    }

    static AgentProcess start(List<String> jvmOptions, List<String> args, Path log) throws IOException {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(jvmOptions);
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(LoadAgent.class.getName());
        cmd.addAll(args);
        Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        return new AgentProcess(p, log);
    }

    private void readStdout() {
        try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = out.readLine()) != null) {
                if (line.startsWith("progress ")) {
                    String[] f = line.split(" ");
                    progress = new Progress(Long.parseLong(f[1]), Long.parseLong(f[2]), Long.parseLong(f[3]),
                            Long.parseLong(f[4]), Long.parseLong(f[5]));
                } else {
                    replies.add(line);
                }
            }
        } catch (IOException | RuntimeException e) {
            replies.add("error stdout: " + e);
        }
    }

    Progress progress() {
        return progress;
    }

    long pid() {
        return process.pid();
    }

    void send(String command) throws IOException {
        stdin.write((command + "\n").getBytes(StandardCharsets.UTF_8));
        stdin.flush();
    }

    /** The rest of the next reply starting with {@code prefix}; fails on an error line, exit or timeout. */
    String await(String prefix, Duration bound) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + bound.toNanos();
        while (true) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw new IOException("load agent " + pid() + " sent no '" + prefix + "' within " + bound + "; see " + log);
            }
            String line = replies.poll(Math.min(left, 200_000_000L), TimeUnit.NANOSECONDS);
            if (line == null) {
                if (!process.isAlive() && replies.isEmpty()) {
                    throw new IOException("load agent " + pid() + " exited with " + process.exitValue() + "; see " + log);
                }
                continue;
            }
            if (line.startsWith("error")) {
                throw new IOException("load agent " + pid() + ": " + line + "; see " + log);
            }
            if (line.startsWith(prefix)) {
                return line.substring(prefix.length()).trim();
            }
        }
    }

    <T> T awaitJson(String prefix, Class<T> type, Duration bound) throws IOException, InterruptedException {
        return NotifyJson.mapper().readValue(await(prefix, bound), type);
    }

    @Override
    public void close() {
        try {
            stdin.close(); // the agent exits at end of stdin
        } catch (IOException ignored) {
            // already gone
        }
        try {
            if (!process.waitFor(2, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                process.waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
