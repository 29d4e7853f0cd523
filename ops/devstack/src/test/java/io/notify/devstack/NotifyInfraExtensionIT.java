package io.notify.devstack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(NotifyInfraExtension.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Timeout(60)
class NotifyInfraExtensionIT {

    /** What the two ordered tests saw: prefix, bootstrap servers, cluster id, Admin identity. */
    private static final Map<String, List<Object>> SEEN = new ConcurrentHashMap<>();
    private static final Set<String> ALL_PREFIXES = ConcurrentHashMap.newKeySet();

    private static Infra classInfra;
    private final Infra constructorInfra;
    private Infra fieldInfra;
    private Infra beforeEachInfra;

    NotifyInfraExtensionIT(Infra constructorInfra) {
        this.constructorInfra = constructorInfra;
    }

    @BeforeAll
    static void beforeAll(Infra infra) {
        assertSame(infra, classInfra, "static field and @BeforeAll parameter share the class-level Infra");
        ALL_PREFIXES.add(infra.prefix());
    }

    @BeforeEach
    void beforeEach(Infra infra) {
        beforeEachInfra = infra;
    }

    @Test
    @Order(1)
    void firstTestUsesKafkaAndRedis(Infra infra) throws Exception {
        record("first", infra);
        roundTrip(infra);
    }

    @Test
    @Order(2)
    void secondTestGetsAnotherPrefixButTheSameBroker(Infra infra) throws Exception {
        record("second", infra);
        roundTrip(infra);

        List<Object> first = SEEN.get("first");
        List<Object> second = SEEN.get("second");
        assertNotNull(first, "the first test ran before");
        assertNotEquals(first.get(0), second.get(0), "distinct prefixes");
        assertEquals(first.get(1), second.get(1), "same bootstrap servers");
        assertEquals(first.get(2), second.get(2), "same cluster id: one broker instance");
        assertSame(first.get(3), second.get(3), "one shared Admin");
        assertEquals(first.get(4), second.get(4), "same Redis");
    }

    @AfterAll
    static void prefixesWereAllDistinct() {
        // class-level prefix plus one per test method
        assertEquals(3, ALL_PREFIXES.size(), ALL_PREFIXES.toString());
    }

    private void record(String name, Infra infra) {
        // within one test method, parameter, constructor, field and @BeforeEach all see the same Infra
        assertSame(infra, constructorInfra);
        assertSame(infra, fieldInfra);
        assertSame(infra, beforeEachInfra);
        assertNotEquals(classInfra.prefix(), infra.prefix(), "method prefix differs from the class prefix");
        assertTrue(infra.prefix().matches("t[a-z0-9]{7}-"), infra.prefix());
        assertEquals("embedded", infra.kind());
        ALL_PREFIXES.add(infra.prefix());
        SEEN.put(name, List.of(infra.prefix(), infra.bootstrapServers(), infra.clusterId(), infra.adminClient(),
                infra.redisUri()));
    }

    private static void roundTrip(Infra infra) throws Exception {
        String topic = infra.createTopic(infra.name("events"), 3);
        assertEquals(infra.prefix() + "events", topic);
        try (Admin admin = infra.adminClient()) {
            assertEquals(3, admin.describeTopics(List.of(topic)).allTopicNames().get(10, TimeUnit.SECONDS)
                    .get(topic).partitions().size());
        }
        // closing the shared Admin above was a no-op: it still works
        assertTrue(infra.adminClient().listTopics().names().get(10, TimeUnit.SECONDS).contains(topic));

        KafkaTestClients.send(infra.bootstrapServers(), topic, "k", "v-" + infra.prefix());
        assertEquals(List.of("v-" + infra.prefix()),
                KafkaTestClients.values(KafkaTestClients.consume(infra.bootstrapServers(), topic, 1, Map.of())));

        RedisClient client = RedisClient.create(infra.redisUri());
        try (StatefulRedisConnection<String, String> connection = client.connect()) {
            connection.sync().set(infra.name("key"), "x");
            assertEquals("x", connection.sync().get(infra.name("key")));
        } finally {
            client.shutdown(java.time.Duration.ZERO, java.time.Duration.ofSeconds(2));
        }
    }
}
