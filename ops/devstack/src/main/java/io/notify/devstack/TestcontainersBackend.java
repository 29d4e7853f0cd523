package io.notify.devstack;

import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.kafka.KafkaContainer;

/**
 * Kafka and Redis in Docker containers, chosen with {@code -Dnotify.it.infra=testcontainers}.
 *
 * <p>Only this class refers to Testcontainers, and only the testcontainers mode loads it, so the
 * embedded mode needs neither Docker nor the (optional) Testcontainers jars. Images are
 * {@value #KAFKA_IMAGE_PROPERTY} (default {@value #DEFAULT_KAFKA_IMAGE}) and
 * {@value #REDIS_IMAGE_PROPERTY} (default {@value #DEFAULT_REDIS_IMAGE}).
 */
final class TestcontainersBackend implements InfraBackend {

    static final String KAFKA_IMAGE_PROPERTY = "notify.it.kafka.image";
    static final String REDIS_IMAGE_PROPERTY = "notify.it.redis.image";
    static final String DEFAULT_KAFKA_IMAGE = "apache/kafka:4.4.0";
    static final String DEFAULT_REDIS_IMAGE = "redis:7";

    private final KafkaContainer kafka;
    private final GenericContainer<?> redis;

    private TestcontainersBackend(KafkaContainer kafka, GenericContainer<?> redis) {
        this.kafka = kafka;
        this.redis = redis;
    }

    /** Whether a Docker engine answers; Testcontainers caches the answer for the JVM. */
    static boolean dockerAvailable() {
        return DockerClientFactory.instance().isDockerAvailable();
    }

    static TestcontainersBackend start(String kafkaImage, String redisImage) {
        KafkaContainer kafka = new KafkaContainer(kafkaImage)
                .withEnv("KAFKA_GROUP_INITIAL_REBALANCE_DELAY_MS", "0");
        @SuppressWarnings("resource") // closed in close()
        GenericContainer<?> redis = new GenericContainer<>(redisImage)
                .withExposedPorts(6379)
                .withCommand("redis-server", "--save", "", "--appendonly", "no", "--protected-mode", "no")
                .waitingFor(Wait.forLogMessage(".*Ready to accept connections.*", 1));
        try {
            kafka.start();
            redis.start();
            return new TestcontainersBackend(kafka, redis);
        } catch (RuntimeException e) {
            redis.close();
            kafka.close();
            throw e;
        }
    }

    @Override
    public String bootstrapServers() {
        return kafka.getBootstrapServers();
    }

    @Override
    public String redisUri() {
        return "redis://" + redis.getHost() + ":" + redis.getMappedPort(6379);
    }

    @Override
    public String kind() {
        return "testcontainers";
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
