package io.notify.devstack;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeoutException;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import org.apache.kafka.common.utils.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real single-node KRaft Kafka (broker and controller in one server) running inside this JVM.
 *
 * <p>Guarantees: when {@link #start} returns, the broker answers {@code describeCluster} on
 * {@link #bootstrapServers()}; internal topics have replication factor 1 so consumer groups and
 * transactions work; a fatal broker error cannot end this JVM (see {@link KafkaExitGuard});
 * {@link #close()} stops the broker, waits for it, and deletes the data dir when it was a
 * temporary one. Closing twice is harmless.
 */
public final class EmbeddedKafkaBroker implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedKafkaBroker.class);

    private final BrokerConfig config;
    private final Path dataDir;
    private final boolean temporaryDataDir;
    private final KafkaRaftServer server;
    private final Duration startupTime;
    private boolean closed;

    private EmbeddedKafkaBroker(BrokerConfig config, Path dataDir, boolean temporaryDataDir,
            KafkaRaftServer server, Duration startupTime) {
        this.config = config;
        this.dataDir = dataDir;
        this.temporaryDataDir = temporaryDataDir;
        this.server = server;
        this.startupTime = startupTime;
    }

    /** Starts a broker with {@link BrokerOptions#defaults()}: free ports, temporary data dir. */
    public static EmbeddedKafkaBroker start() {
        return start(BrokerOptions.defaults());
    }

    /**
     * Writes {@code server.properties} into the data dir, formats the storage (unless already
     * formatted), starts the server and waits until it is ready.
     */
    public static EmbeddedKafkaBroker start(BrokerOptions options) {
        long begin = System.nanoTime();
        boolean temporary = options.dataDir() == null;
        Path dataDir = DataDirs.createOrTemp(options.dataDir(), "notify-kafka-");
        KafkaRaftServer server = null;
        try {
            int[] ports = resolvePorts(options);
            BrokerConfig config = BrokerConfig.of(ports[0], ports[1], dataDir, options);
            Path propertiesFile = dataDir.resolve("server.properties");
            config.writeTo(propertiesFile);

            KafkaExitGuard.install();
            KafkaStorage.format(propertiesFile, config.logDir());
            server = new KafkaRaftServer(KafkaConfig.fromProps(config.toProperties(), false), Time.SYSTEM);
            server.startup();
            KafkaReadiness.await(config.bootstrapServers(), options.startTimeout(), () -> true,
                    () -> "Data dir: " + dataDir);

            Duration took = Duration.ofNanos(System.nanoTime() - begin);
            LOG.info("embedded Kafka ready at {} in {} ms (data dir {})", config.bootstrapServers(), took.toMillis(),
                    dataDir);
            return new EmbeddedKafkaBroker(config, dataDir, temporary, server, took);
        } catch (TimeoutException | RuntimeException e) {
            if (server != null) {
                stopQuietly(server);
            }
            if (temporary) {
                DataDirs.deleteRecursively(dataDir);
            }
            throw new IllegalStateException("embedded Kafka did not start: " + e.getMessage(), e);
        }
    }

    private static int[] resolvePorts(BrokerOptions options) {
        if (options.port() == 0 && options.controllerPort() == 0) {
            return FreePorts.pick(2);
        }
        int port = FreePorts.resolve(options.port());
        int controllerPort = options.controllerPort();
        while (controllerPort == 0 || controllerPort == port) {
            controllerPort = FreePorts.pick();
        }
        return new int[] {port, controllerPort};
    }

    /** {@code "127.0.0.1:<port>"}. */
    public String bootstrapServers() {
        return config.bootstrapServers();
    }

    public int port() {
        return config.port();
    }

    public int controllerPort() {
        return config.controllerPort();
    }

    public Path dataDir() {
        return dataDir;
    }

    /** Wall time from {@link #start} to the first successful describeCluster. */
    public Duration startupTime() {
        return startupTime;
    }

    /** The configuration the broker was started with. */
    public BrokerConfig config() {
        return config;
    }

    /** Stops the broker and waits for it; deletes the data dir if it was temporary. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        stopQuietly(server);
        if (temporaryDataDir) {
            DataDirs.deleteRecursively(dataDir);
        }
    }

    private static void stopQuietly(KafkaRaftServer server) {
        try {
            server.shutdown();
            server.awaitShutdown();
        } catch (RuntimeException e) {
            LOG.warn("embedded Kafka did not shut down cleanly", e);
        }
    }

    @Override
    public String toString() {
        return "EmbeddedKafkaBroker[" + bootstrapServers() + ", dataDir=" + dataDir
                + (Files.exists(dataDir) ? "" : " (deleted)") + "]";
    }
}
