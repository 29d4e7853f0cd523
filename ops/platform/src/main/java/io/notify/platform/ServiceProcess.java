package io.notify.platform;

import io.notify.common.config.Settings;
import io.notify.devstack.JavaProcess;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

/**
 * One Notify service (ingest, a fanout-streams instance or a gateway node) in a child JVM, with the
 * faults a chaos run needs: {@link #kill()} (kill -9), {@link #pause()}/{@link #resume()} (SIGSTOP,
 * SIGCONT) and {@link #restart()} on the same port and settings. Ready means {@code /readyz} answers 200.
 * {@code /metrics} is read from its management port ({@link #metrics}).
 */
public final class ServiceProcess implements AutoCloseable {

    private static final Duration HTTP_TIMEOUT = Duration.ofSeconds(3);
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(HTTP_TIMEOUT).build();

    private final String name;
    private final int port;
    private final int managementPort;
    private final JavaProcess process;
    private volatile boolean paused;

    /**
     * {@code settings} go to the child as {@code key=value} arguments, except its secrets ({@link
     * Settings#isSecret}): they go to a {@code --config} file beside the log, readable by its owner only
     * (a file carries every key; the environment cannot carry pass-through keys such as
     * {@code notify.kafka.client.sasl.jaas.config}).
     */
    ServiceProcess(String name, int port, int managementPort, String mainClass, Map<String, String> settings,
                   List<String> jvmOptions, Path log) {
        this.name = name;
        this.port = port;
        this.managementPort = managementPort;
        List<String> args = new ArrayList<>();
        Properties secrets = new Properties();
        settings.forEach((k, v) -> {
            if (Settings.isSecret(k, v)) {
                secrets.setProperty(k, v);
            } else {
                args.add(k + "=" + v);
            }
        });
        if (!secrets.isEmpty()) {
            args.add("--config=" + writeSecrets(log.resolveSibling(name + ".secrets.properties"), secrets));
        }
        this.process = new JavaProcess(mainClass, args, jvmOptions, log);
    }

    private ServiceProcess(String name, int port, int managementPort, JavaProcess process) {
        this.name = name;
        this.port = port;
        this.managementPort = managementPort;
        this.process = process;
    }

    /**
     * A service started by {@code launcher} (a container image's entrypoint in its root file system:
     * ops/e2e ImagesIT), not yet started. As in a container, its settings come as {@code key=value}
     * arguments and its secrets as environment variables ({@link Settings#envName}), so a secret
     * setting that is only read from files and arguments (a pass-through {@code notify.kafka.client.*}
     * key) is refused here.
     */
    public static ServiceProcess launched(String name, int port, int managementPort, List<String> launcher,
                                          Map<String, String> environment, Map<String, String> settings, Path log) {
        List<String> command = new ArrayList<>(launcher);
        Map<String, String> env = new java.util.LinkedHashMap<>(environment);
        settings.forEach((k, v) -> {
            if (!Settings.isSecret(k, v)) {
                command.add(k + "=" + v);
            } else if (k.startsWith("notify.kafka.client.")) {
                throw new IllegalArgumentException(k + " is a secret pass-through setting, which is never read from "
                        + "the environment: give the service a --config file instead");
            } else {
                env.put(Settings.envName(k), v);
            }
        });
        return new ServiceProcess(name, port, managementPort, JavaProcess.command(name, command, log, env));
    }

    private static Path writeSecrets(Path file, Properties secrets) {
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
            Files.deleteIfExists(file);
            try {
                Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            } catch (UnsupportedOperationException notPosix) {
                Files.createFile(file); // the owner's defaults apply
            }
            try (OutputStream out = Files.newOutputStream(file)) {
                secrets.store(out, "secrets of a Notify child service; readable by its owner only");
            }
            return file.toAbsolutePath();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    public ServiceProcess start() throws IOException {
        process.start();
        return this;
    }

    /** Waits until {@code /readyz} answers 200; fails when the child exits or {@code bound} passes. */
    public ServiceProcess awaitReady(Duration bound) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + bound.toNanos();
        while (System.nanoTime() - deadline < 0) {
            if (!process.isAlive()) {
                throw new IOException(name + " exited during start; see " + process.logFile());
            }
            if (ready()) {
                return this;
            }
            TimeUnit.MILLISECONDS.sleep(200); // poll interval of a bounded readiness wait
        }
        throw new IOException(name + " not ready within " + bound + "; see " + process.logFile());
    }

    /** True when {@code /readyz} answers 200 now. */
    public boolean ready() throws InterruptedException {
        try {
            return get("/readyz").statusCode() == 200;
        } catch (IOException notListening) {
            return false;
        }
    }

    public HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return get(path, HTTP_TIMEOUT);
    }

    public HttpResponse<String> get(String path, Duration timeout) throws IOException, InterruptedException {
        return send(baseUrl() + path, timeout);
    }

    /** {@code GET /metrics} on the management port. */
    public HttpResponse<String> metrics(Duration timeout) throws IOException, InterruptedException {
        return send("http://127.0.0.1:" + managementPort + "/metrics", timeout);
    }

    private static HttpResponse<String> send(String url, Duration timeout) throws IOException, InterruptedException {
        return HTTP.send(HttpRequest.newBuilder(URI.create(url)).timeout(timeout).GET().build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** kill -9. */
    public void kill() throws InterruptedException {
        process.kill();
        paused = false;
    }

    /** SIGSTOP: the process keeps its sockets and memory but runs no code until {@link #resume()}. */
    public void pause() throws IOException, InterruptedException {
        signal("STOP");
        paused = true;
    }

    /** SIGCONT after {@link #pause()}. */
    public void resume() throws IOException, InterruptedException {
        signal("CONT");
        paused = false;
    }

    private void signal(String sig) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", "-" + sig, Long.toString(process.pid()))
                .redirectErrorStream(true).start();
        if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
            kill.destroyForcibly();
            throw new IOException("kill -" + sig + " " + process.pid() + " failed for " + name);
        }
    }

    /** Starts the service again (after a kill or stop) with the same port and settings, and waits until ready. */
    public ServiceProcess restart(Duration bound) throws IOException, InterruptedException {
        if (process.isAlive()) {
            process.stop(Duration.ofSeconds(15));
        }
        process.start();
        return awaitReady(bound);
    }

    public String name() {
        return name;
    }

    public int port() {
        return port;
    }

    public int managementPort() {
        return managementPort;
    }

    public String baseUrl() {
        return "http://127.0.0.1:" + port;
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    public long pid() {
        return process.pid();
    }

    public Path logFile() {
        return process.logFile();
    }

    @Override
    public void close() throws IOException, InterruptedException {
        if (paused) {
            resume(); // a stopped process ignores SIGTERM until continued
        }
        process.stop(Duration.ofSeconds(15));
    }
}
