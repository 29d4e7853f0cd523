package io.notify.devstack;

import java.nio.file.Path;

/**
 * Ports and data dir of a {@link DevStack}.
 *
 * @param kafkaPort           Kafka PLAINTEXT port; 0 picks a free one
 * @param kafkaControllerPort Kafka KRaft controller port; 0 picks a free one
 * @param redisPort           Redis port; 0 picks a free one
 * @param dataDir             parent of {@code kafka/} and {@code redis/}; null means temporary dirs
 *                            deleted on close
 * @param kafkaPartitions     default partitions of topics created without a count
 */
public record DevStackOptions(int kafkaPort, int kafkaControllerPort, int redisPort, Path dataDir, int kafkaPartitions) {

    /** Kafka's conventional client port, used by {@link #dev(Path)}. */
    public static final int DEV_KAFKA_PORT = 9092;
    /** Kafka's conventional controller port, used by {@link #dev(Path)}. */
    public static final int DEV_KAFKA_CONTROLLER_PORT = 9093;
    /** Redis's conventional port, used by {@link #dev(Path)}. */
    public static final int DEV_REDIS_PORT = 6379;

    public DevStackOptions {
        checkPort("kafkaPort", kafkaPort);
        checkPort("kafkaControllerPort", kafkaControllerPort);
        checkPort("redisPort", redisPort);
        if (kafkaPort != 0 && kafkaPort == kafkaControllerPort) {
            throw new IllegalArgumentException("kafkaPort and kafkaControllerPort must differ, both are " + kafkaPort);
        }
        if (kafkaPartitions < 1) {
            throw new IllegalArgumentException("kafkaPartitions must be >= 1, was " + kafkaPartitions);
        }
    }

    private static void checkPort(String name, int value) {
        if (value < 0 || value > 65535) {
            throw new IllegalArgumentException(name + " must be in 0..65535, was " + value);
        }
    }

    /** The documented developer ports (Kafka 9092/9093, Redis 6379) with data kept in {@code dataDir}. */
    public static DevStackOptions dev(Path dataDir) {
        return new DevStackOptions(DEV_KAFKA_PORT, DEV_KAFKA_CONTROLLER_PORT, DEV_REDIS_PORT, dataDir,
                BrokerOptions.DEFAULT_PARTITIONS);
    }

    /** Free ports and temporary data dirs: what tests use. */
    public static DevStackOptions forTests() {
        return new DevStackOptions(0, 0, 0, null, BrokerOptions.DEFAULT_PARTITIONS);
    }

    public DevStackOptions withKafkaPort(int port) {
        return new DevStackOptions(port, kafkaControllerPort, redisPort, dataDir, kafkaPartitions);
    }

    public DevStackOptions withKafkaControllerPort(int port) {
        return new DevStackOptions(kafkaPort, port, redisPort, dataDir, kafkaPartitions);
    }

    public DevStackOptions withRedisPort(int port) {
        return new DevStackOptions(kafkaPort, kafkaControllerPort, port, dataDir, kafkaPartitions);
    }

    public DevStackOptions withDataDir(Path dir) {
        return new DevStackOptions(kafkaPort, kafkaControllerPort, redisPort, dir, kafkaPartitions);
    }

    BrokerOptions brokerOptions() {
        return BrokerOptions.defaults()
                .withPort(kafkaPort)
                .withControllerPort(kafkaControllerPort)
                .withNumPartitions(kafkaPartitions)
                .withDataDir(dataDir == null ? null : dataDir.resolve("kafka"));
    }

    RedisOptions redisOptions() {
        return RedisOptions.defaults()
                .withPort(redisPort)
                .withDataDir(dataDir == null ? null : dataDir.resolve("redis"));
    }
}
