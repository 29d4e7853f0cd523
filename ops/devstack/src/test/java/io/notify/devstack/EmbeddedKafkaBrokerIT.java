package io.notify.devstack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(60)
class EmbeddedKafkaBrokerIT {

    private static EmbeddedKafkaBroker broker;
    private static Admin admin;

    @BeforeAll
    static void start() {
        broker = EmbeddedKafkaBroker.start(BrokerOptions.defaults().withNumPartitions(2));
        admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()));
    }

    @AfterAll
    static void stop() {
        if (admin != null) {
            admin.close();
        }
        if (broker != null) {
            broker.close();
        }
    }

    @Test
    void listensOnLoopbackWithConcretePorts() {
        assertEquals("127.0.0.1:" + broker.port(), broker.bootstrapServers());
        assertTrue(broker.port() > 0 && broker.controllerPort() > 0 && broker.port() != broker.controllerPort());
        assertTrue(Files.exists(broker.dataDir().resolve("server.properties")));
    }

    @Test
    void plainProduceConsumeRoundTrip() throws Exception {
        String topic = "plain-" + System.nanoTime();
        admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1))).all().get(20, TimeUnit.SECONDS);

        KafkaTestClients.send(broker.bootstrapServers(), topic, "k", "hello");

        var records = KafkaTestClients.consume(broker.bootstrapServers(), topic, 1, Map.of());
        assertEquals(List.of("hello"), KafkaTestClients.values(records));
        assertEquals("k", records.get(0).key());
    }

    @Test
    void numPartitionsOptionIsTheDefaultForNewTopics() throws Exception {
        String topic = "default-partitions-" + System.nanoTime();
        admin.createTopics(List.of(new NewTopic(topic, Optional.empty(), Optional.empty()))).all().get(20, TimeUnit.SECONDS);

        int partitions = admin.describeTopics(List.of(topic)).allTopicNames().get(20, TimeUnit.SECONDS)
                .get(topic).partitions().size();
        assertEquals(2, partitions);
    }

    @Test
    void transactionalProducerAndReadCommittedConsumer() throws Exception {
        String topic = "tx-" + System.nanoTime();
        admin.createTopics(List.of(new NewTopic(topic, 2, (short) 1))).all().get(20, TimeUnit.SECONDS);

        try (KafkaProducer<String, String> producer = KafkaTestClients.producer(broker.bootstrapServers(),
                Map.of(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "tx-" + topic))) {
            producer.initTransactions();

            producer.beginTransaction();
            producer.send(new ProducerRecord<>(topic, "a", "aborted-1"));
            producer.send(new ProducerRecord<>(topic, "b", "aborted-2"));
            producer.flush();
            producer.abortTransaction();

            producer.beginTransaction();
            producer.send(new ProducerRecord<>(topic, "a", "committed-1"));
            producer.send(new ProducerRecord<>(topic, "a", "committed-2"));
            producer.commitTransaction();
        }

        var committed = KafkaTestClients.consume(broker.bootstrapServers(), topic, 2,
                Map.of(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed"));
        assertEquals(List.of("committed-1", "committed-2"), KafkaTestClients.values(committed));

        // read_uncommitted sees the aborted records too: proves the aborted ones were really written
        var everything = KafkaTestClients.consume(broker.bootstrapServers(), topic, 4,
                Map.of(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_uncommitted"));
        assertEquals(4, everything.size(), KafkaTestClients.values(everything).toString());
    }

    @Test
    void closeStopsTheBrokerAndDeletesTheTemporaryDataDir() {
        EmbeddedKafkaBroker second = EmbeddedKafkaBroker.start();
        Path dir = second.dataDir();
        assertTrue(Files.isDirectory(dir));

        second.close();
        second.close(); // idempotent

        assertFalse(Files.exists(dir));
    }
}
