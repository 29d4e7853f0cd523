package io.notify.devstack;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Node.js and npm for the tests that run JavaScript: the AsyncAPI check (schemas), the client
 * package {@code clients/js} and the examples (ops/e2e). One place that finds the tools, installs a
 * folder's locked packages, runs a command with a bound, and starts a long-lived script.
 *
 * <p>Node and npm are part of what the build checks (.ci/run installs them): without them, or with
 * a Node older than asked for, a call fails with an {@link AssertionError} that says what to install,
 * never a silent skip. {@link #npmCi} runs {@code npm ci} only when {@code package-lock.json} changed
 * since the folder's last install (a stamp in {@code node_modules}), so a warm build does not touch
 * the registry. Every command has a timeout and its output (stdout and stderr) is returned whole.
 */
public final class NodeJs {

    /** Written into node_modules after a successful {@code npm ci}: the SHA-256 of the lock file it installed. */
    static final String STAMP = ".notify-lock.sha256";

    /** A finished command: its exit code and output. */
    public record Run(int exit, String output) {
    }

    private NodeJs() {
    }

    /** The major version of {@code node} on PATH; fails when it is missing or older than {@code minMajor}. */
    public static int requireNode(int minMajor, String forWhat) {
        String v = requireTool("node", "Node.js " + minMajor + "+", forWhat).trim();
        int major = v.matches("v\\d+\\..*") ? Integer.parseInt(v.substring(1, v.indexOf('.'))) : 0;
        if (major < minMajor) {
            throw new AssertionError(forWhat + " needs Node.js " + minMajor + " or newer; found " + v);
        }
        return major;
    }

    /** Fails unless {@code npm} is on PATH. */
    public static void requireNpm(String forWhat) {
        requireTool("npm", "npm", forWhat);
    }

    /**
     * The node options that give this Node a global {@code WebSocket}: none from Node 22 on,
     * {@code --experimental-websocket} on Node 20 and 21.
     */
    public static List<String> webSocketFlags(int nodeMajor) {
        return nodeMajor >= 22 ? List.of() : List.of("--experimental-websocket");
    }

    /** {@code npm ci} in {@code dir} unless its node_modules already holds what package-lock.json pins. */
    public static void npmCi(Path dir, String forWhat) {
        String lock = sha256(dir.resolve("package-lock.json"));
        Path stamp = dir.resolve("node_modules").resolve(STAMP);
        try {
            if (Files.isRegularFile(stamp) && Files.readString(stamp).equals(lock)) {
                return;
            }
            requireNpm(forWhat);
            Run install = run(dir, Duration.ofMinutes(5), Map.of(), "npm", "ci", "--prefer-offline", "--ignore-scripts",
                    "--no-audit", "--no-fund");
            if (install.exit() != 0) {
                throw new AssertionError("npm ci in " + dir.toAbsolutePath().normalize() + " failed (exit " + install.exit()
                        + "), needed for " + forWhat + ":\n" + install.output());
            }
            Files.writeString(stamp, lock);
        } catch (IOException e) {
            throw new AssertionError("cannot install the packages of " + dir + ": " + e, e);
        }
    }

    /** Runs {@code command} in {@code dir} with {@code env} added; fails when it does not finish within {@code timeout}. */
    public static Run run(Path dir, Duration timeout, Map<String, String> env, String... command) {
        try {
            Path out = Files.createTempFile("notify-node", ".log");
            try {
                ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
                        .redirectOutput(out.toFile()).redirectInput(ProcessBuilder.Redirect.from(nullDevice()));
                pb.environment().put("NO_COLOR", "1");
                pb.environment().putAll(env);
                Process p = pb.start();
                if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                    ProcessSignals.killTree(p, Duration.ofSeconds(10));
                    throw new AssertionError(String.join(" ", command) + " did not finish in " + timeout.toSeconds() + " s:\n"
                            + Files.readString(out));
                }
                return new Run(p.exitValue(), Files.readString(out));
            } finally {
                Files.deleteIfExists(out);
            }
        } catch (IOException e) {
            throw new AssertionError("cannot run " + String.join(" ", command) + " in " + dir + ": " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted running " + String.join(" ", command), e);
        }
    }

    /** {@link #run} that fails unless the command exits 0; its output. */
    public static String runOk(Path dir, Duration timeout, Map<String, String> env, String... command) {
        Run r = run(dir, timeout, env, command);
        if (r.exit() != 0) {
            throw new AssertionError(String.join(" ", command) + " in " + dir + " failed (exit " + r.exit() + "):\n" + r.output());
        }
        return r.output();
    }

    /**
     * Starts a long-lived command (a server, a subscriber) in {@code dir} and returns once a line of
     * its output contains {@code readyMarker}; fails if it ends or stays silent for {@code timeout}.
     * Closing the handle kills it and its children.
     */
    public static Started start(Path dir, Map<String, String> env, String readyMarker, Duration timeout, String... command) {
        ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true);
        pb.environment().put("NO_COLOR", "1");
        pb.environment().putAll(env);
        Process p;
        try {
            p = pb.start();
        } catch (IOException e) {
            throw new AssertionError("cannot start " + String.join(" ", command) + ": " + e, e);
        }
        Started started = new Started(p, ProcessOutput.drain(p.getInputStream(), readyMarker, "node-" + p.pid()), command);
        try {
            started.output.ready().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            return started;
        } catch (ExecutionException | TimeoutException e) {
            started.close();
            throw new AssertionError(String.join(" ", command) + " did not print \"" + readyMarker + "\" within "
                    + timeout.toSeconds() + " s. Last lines:\n" + started.output(), e);
        } catch (InterruptedException e) {
            started.close();
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted starting " + String.join(" ", command), e);
        }
    }

    /** A command started by {@link #start}. */
    public static final class Started implements AutoCloseable {
        private final Process process;
        private final ProcessOutput output;
        private final String name;

        private Started(Process process, ProcessOutput output, String[] command) {
            this.process = process;
            this.output = output;
            this.name = String.join(" ", command);
        }

        /** Its last lines of output. */
        public String output() {
            return output.tail();
        }

        /** Waits (at most {@code timeout}) until a line contains {@code text}; fails saying what was printed. */
        public void awaitLine(String what, String text, Duration timeout) {
            Await.until(() -> name + ": " + what + " (a line with \"" + text + "\"); last lines:\n" + output(), timeout,
                    () -> output().lines().anyMatch(l -> l.contains(text)));
        }

        public boolean isAlive() {
            return process.isAlive();
        }

        @Override
        public void close() {
            ProcessSignals.killTree(process, Duration.ofSeconds(10));
        }
    }

    private static String requireTool(String tool, String what, String forWhat) {
        try {
            Run version = run(Path.of("."), Duration.ofSeconds(30), Map.of(), tool, "--version");
            if (version.exit() == 0) {
                return version.output();
            }
        } catch (AssertionError e) {
            // not installed (cannot run): fail below
        }
        throw new AssertionError(what + " is required for " + forWhat + " but '" + tool
                + "' is not on PATH: install it (Debian: apt-get install nodejs npm; .ci/run does)");
    }

    private static File nullDevice() {
        return new File(System.getProperty("os.name").startsWith("Windows") ? "NUL" : "/dev/null");
    }

    private static String sha256(Path file) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file)));
        } catch (IOException e) {
            throw new AssertionError("cannot read " + file + ": " + e, e);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }

    /** The arguments of a command: {@code first} then {@code rest}. */
    public static String[] command(List<String> first, String... rest) {
        List<String> all = new ArrayList<>(first);
        all.addAll(List.of(rest));
        return all.toArray(String[]::new);
    }
}
