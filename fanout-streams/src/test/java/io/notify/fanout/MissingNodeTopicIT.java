package io.notify.fanout;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.notify.common.config.Settings;
import io.notify.devstack.Await;
import io.notify.devstack.BrokerOptions;
import io.notify.devstack.EmbeddedKafkaBroker;
import io.notify.fanout.metrics.FanoutMetrics;
import io.notify.fanout.routing.NodeTopics;
import io.notify.protocol.stream.DeliveryMessage;
import io.notify.protocol.stream.SequencedEvent;
import io.notify.protocol.stream.StreamId;
import io.notify.protocol.stream.UndeliveredEvent;
import io.notify.registry.ConnectionRef;
import io.notify.registry.route.InMemoryRouteLookup;
import io.notify.schemas.serde.NotifySerdes;
import io.notify.schemas.topic.TopicCatalog;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.streams.KafkaStreams;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * What Kafka Streams 4.4 does when a TopicNameExtractor names a topic that does not exist, on a
 * broker that does not auto-create topics (production brokers should not: the shared devstack
 * broker does, and there a send to a missing node topic silently creates it with broker defaults).
 * The directory is fooled into believing the topic exists (a node topic deleted behind its back):
 * the send waits max.block.ms for metadata and fails with a TimeoutException; the production
 * handler skips it and marks the topic missing; under exactly_once_v2 the producer has made the
 * transaction abortable, so the task rolls back and replays, and on the replay the router skips
 * the topic. Net effect, read_committed: the event is undelivered exactly once, seqs stay gapless,
 * the app keeps running. (Without {@link ThreadRestartPolicy} the failed task would shut the client
 * down: the write after the failed one throws from the abortable producer.)
 */
@Timeout(180)
class MissingNodeTopicIT {

    static EmbeddedKafkaBroker broker;

    @TempDir
    Path stateDir;

    @BeforeAll
    static void startBroker() {
        broker = EmbeddedKafkaBroker.start(BrokerOptions.defaults().withProperty("auto.create.topics.enable", "false"));
    }

    @AfterAll
    static void stopBroker() {
        if (broker != null) {
            broker.close();
        }
    }

    @Test
    void aNodeTopicMissingBehindTheDirectorysBackCostsOneRollbackAndHeals() throws Exception {
        FanoutConfig config = FanoutConfig.load(Settings.of(Map.of(
                "notify.kafka.bootstrap-servers", broker.bootstrapServers(),
                "notify.topic-prefix", "mnt.",
                "notify.fanout.state-dir", stateDir.toString(),
                "notify.fanout.query.port", "0",
                FanoutConfig.QUERY_TOKENS, FanoutFixture.QUERY_TOKEN,
                "notify.fanout.streams.producer.max.block.ms", "2000",
                // the replaced thread's member is only evicted after the session timeout: keep the heal short
                "notify.fanout.streams.consumer.session.timeout.ms", "6000")));
        TopicCatalog topics = config.topics();
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()))) {
            admin.createTopics(List.of(
                    new NewTopic(topics.events().name(), 1, (short) 1),
                    new NewTopic(topics.eventsDlq().name(), 1, (short) 1),
                    new NewTopic(topics.streamLog().name(), 1, (short) 1),
                    new NewTopic(topics.undelivered().name(), 1, (short) 1),
                    new NewTopic(topics.node("gw-1").name(), 1, (short) 1))).all().get(30, TimeUnit.SECONDS);
        }
        String ghostTopic = topics.node("gw-ghost").name();
        InMemoryRouteLookup registry = new InMemoryRouteLookup(Clock.systemUTC());
        registry.setAlive("gw-1", "i1");
        registry.setAlive("gw-ghost", "g1");
        registry.register(StreamId.forUser("u1"), new ConnectionRef("gw-1", "i1", "c1"), Duration.ofMinutes(5));
        registry.register(StreamId.forUser("ghost"), new ConnectionRef("gw-ghost", "g1", "c-ghost"), Duration.ofMinutes(5));
        FanoutMetrics metrics = FanoutMetrics.inMemory();
        NodeTopics fooled = NodeTopics.of(Set.of(topics.node("gw-1").name(), ghostTopic));

        try (FanoutApp app = new FanoutApp(config, registry, metrics, Clock.systemUTC(), admin -> fooled).start();
             KafkaProducer<String, String> producer = ItKafka.producer(broker.bootstrapServers())) {
            Await.until("RUNNING", Duration.ofSeconds(60), () -> app.streams().state() == KafkaStreams.State.RUNNING);
            ItKafka.send(producer, topics.events().name(), "a-1", FanoutFixture.durable("a-1", "u1"));
            ItKafka.send(producer, topics.events().name(), "g-1", FanoutFixture.durable("g-1", "ghost"));
            ItKafka.send(producer, topics.events().name(), "a-2", FanoutFixture.durable("a-2", "u1"));

            List<ConsumerRecord<StreamId, DeliveryMessage>> deliveries = ItKafka.readCommitted(broker.bootstrapServers(),
                    topics.node("gw-1").name(), NotifySerdes.streamId().deserializer(),
                    NotifySerdes.deliveryMessage().deserializer(), Duration.ofSeconds(90), r -> r.size() >= 2);
            List<ConsumerRecord<StreamId, UndeliveredEvent>> undelivered = ItKafka.readCommitted(broker.bootstrapServers(),
                    topics.undelivered().name(), NotifySerdes.streamId().deserializer(),
                    NotifySerdes.undeliveredEvent().deserializer(), Duration.ofSeconds(60), r -> !r.isEmpty());
            List<ConsumerRecord<StreamId, SequencedEvent>> log = ItKafka.readCommitted(broker.bootstrapServers(),
                    topics.streamLog().name(), NotifySerdes.streamId().deserializer(),
                    NotifySerdes.sequencedEvent().deserializer(), Duration.ofSeconds(30), r -> r.size() >= 3);
            assertEquals(List.of(1L, 2L), deliveries.stream().map(d -> ((SequencedEvent) d.value().event()).seq()).toList());
            assertEquals(List.of("g-1"), undelivered.stream().map(r -> r.value().event().id()).toList());
            assertEquals(List.of("a-1@1", "g-1@1", "a-2@2"), log.stream().map(r -> r.value().id() + "@" + r.value().seq()).toList());
            // The handler saw the failed send once; the replay after the rollback skipped the topic at routing.
            assertEquals(1.0, metrics.count("notify.fanout.node.topic.missing", "stage", "produce"));
            assertEquals(1.0, metrics.count("notify.fanout.node.topic.missing", "stage", "route"));
            assertEquals(KafkaStreams.State.RUNNING, app.streams().state());
        }
    }
}
