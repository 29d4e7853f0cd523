package io.notify.devstack;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;

/**
 * The {@code server.properties} of a single-node KRaft server, as a pure function of its ports,
 * log directory and options.
 *
 * <p>Guarantees: the result is valid for {@code KafkaConfig.fromProps} (checked by a unit test);
 * every internal topic (offsets, transaction state, share coordinator state) has replication factor
 * 1 and min ISR 1, so transactions and consumer groups work on one broker; the coordinators' topics
 * roll 1 MiB segments so they stay compacted and load faster after a restart; the extra properties of
 * the options win over every default here.
 */
public record BrokerConfig(int port, int controllerPort, Path logDir, int numPartitions, Map<String, String> extra) {

    /** Node id of the only node; it is both broker and controller. */
    static final int NODE_ID = 1;

    /** Partitions of each internal topic: 50 by default, 5 here so the first group or transaction starts fast. */
    static final String INTERNAL_TOPIC_PARTITIONS = "5";

    /** Segment size of __consumer_offsets and __transaction_state: Kafka's minimum, so the cleaner compacts them. */
    static final String COORDINATOR_SEGMENT_BYTES = "1048576";

    public BrokerConfig {
        if (port <= 0 || controllerPort <= 0 || port == controllerPort) {
            throw new IllegalArgumentException(
                    "concrete, distinct ports needed, got port=" + port + " controllerPort=" + controllerPort);
        }
        extra = Map.copyOf(extra);
    }

    static BrokerConfig of(int port, int controllerPort, Path dataDir, BrokerOptions options) {
        return new BrokerConfig(port, controllerPort, dataDir.resolve("kraft-logs"), options.numPartitions(),
                options.extraProperties());
    }

    public String bootstrapServers() {
        return "127.0.0.1:" + port;
    }

    public Properties toProperties() {
        Properties p = new Properties();
        p.setProperty("process.roles", "broker,controller");
        p.setProperty("node.id", String.valueOf(NODE_ID));
        p.setProperty("controller.quorum.voters", NODE_ID + "@127.0.0.1:" + controllerPort);
        p.setProperty("listeners", "PLAINTEXT://127.0.0.1:" + port + ",CONTROLLER://127.0.0.1:" + controllerPort);
        p.setProperty("advertised.listeners", "PLAINTEXT://127.0.0.1:" + port);
        p.setProperty("controller.listener.names", "CONTROLLER");
        p.setProperty("inter.broker.listener.name", "PLAINTEXT");
        p.setProperty("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
        p.setProperty("log.dirs", logDir.toAbsolutePath().toString());

        p.setProperty("num.partitions", String.valueOf(numPartitions));
        p.setProperty("default.replication.factor", "1");
        p.setProperty("min.insync.replicas", "1");
        p.setProperty("offsets.topic.replication.factor", "1");
        p.setProperty("offsets.topic.num.partitions", INTERNAL_TOPIC_PARTITIONS);
        p.setProperty("transaction.state.log.replication.factor", "1");
        p.setProperty("transaction.state.log.min.isr", "1");
        p.setProperty("transaction.state.log.num.partitions", INTERNAL_TOPIC_PARTITIONS);
        p.setProperty("share.coordinator.state.topic.replication.factor", "1");
        p.setProperty("share.coordinator.state.topic.min.isr", "1");
        p.setProperty("share.coordinator.state.topic.num.partitions", INTERNAL_TOPIC_PARTITIONS);

        // The group and transaction coordinators replay these topics on every start. With Kafka's
        // 100 MB segments nothing is ever compacted on a dev node (the active segment is exempt), so
        // a long run's every offset commit is replayed: 109,030 records, 48 s after chaos's 40
        // minutes. A load that slow hits a race of Kafka 4.4's group coordinator after a kill -9
        // (docs/operations.md "A group stuck behind ghost members"). 1 MiB segments let the cleaner
        // compact them: the latest offsets per partition plus the transaction markers of the last
        // 24 h (delete.retention.ms): 3.4 MB 36 minutes into chaos all, against 13.6 MB before.
        p.setProperty("offsets.topic.segment.bytes", COORDINATOR_SEGMENT_BYTES);
        p.setProperty("transaction.state.log.segment.bytes", COORDINATOR_SEGMENT_BYTES);

        // tests join groups constantly: no 3 s wait for more members
        p.setProperty("group.initial.rebalance.delay.ms", "0");
        // the default 128 MiB cleaner buffer would be most of a test JVM's footprint
        p.setProperty("log.cleaner.dedupe.buffer.size", "2097152");
        // a single developer/test node needs few threads
        p.setProperty("num.network.threads", "2");
        p.setProperty("num.io.threads", "4");
        p.setProperty("background.threads", "2");
        p.setProperty("num.recovery.threads.per.data.dir", "1");
        p.setProperty("num.replica.fetchers", "1");
        p.setProperty("log.cleaner.threads", "1");

        extra.forEach(p::setProperty);
        return p;
    }

    /** Writes {@link #toProperties()} to {@code file}. */
    public void writeTo(Path file) {
        try (Writer out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            toProperties().store(out, "single-node KRaft broker+controller written by notify-devstack");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }
}
