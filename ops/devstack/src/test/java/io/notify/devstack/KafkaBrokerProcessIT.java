package io.notify.devstack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(120)
class KafkaBrokerProcessIT {

    @Test
    void stopRestartAndKillKeepPortAndData() throws Exception {
        try (KafkaBrokerProcess broker = new KafkaBrokerProcess()) {
            broker.start();
            String bootstrap = broker.bootstrapServers();
            long firstPid = broker.pid();
            assertTrue(broker.isAlive());

            createTopic(bootstrap, "chaos");
            KafkaTestClients.send(bootstrap, "chaos", "k", "before-stop");

            // graceful stop: the process ends and clients cannot reach the broker any more
            broker.stop();
            assertFalse(broker.isAlive());
            assertClientsFail(bootstrap);

            // restart: same address, the record written before is still there, new writes work
            broker.restart();
            assertEquals(bootstrap, broker.bootstrapServers());
            assertNotEquals(firstPid, broker.pid());
            KafkaTestClients.send(bootstrap, "chaos", "k", "after-restart");
            assertEquals(List.of("before-stop", "after-restart"),
                    KafkaTestClients.values(KafkaTestClients.consume(bootstrap, "chaos", 2, Map.of())));

            // kill -9: no shutdown at all; the broker recovers its log on the next start
            broker.kill();
            assertFalse(broker.isAlive());
            assertClientsFail(bootstrap);
            broker.start();
            KafkaTestClients.send(bootstrap, "chaos", "k", "after-kill");
            assertEquals(List.of("before-stop", "after-restart", "after-kill"),
                    KafkaTestClients.values(KafkaTestClients.consume(bootstrap, "chaos", 3, Map.of())));

            assertTrue(Files.size(broker.logFile()) > 0, "child output goes to " + broker.logFile());
        }
    }

    @Test
    void closeDeletesTheTemporaryDataDir() {
        Path dir;
        try (KafkaBrokerProcess broker = new KafkaBrokerProcess()) {
            dir = broker.dataDir();
            assertTrue(Files.isDirectory(dir));
            assertFalse(broker.isAlive(), "not started by the constructor");
        }
        assertFalse(Files.exists(dir));
    }

    private static void createTopic(String bootstrap, String topic) throws Exception {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1))).all().get(20, TimeUnit.SECONDS);
        }
    }

    /** A producer cannot get metadata from a stopped broker: send fails within max.block.ms. */
    private static void assertClientsFail(String bootstrap) {
        try (KafkaProducer<String, String> producer = KafkaTestClients.producer(bootstrap, Map.of(
                ProducerConfig.MAX_BLOCK_MS_CONFIG, 1500,
                ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 1500,
                ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 1000))) {
            ExecutionException failure = assertThrows(ExecutionException.class,
                    () -> producer.send(new ProducerRecord<>("chaos", "k", "lost")).get(10, TimeUnit.SECONDS));
            assertTrue(failure.getCause() instanceof org.apache.kafka.common.errors.TimeoutException,
                    "expected a client timeout, got " + failure.getCause());
        }
    }
}
