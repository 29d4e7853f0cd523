package io.notify.devstack;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real single-node KRaft Kafka in a child JVM, for tests that stop, kill and restart a broker.
 *
 * <p>Ports and the data dir are fixed when the object is created, so every {@link #restart()}
 * comes back on the same {@link #bootstrapServers()} with the records written before. The child runs
 * {@code kafka.Kafka server.properties} on the classpath of this JVM (through
 * {@link ChildMain} running {@code kafka.Kafka}, which also ends the child when this JVM dies); its output goes to
 * {@code broker.log} in the data dir.
 *
 * <p>Guarantees: {@link #start()} returns only once the broker answers {@code describeCluster};
 * {@link #stop()} sends SIGTERM and waits for the exit (escalating to SIGKILL after
 * {@link #STOP_TIMEOUT}); {@link #kill()} is SIGKILL with no shutdown at all; {@link #close()} stops
 * the child and deletes a temporary data dir. A JVM shutdown hook kills a child still running.
 * Unless the options set them, {@code broker.session.timeout.ms=3000} and
 * {@code broker.heartbeat.interval.ms=500}, so a start after {@link #kill()} takes ~5 s, not ~12 s.
 */
public final class KafkaBrokerProcess extends ChildServer<KafkaBrokerProcess> {

    private static final Logger LOG = LoggerFactory.getLogger(KafkaBrokerProcess.class);

    /** How long a graceful stop may take before the child is killed. */
    private static final String KAFKA_MAIN = "kafka.Kafka";

    public static final Duration STOP_TIMEOUT = Duration.ofSeconds(30);

    /** JVM options of the child: a small heap and fast startup rather than peak throughput. */
    public static final List<String> DEFAULT_JVM_OPTIONS = List.of(
            "-Xms64m", "-Xmx320m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-XX:-UsePerfData",
            "-Djava.awt.headless=true");

    /**
     * JVM options of a broker that is measured (benchmarks, chaos runs): Kafka's own start-script
     * defaults (G1 with a 20 ms pause goal, full JIT), so the broker is not what a benchmark measures.
     */
    public static final List<String> SERVER_JVM_OPTIONS = List.of(
            "-Xms512m", "-Xmx1g", "-XX:+UseG1GC", "-XX:MaxGCPauseMillis=20", "-XX:InitiatingHeapOccupancyPercent=35",
            "-XX:+ExplicitGCInvokesConcurrent", "-Djava.awt.headless=true");

    private final BrokerOptions options;
    private final BrokerConfig config;
    private final Path dataDir;
    private final Path propertiesFile;
    private final Path logFile;
    private final List<String> jvmOptions;
    private final String classpath;
    private volatile Process process;
    private boolean formatted;

    /** A broker with free ports and a temporary data dir; not started yet. */
    public KafkaBrokerProcess() {
        this(BrokerOptions.defaults());
    }

    /** A broker with these options and the default JVM options; not started yet. */
    public KafkaBrokerProcess(BrokerOptions options) {
        this(options, DEFAULT_JVM_OPTIONS, System.getProperty("java.class.path"));
    }

    /**
     * @param jvmOptions options of the child JVM, e.g. {@link #DEFAULT_JVM_OPTIONS}
     * @param classpath  classpath of the child; must contain kafka_2.13 and this module
     */
    public KafkaBrokerProcess(BrokerOptions options, List<String> jvmOptions, String classpath) {
        this(withFastReRegistration(options), FreePorts.resolve(options.port()), jvmOptions, classpath);
    }

    private KafkaBrokerProcess(BrokerOptions options, int port, List<String> jvmOptions, String classpath) {
        super(options.dataDir(), "notify-kafka-proc-", "broker-" + port);
        this.options = options;
        this.dataDir = dataDir();
        int controllerPort = options.controllerPort();
        while (controllerPort == 0 || controllerPort == port) {
            controllerPort = FreePorts.pick();
        }
        this.config = BrokerConfig.of(port, controllerPort, dataDir, options);
        this.propertiesFile = dataDir.resolve("server.properties");
        this.logFile = dataDir.resolve("broker.log");
        this.jvmOptions = List.copyOf(jvmOptions);
        this.classpath = absolute(classpath);
    }

    /**
     * After a kill -9 the restarted node cannot register until the session of its previous
     * incarnation expired (Kafka's default: 9 s). A shorter session brings a killed broker back in
     * about 5 s instead of 12 s. Explicit extra properties win.
     */
    static BrokerOptions withFastReRegistration(BrokerOptions options) {
        BrokerOptions result = options;
        if (!options.extraProperties().containsKey("broker.session.timeout.ms")) {
            result = result.withProperty("broker.session.timeout.ms", "3000");
        }
        if (!options.extraProperties().containsKey("broker.heartbeat.interval.ms")) {
            result = result.withProperty("broker.heartbeat.interval.ms", "500");
        }
        return result;
    }

    /** Starts the child (formatting the storage on first start) and waits until it is ready. */
    @Override
    void launch() {
        long begin = System.nanoTime();
        if (!formatted) {
            config.writeTo(propertiesFile);
            KafkaExitGuard.install();
            KafkaStorage.format(propertiesFile, config.logDir());
            formatted = true;
        }
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmOptions);
        command.add("-cp");
        command.add(classpath);
        command.add(ChildMain.class.getName());
        command.add(KAFKA_MAIN);
        command.add(propertiesFile.toString());
        try {
            Files.writeString(logFile, "---- starting broker: " + String.join(" ", command.subList(0, command.size() - 4))
                    + " ... " + ChildMain.class.getName() + " " + KAFKA_MAIN + " " + propertiesFile + System.lineSeparator(),
                    StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
            process = new ProcessBuilder(command)
                    .directory(dataDir.toFile())
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile()))
                    // stdin stays a pipe: ChildMain exits when this JVM is gone and the pipe closes
                    .redirectInput(ProcessBuilder.Redirect.PIPE)
                    .start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start broker process " + command, e);
        }
        Process started = process;
        try {
            KafkaReadiness.await(bootstrapServers(), options.startTimeout(), started::isAlive,
                    () -> "Exit: " + (started.isAlive() ? "running" : started.exitValue())
                            + ". Last lines of " + logFile + ":\n" + logTail(40));
        } catch (TimeoutException | RuntimeException e) {
            killQuietly();
            throw new IllegalStateException("broker process did not start: " + e.getMessage(), e);
        }
        LOG.info("Kafka process pid {} ready at {} in {} ms", started.pid(), bootstrapServers(),
                (System.nanoTime() - begin) / 1_000_000);
    }

    /** Graceful stop: SIGTERM, then waits for the exit; SIGKILL after {@link #STOP_TIMEOUT}. */
    @Override
    public synchronized void stop() {
        Process p = process;
        if (p == null || !p.isAlive()) {
            return;
        }
        ProcessSignals.terminate(p, STOP_TIMEOUT, LOG, "broker");
        closeStdin(p);
    }

    /** SIGKILL: the broker gets no chance to flush or deregister; waits until the process is gone. */
    public synchronized void kill() {
        Process p = process;
        if (p == null) {
            return;
        }
        ProcessSignals.kill(p, STOP_TIMEOUT, "broker");
        closeStdin(p);
    }

    @Override
    public synchronized boolean isAlive() {
        return process != null && process.isAlive();
    }

    /** Process id of the running child, or -1. */
    public synchronized long pid() {
        return isAlive() ? process.pid() : -1;
    }

    /** {@code "127.0.0.1:<port>"}; stays the same across restarts. */
    public String bootstrapServers() {
        return config.bootstrapServers();
    }

    public int port() {
        return config.port();
    }

    /** The child's stdout and stderr. */
    public Path logFile() {
        return logFile;
    }

    /** The child runs in the data dir, so relative classpath entries are made absolute. */
    static String absolute(String classpath) {
        return Arrays.stream(classpath.split(File.pathSeparator))
                .filter(entry -> !entry.isEmpty())
                .map(entry -> Path.of(entry).toAbsolutePath().toString())
                .collect(Collectors.joining(File.pathSeparator));
    }

    @Override
    void killQuietly() {
        ProcessSignals.killQuietly(process, Duration.ofSeconds(10));
    }


    private static void closeStdin(Process p) {
        try {
            p.getOutputStream().close();
        } catch (IOException ignored) {
            // the process is gone; its pipe may already be broken
        }
    }

    private String logTail(int lines) {
        try {
            List<String> all = Files.readAllLines(logFile, StandardCharsets.UTF_8);
            return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
        } catch (IOException e) {
            return "(cannot read " + logFile + ": " + e.getMessage() + ")";
        }
    }

    @Override
    public String toString() {
        return "KafkaBrokerProcess[" + bootstrapServers() + ", dataDir=" + dataDir + ", pid=" + pid() + "]";
    }
}
