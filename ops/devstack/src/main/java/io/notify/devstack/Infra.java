package io.notify.devstack;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartitionInfo;

/**
 * What an integration test gets from {@link NotifyInfraExtension}: the run's Kafka and Redis plus a
 * prefix of its own.
 *
 * <p>Guarantees: every test class and every test method gets a different {@link #prefix()} (the
 * class-level one in {@code @BeforeAll}/static fields, the method-level one in test methods,
 * {@code @BeforeEach} and, with the default per-method lifecycle, constructors and fields); all of
 * them share one Kafka, one Redis and one {@link #adminClient()} per test JVM. Prefix topic names,
 * consumer group ids, transactional ids and Redis keys with it, and tests never see each other's data.
 */
public final class Infra {

    /** How long {@link #createTopic} waits for the topic and the leaders of all its partitions. */
    public static final Duration TOPIC_TIMEOUT = Duration.ofSeconds(30);

    private final SharedInfra shared;
    private final String prefix;

    Infra(SharedInfra shared, String prefix) {
        this.shared = shared;
        this.prefix = prefix;
    }

    /** {@code host:port} of the run's Kafka. */
    public String bootstrapServers() {
        return shared.backend().bootstrapServers();
    }

    /** {@code redis://host:port} of the run's Redis. */
    public String redisUri() {
        return shared.backend().redisUri();
    }

    /** This test's (or test class's) prefix, e.g. {@code "tq3x9k2m-"}. */
    public String prefix() {
        return prefix;
    }

    /** {@code prefix() + suffix}: a topic name, group id or Redis key private to this test. */
    public String name(String suffix) {
        return prefix + suffix;
    }

    /** "embedded" or "testcontainers". */
    public String kind() {
        return shared.backend().kind();
    }

    /**
     * The Admin client shared by all tests of the run. Closing it does nothing, so
     * try-with-resources on it is harmless.
     */
    public Admin adminClient() {
        return shared.admin();
    }

    /** The Kafka cluster id: equal for all tests of a run, because they share one broker. */
    public String clusterId() {
        return get(shared.admin().describeCluster().clusterId(), "describeCluster");
    }

    /**
     * Creates topic {@code name} (exactly that name: pass {@code name("orders")} to prefix it) and
     * waits until every partition has a leader, so the first produce does not race the metadata.
     *
     * @return {@code name}
     */
    public String createTopic(String name, int partitions) {
        return createTopic(name, partitions, Map.of());
    }

    /** As {@link #createTopic(String, int)}, with topic configs such as {@code cleanup.policy}. */
    public String createTopic(String name, int partitions, Map<String, String> configs) {
        NewTopic topic = new NewTopic(name, partitions, (short) 1).configs(configs);
        Admin admin = shared.admin();
        get(admin.createTopics(List.of(topic)).all(), "create topic " + name);
        Deadline deadline = Deadline.in(TOPIC_TIMEOUT);
        try {
            deadline.await("leaders for all " + partitions + " partitions of " + name, Duration.ofMillis(20),
                    () -> allLeadersKnown(admin, name, partitions));
        } catch (TimeoutException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
        return name;
    }

    private static boolean allLeadersKnown(Admin admin, String name, int partitions) {
        try {
            TopicDescription description = admin.describeTopics(List.of(name)).allTopicNames()
                    .get(5, TimeUnit.SECONDS).get(name);
            return description != null
                    && description.partitions().size() == partitions
                    && description.partitions().stream().map(TopicPartitionInfo::leader).allMatch(l -> l != null && !l.isEmpty());
        } catch (ExecutionException | TimeoutException e) {
            return false; // not visible on the broker yet
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static <T> T get(KafkaFuture<T> future, String what) {
        try {
            return future.get(TOPIC_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw new IllegalStateException(what + " failed: " + e.getCause(), e.getCause());
        } catch (TimeoutException e) {
            throw new IllegalStateException(what + " did not complete within " + TOPIC_TIMEOUT, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted: " + what, e);
        }
    }

    @Override
    public String toString() {
        return "Infra[" + kind() + ", kafka=" + bootstrapServers() + ", redis=" + redisUri() + ", prefix=" + prefix + "]";
    }
}
