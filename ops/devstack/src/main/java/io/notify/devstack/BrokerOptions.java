package io.notify.devstack;

import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * How to run one single-node KRaft Kafka (broker and controller in one server).
 *
 * @param port            PLAINTEXT listener port clients connect to; 0 picks a free port at start
 * @param controllerPort  CONTROLLER listener port; 0 picks a free port at start
 * @param dataDir         where {@code server.properties} and the logs live; null means a new
 *                        temporary directory that is deleted when the broker is closed
 * @param numPartitions   {@code num.partitions} for topics created without an explicit count
 * @param extraProperties broker properties applied last, overriding the defaults of
 *                        {@link BrokerConfig}
 * @param startTimeout    how long start (format, boot, first successful describeCluster) may take
 */
public record BrokerOptions(
        int port,
        int controllerPort,
        Path dataDir,
        int numPartitions,
        Map<String, String> extraProperties,
        Duration startTimeout) {

    public static final int DEFAULT_PARTITIONS = 3;
    public static final Duration DEFAULT_START_TIMEOUT = Duration.ofSeconds(60);

    public BrokerOptions {
        checkPort("port", port);
        checkPort("controllerPort", controllerPort);
        if (port != 0 && port == controllerPort) {
            throw new IllegalArgumentException("port and controllerPort must differ, both are " + port);
        }
        if (numPartitions < 1) {
            throw new IllegalArgumentException("numPartitions must be >= 1, was " + numPartitions);
        }
        extraProperties = Map.copyOf(extraProperties);
        if (startTimeout == null || startTimeout.isNegative() || startTimeout.isZero()) {
            throw new IllegalArgumentException("startTimeout must be positive, was " + startTimeout);
        }
    }

    /** Free ports, a temporary data dir, 3 partitions per topic. */
    public static BrokerOptions defaults() {
        return new BrokerOptions(0, 0, null, DEFAULT_PARTITIONS, Map.of(), DEFAULT_START_TIMEOUT);
    }

    public BrokerOptions withPort(int newPort) {
        return new BrokerOptions(newPort, controllerPort, dataDir, numPartitions, extraProperties, startTimeout);
    }

    public BrokerOptions withControllerPort(int newControllerPort) {
        return new BrokerOptions(port, newControllerPort, dataDir, numPartitions, extraProperties, startTimeout);
    }

    public BrokerOptions withDataDir(Path newDataDir) {
        return new BrokerOptions(port, controllerPort, newDataDir, numPartitions, extraProperties, startTimeout);
    }

    public BrokerOptions withNumPartitions(int newNumPartitions) {
        return new BrokerOptions(port, controllerPort, dataDir, newNumPartitions, extraProperties, startTimeout);
    }

    public BrokerOptions withStartTimeout(Duration newStartTimeout) {
        return new BrokerOptions(port, controllerPort, dataDir, numPartitions, extraProperties, newStartTimeout);
    }

    /** These options plus one extra broker property (replacing an earlier value of the same key). */
    public BrokerOptions withProperty(String key, String value) {
        Map<String, String> merged = new LinkedHashMap<>(extraProperties);
        merged.put(key, value);
        return new BrokerOptions(port, controllerPort, dataDir, numPartitions, merged, startTimeout);
    }

    private static void checkPort(String name, int value) {
        if (value < 0 || value > 65535) {
            throw new IllegalArgumentException(name + " must be in 0..65535, was " + value);
        }
    }
}
