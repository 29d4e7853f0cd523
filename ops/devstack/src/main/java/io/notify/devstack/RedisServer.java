package io.notify.devstack;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real standalone {@code redis-server} as a child process, bound to 127.0.0.1 with persistence
 * off (no RDB snapshots, no AOF).
 *
 * <p>The port is fixed when the object is created, so {@link #restart()} comes back on the same
 * {@link #uri()}; data does not survive a restart. Guarantees: {@link #start()} returns only after
 * the server logged "Ready to accept connections" and answered {@code PING} with {@code +PONG};
 * {@link #stop()} is SIGTERM and waits for the exit (SIGKILL after {@link #STOP_TIMEOUT});
 * {@link #kill()} is SIGKILL; a JVM shutdown hook kills a server still running.
 */
public final class RedisServer extends ChildServer<RedisServer> {

    private static final Logger LOG = LoggerFactory.getLogger(RedisServer.class);

    public static final Duration STOP_TIMEOUT = Duration.ofSeconds(10);
    private static final String READY_MARKER = "Ready to accept connections";

    private final RedisOptions options;
    private final int port;
    private final Path dataDir;
    private Path binary;
    private volatile Process process;
    private ProcessOutput output;

    /** A server on a free port with a temporary dir; not started yet. */
    public RedisServer() {
        this(RedisOptions.defaults());
    }

    /** A server with these options; not started yet. */
    public RedisServer(RedisOptions options) {
        this(options, FreePorts.resolve(options.port()));
    }

    private RedisServer(RedisOptions options, int port) {
        super(options.dataDir(), "notify-redis-", "redis-" + port);
        this.options = options;
        this.port = port;
        this.dataDir = dataDir();
    }

    /** Creates and starts a server with these options. */
    public static RedisServer start(RedisOptions options) {
        RedisServer server = new RedisServer(options);
        try {
            return server.start();
        } catch (RuntimeException e) {
            server.close();
            throw e;
        }
    }

    /** Starts the server and waits until it is ready (logged ready, answered PING). */
    @Override
    void launch() {
        long begin = System.nanoTime();
        if (binary == null) {
            binary = options.binary() != null ? options.binary() : RedisBinary.locate();
        }
        List<String> command = new ArrayList<>(List.of(binary.toString()));
        if (options.password() != null) {
            command.add(passwordFile().toString()); // a config file, so the password is not on the command line
        }
        command.addAll(List.of(
                "--port", String.valueOf(port),
                "--bind", "127.0.0.1",
                "--save", "",
                "--appendonly", "no",
                "--protected-mode", "no",
                "--daemonize", "no",
                "--dir", dataDir.toString()));
        command.addAll(options.extraArgs());
        try {
            process = new ProcessBuilder(command)
                    .directory(dataDir.toFile())
                    .redirectErrorStream(true)
                    .start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + command, e);
        }
        output = ProcessOutput.drain(process.getInputStream(), READY_MARKER, "notify-devstack-redis-" + port + "-output");
        try {
            output.ready().get(options.startTimeout().toMillis(), TimeUnit.MILLISECONDS);
            String reply = RedisPing.ping("127.0.0.1", port, options.password(), Duration.ofSeconds(5));
            if (!"+PONG".equals(reply)) {
                throw new IllegalStateException("PING answered " + reply);
            }
        } catch (ExecutionException | TimeoutException | IOException | RuntimeException e) {
            killQuietly();
            Throwable cause = e instanceof ExecutionException ? e.getCause() : e;
            throw new IllegalStateException("redis-server (" + binary + ") on port " + port + " did not start: "
                    + cause.getMessage() + "\nOutput:\n" + output.tail(), cause);
        } catch (InterruptedException e) {
            killQuietly();
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while starting redis-server", e);
        }
        LOG.debug("Redis ({}) pid {} ready at {} in {} ms", binary, process.pid(), uri(),
                (System.nanoTime() - begin) / 1_000_000);
    }

    /** Graceful stop: SIGTERM, then waits for the exit; SIGKILL after {@link #STOP_TIMEOUT}. */
    @Override
    public synchronized void stop() {
        ProcessSignals.terminate(process, STOP_TIMEOUT, LOG, "redis-server");
    }

    /** SIGKILL; waits until the process is gone. */
    public synchronized void kill() {
        ProcessSignals.kill(process, STOP_TIMEOUT, "redis-server");
    }

    /** A config file holding only {@code requirepass}, readable by its owner alone. */
    private Path passwordFile() {
        Path file = dataDir.resolve("auth.conf");
        String quoted = options.password().replace("\\", "\\\\").replace("\"", "\\\"");
        try {
            Files.deleteIfExists(file);
            try {
                Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            } catch (UnsupportedOperationException notPosix) {
                Files.createFile(file); // the owner's defaults apply
            }
            Files.writeString(file, "requirepass \"" + quoted + "\"\n", StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
        return file;
    }

    @Override
    public boolean isAlive() {
        Process p = process;
        return p != null && p.isAlive();
    }

    /** Process id of the running server, or -1. */
    public long pid() {
        Process p = process;
        return p != null && p.isAlive() ? p.pid() : -1;
    }

    /** Sends {@code PING} over a plain socket; true when the answer is {@code +PONG}. */
    public boolean ping() {
        try {
            return "+PONG".equals(RedisPing.ping("127.0.0.1", port, options.password(), Duration.ofSeconds(2)));
        } catch (IOException e) {
            return false;
        }
    }

    /** {@code "redis://127.0.0.1:<port>"}; stays the same across restarts. */
    public String uri() {
        return "redis://127.0.0.1:" + port;
    }

    public int port() {
        return port;
    }

    /** The executable in use, once started. */
    public synchronized Path binary() {
        return binary;
    }

    @Override
    void killQuietly() {
        ProcessSignals.killQuietly(process, Duration.ofSeconds(5));
    }


    @Override
    public String toString() {
        return "RedisServer[" + uri() + ", dataDir=" + dataDir + ", alive=" + isAlive() + "]";
    }
}
