package io.notify.devstack;

import java.time.Duration;

/**
 * Kafka (in-process, KRaft) and Redis (child process) started together: everything Notify needs
 * to run locally or in an integration test, with nothing installed but a JDK.
 *
 * <p>Guarantees: when {@link #start} returns both servers answer (describeCluster, PING); if one
 * fails to start the other is stopped again; {@link #close()} stops Redis, then Kafka, and deletes
 * temporary data dirs. Prints nothing; start times are logged at INFO.
 */
public final class DevStack implements AutoCloseable {

    private final EmbeddedKafkaBroker kafka;
    private final RedisServer redis;
    private final Duration startupTime;

    private DevStack(EmbeddedKafkaBroker kafka, RedisServer redis, Duration startupTime) {
        this.kafka = kafka;
        this.redis = redis;
        this.startupTime = startupTime;
    }

    public static DevStack start(DevStackOptions options) {
        long begin = System.nanoTime();
        RedisServer redis = RedisServer.start(options.redisOptions());
        try {
            EmbeddedKafkaBroker kafka = EmbeddedKafkaBroker.start(options.brokerOptions());
            return new DevStack(kafka, redis, Duration.ofNanos(System.nanoTime() - begin));
        } catch (RuntimeException e) {
            redis.close();
            throw e;
        }
    }

    /** {@code "127.0.0.1:<kafka port>"}. */
    public String bootstrapServers() {
        return kafka.bootstrapServers();
    }

    /** {@code "redis://127.0.0.1:<redis port>"}. */
    public String redisUri() {
        return redis.uri();
    }

    public EmbeddedKafkaBroker kafka() {
        return kafka;
    }

    public RedisServer redis() {
        return redis;
    }

    /** Wall time of {@link #start} (both servers ready). */
    public Duration startupTime() {
        return startupTime;
    }

    @Override
    public void close() {
        try {
            redis.close();
        } finally {
            kafka.close();
        }
    }
}
