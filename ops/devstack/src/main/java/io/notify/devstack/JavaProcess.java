package io.notify.devstack;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Notify service (any class with a {@code main}) running in a child JVM on this JVM's classpath,
 * for tests and chaos runs that must crash it for real: {@link #kill()} is {@code kill -9},
 * {@link #stop()} is SIGTERM (the service's shutdown hook runs). Output goes to a log file; the
 * child exits by itself when this JVM dies (see {@link ChildMain}).
 */
public final class JavaProcess implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(JavaProcess.class);

    private final String mainClass;
    private final List<String> args;
    private final List<String> jvmOptions;
    private final Path logFile;
    private final Map<String, String> environment;
    /** The whole command line when not a JVM on this classpath ({@link #command}); null otherwise. */
    private final List<String> command;
    private Process process;

    public JavaProcess(String mainClass, List<String> args, List<String> jvmOptions, Path logFile) {
        this(mainClass, args, jvmOptions, logFile, Map.of());
    }

    /** @param environment added to the child's environment: where secrets go, since other users can read a command line */
    public JavaProcess(String mainClass, List<String> args, List<String> jvmOptions, Path logFile, Map<String, String> environment) {
        this.mainClass = mainClass;
        this.args = List.copyOf(args);
        this.jvmOptions = List.copyOf(jvmOptions);
        this.logFile = logFile;
        this.environment = Map.copyOf(environment);
        this.command = null;
    }

    private JavaProcess(String name, List<String> command, Path logFile, Map<String, String> environment) {
        this.mainClass = name;
        this.args = List.of();
        this.jvmOptions = List.of();
        this.logFile = logFile;
        this.environment = Map.copyOf(environment);
        this.command = List.copyOf(command);
    }

    /**
     * A service started by {@code command} as it stands (a container image's entrypoint run in its
     * root file system, say), with {@code environment} added: signals, logs and waits as for a child
     * JVM. Unlike one, it does not exit by itself when this JVM dies: close it.
     */
    public static JavaProcess command(String name, List<String> command, Path logFile, Map<String, String> environment) {
        return new JavaProcess(name, command, logFile, environment);
    }

    public synchronized JavaProcess start() throws IOException {
        if (process != null && process.isAlive()) {
            throw new IllegalStateException(mainClass + " is already running");
        }
        List<String> cmd = new ArrayList<>();
        if (command != null) {
            cmd.addAll(command);
        } else {
            cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
            cmd.addAll(jvmOptions);
            cmd.add("-cp");
            cmd.add(absoluteClasspath());
            cmd.add(ChildMain.class.getName());
            cmd.add(mainClass);
            cmd.addAll(args);
        }
        Files.createDirectories(logFile.toAbsolutePath().getParent());
        ProcessBuilder builder = new ProcessBuilder(cmd);
        builder.environment().putAll(environment);
        process = builder
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile()))
                .redirectInput(ProcessBuilder.Redirect.PIPE)
                .start();
        return this;
    }

    /** Waits until the log contains {@code text} (e.g. a "started" line); fails if the child dies first. */
    public void awaitLog(String text, Duration timeout) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (Files.exists(logFile) && Files.readString(logFile, StandardCharsets.UTF_8).contains(text)) {
                return;
            }
            if (!isAlive()) {
                throw new IOException(mainClass + " exited with " + process.exitValue() + " before logging '" + text
                        + "'; see " + logFile);
            }
            TimeUnit.MILLISECONDS.sleep(50); // poll interval of a bounded condition wait
        }
        throw new IOException(mainClass + " did not log '" + text + "' within " + timeout + "; see " + logFile);
    }

    /** kill -9: no shutdown hook, no flush, no goodbye. */
    public synchronized void kill() throws InterruptedException {
        ProcessSignals.kill(process, Duration.ofSeconds(30), mainClass);
    }

    /** SIGTERM, then SIGKILL after {@code grace}. */
    public synchronized void stop(Duration grace) throws InterruptedException {
        ProcessSignals.terminate(process, grace, LOG, mainClass);
    }

    public synchronized boolean isAlive() {
        return process != null && process.isAlive();
    }

    public synchronized long pid() {
        return process == null ? -1 : process.pid();
    }

    public Path logFile() {
        return logFile;
    }

    @Override
    public void close() throws InterruptedException {
        stop(Duration.ofSeconds(10));
    }

    /** This JVM's classpath with absolute entries, for a child started elsewhere. */
    public static String absoluteClasspath() {
        List<String> parts = new ArrayList<>();
        for (String p : System.getProperty("java.class.path").split(java.io.File.pathSeparator)) {
            if (!p.isBlank()) {
                parts.add(Path.of(p).toAbsolutePath().toString());
            }
        }
        return String.join(java.io.File.pathSeparator, parts);
    }
}
