package io.notify.devstack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.io.Reader;
import java.util.Map;
import java.util.Properties;
import kafka.server.KafkaConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BrokerConfigTest {

    private static final Path LOGS = Path.of("/tmp/notify-test/kraft-logs");

    @Test
    void singleNodeCombinedServerWithBothListeners() {
        Properties p = new BrokerConfig(19092, 19093, LOGS, 3, Map.of()).toProperties();

        assertEquals("broker,controller", p.getProperty("process.roles"));
        assertEquals("1@127.0.0.1:19093", p.getProperty("controller.quorum.voters"));
        assertEquals("PLAINTEXT://127.0.0.1:19092,CONTROLLER://127.0.0.1:19093", p.getProperty("listeners"));
        assertEquals("PLAINTEXT://127.0.0.1:19092", p.getProperty("advertised.listeners"));
        assertEquals("CONTROLLER", p.getProperty("controller.listener.names"));
        assertEquals("PLAINTEXT", p.getProperty("inter.broker.listener.name"));
        assertEquals(LOGS.toAbsolutePath().toString(), p.getProperty("log.dirs"));
        assertEquals("3", p.getProperty("num.partitions"));
        assertFalse(p.containsKey("auto.create.topics.enable"), "auto-create stays at Kafka's default");
    }

    @Test
    void internalTopicsFitOneBroker() {
        Properties p = new BrokerConfig(19092, 19093, LOGS, 3, Map.of()).toProperties();

        for (String key : new String[] {
                "offsets.topic.replication.factor", "transaction.state.log.replication.factor",
                "transaction.state.log.min.isr", "share.coordinator.state.topic.replication.factor",
                "share.coordinator.state.topic.min.isr", "default.replication.factor", "min.insync.replicas"}) {
            assertEquals("1", p.getProperty(key), key);
        }
        assertEquals("0", p.getProperty("group.initial.rebalance.delay.ms"));
        assertEquals("2097152", p.getProperty("log.cleaner.dedupe.buffer.size"));
        // small segments keep the coordinators' topics compacted, so a restart loads them fast (OffsetsCompactionIT)
        assertEquals("1048576", p.getProperty("offsets.topic.segment.bytes"));
        assertEquals("1048576", p.getProperty("transaction.state.log.segment.bytes"));
    }

    @Test
    void kafkaAcceptsTheConfigAndExtraPropertiesWin() {
        BrokerConfig config = new BrokerConfig(19092, 19093, LOGS, 7,
                Map.of("num.io.threads", "3", "log.retention.ms", "60000"));

        KafkaConfig parsed = KafkaConfig.fromProps(config.toProperties(), false);

        assertEquals(7, parsed.numPartitions());
        assertEquals(3, parsed.numIoThreads());
        assertEquals(60000L, parsed.logRetentionTimeMillis());
        assertEquals((short) 1, parsed.getShort("offsets.topic.replication.factor"));
        assertEquals((short) 1, parsed.getShort("transaction.state.log.replication.factor"));
        assertEquals(1, parsed.getInt("transaction.state.log.min.isr"));
        assertEquals((short) 1, parsed.getShort("share.coordinator.state.topic.replication.factor"));
        assertTrue(parsed.processRoles().size() == 2, parsed.processRoles().toString());
    }

    @Test
    void writtenFileRoundTrips(@TempDir Path dir) throws Exception {
        BrokerConfig config = BrokerConfig.of(19092, 19093, dir, BrokerOptions.defaults().withNumPartitions(2));
        Path file = dir.resolve("server.properties");

        config.writeTo(file);

        Properties read = new Properties();
        try (Reader in = Files.newBufferedReader(file)) {
            read.load(in);
        }
        assertEquals(config.toProperties(), read);
        assertEquals(dir.resolve("kraft-logs").toAbsolutePath().toString(), read.getProperty("log.dirs"));
        assertEquals("127.0.0.1:19092", config.bootstrapServers());
    }

    @Test
    void rejectsUnresolvedOrEqualPorts() {
        assertThrows(IllegalArgumentException.class, () -> new BrokerConfig(0, 19093, LOGS, 3, Map.of()));
        assertThrows(IllegalArgumentException.class, () -> new BrokerConfig(19092, 19092, LOGS, 3, Map.of()));
    }
}
