package io.notify.fanout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.notify.common.config.Settings;
import io.notify.devstack.Await;
import io.notify.devstack.Infra;
import io.notify.devstack.NotifyInfraExtension;
import io.notify.fanout.metrics.FanoutMetrics;
import io.notify.protocol.stream.DeliveryMessage;
import io.notify.protocol.stream.SequencedEvent;
import io.notify.protocol.stream.StreamId;
import io.notify.protocol.stream.UndeliveredEvent;
import io.notify.protocol.stream.UndeliveredReason;
import io.notify.registry.ConnectionRef;
import io.notify.registry.route.InMemoryRouteLookup;
import io.notify.schemas.serde.NotifySerdes;
import io.notify.schemas.topic.DlqFailure;
import io.notify.schemas.topic.TopicCatalog;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.streams.KafkaStreams;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real app under exactly_once_v2 against the real broker: gapless per-stream seqs in
 * notify.stream-log read read_committed, deliveries on the node topic, the DLQ, and a user whose
 * only node has no topic (the app must keep running and record the event undelivered).
 */
@ExtendWith(NotifyInfraExtension.class)
@Timeout(180)
class FanoutStreamsIT {

    static final int USERS = 8;
    static final int EVENTS = 240;

    @TempDir
    Path stateDir;

    static FanoutConfig config(Infra infra, Path stateDir, Map<String, String> extra) {
        Map<String, String> values = new HashMap<>(Map.of(
                "notify.kafka.bootstrap-servers", infra.bootstrapServers(),
                "notify.topic-prefix", infra.prefix(),
                "notify.fanout.state-dir", stateDir.toString(),
                "notify.fanout.processing-guarantee", "exactly_once_v2",
                "notify.fanout.commit-interval", "100ms",
                "notify.fanout.query.port", "0",
                FanoutConfig.QUERY_TOKENS, FanoutFixture.QUERY_TOKEN));
        values.putAll(extra);
        return FanoutConfig.load(Settings.of(values));
    }

    /** Partitions of notify.events in these ITs. */
    static final int EVENTS_PARTITIONS = 3;

    static void createTopics(Infra infra, TopicCatalog topics) {
        infra.createTopic(topics.events().name(), EVENTS_PARTITIONS);
        infra.createTopic(topics.eventsDlq().name(), 1);
        infra.createTopic(topics.streamLog().name(), 3);
        infra.createTopic(topics.undelivered().name(), 1);
        infra.createTopic(topics.node("gw-1").name(), 1);
    }

    static void awaitRunning(FanoutApp app) {
        Await.until("RUNNING", Duration.ofSeconds(60), () -> app.streams().state() == KafkaStreams.State.RUNNING);
    }

    @Test
    void exactlyOnceEndToEndWithGaplessSeqsDeliveriesDlqAndAMissingNodeTopic(Infra infra) {
        FanoutConfig config = config(infra, stateDir, Map.of());
        TopicCatalog topics = config.topics();
        createTopics(infra, topics);
        InMemoryRouteLookup registry = new InMemoryRouteLookup(Clock.systemUTC());
        registry.setAlive("gw-1", "i1");
        registry.setAlive("gw-ghost", "g1"); // alive in the registry, but its topic was never created
        for (int u = 0; u < USERS; u += 2) { // even users are online on gw-1
            registry.register(StreamId.forUser("user-" + u), new ConnectionRef("gw-1", "i1", "c" + u), Duration.ofMinutes(5));
        }
        registry.register(StreamId.forUser("ghost"), new ConnectionRef("gw-ghost", "g1", "c-ghost"), Duration.ofMinutes(5));

        try (FanoutApp app = new FanoutApp(config, registry, FanoutMetrics.inMemory(), Clock.systemUTC()).start();
             KafkaProducer<String, String> producer = ItKafka.producer(infra.bootstrapServers())) {
            awaitRunning(app);
            ItKafka.send(producer, topics.events().name(), "bad-1", "{\"id\":\"bad-1\"}");
            ItKafka.send(producer, topics.events().name(), "ghost-1", FanoutFixture.durable("ghost-1", "ghost"));
            for (int i = 0; i < EVENTS; i++) {
                String id = "ev-" + i;
                ItKafka.send(producer, topics.events().name(), id, FanoutFixture.durable(id, "user-" + (i % USERS)));
            }
            ItKafka.send(producer, topics.events().name(), "ev-0", FanoutFixture.durable("ev-0", "user-0")); // a re-send

            List<ConsumerRecord<StreamId, SequencedEvent>> log = ItKafka.readCommitted(infra.bootstrapServers(),
                    topics.streamLog().name(), NotifySerdes.streamId().deserializer(),
                    NotifySerdes.sequencedEvent().deserializer(), Duration.ofSeconds(90), r -> r.size() >= EVENTS + 1);
            Map<StreamId, List<SequencedEvent>> byStream = new TreeMap<>(log.stream().collect(
                    Collectors.groupingBy(ConsumerRecord::key, Collectors.mapping(ConsumerRecord::value, Collectors.toList()))));
            assertEquals(USERS + 1, byStream.size());
            for (int u = 0; u < USERS; u++) {
                List<SequencedEvent> events = byStream.get(StreamId.forUser("user-" + u));
                assertEquals(LongStream.rangeClosed(1, EVENTS / USERS).boxed().toList(),
                        events.stream().map(SequencedEvent::seq).toList(), "seqs of user-" + u);
                assertEquals(1, events.stream().map(SequencedEvent::epoch).distinct().count());
                List<String> ids = new ArrayList<>();
                for (int i = u; i < EVENTS; i += USERS) {
                    ids.add("ev-" + i);
                }
                // Every event exactly once; their order is the by-stream topic's, which notify.events
                // partitions (keyed by event id) do not fix across ids.
                assertEquals(new java.util.TreeSet<>(ids), new java.util.TreeSet<>(events.stream().map(SequencedEvent::id).toList()),
                        "events of user-" + u);
                assertEquals(ids.size(), events.size());
            }

            int online = EVENTS / 2;
            List<ConsumerRecord<StreamId, DeliveryMessage>> deliveries = ItKafka.readCommitted(infra.bootstrapServers(),
                    topics.node("gw-1").name(), NotifySerdes.streamId().deserializer(),
                    NotifySerdes.deliveryMessage().deserializer(), Duration.ofSeconds(60), r -> r.size() >= online);
            assertEquals(online, deliveries.size());
            for (ConsumerRecord<StreamId, DeliveryMessage> d : deliveries) {
                assertEquals(List.of("c" + d.key().userId().substring("user-".length())), d.value().connections());
            }

            int expectedUndelivered = EVENTS - online + 1;
            List<ConsumerRecord<StreamId, UndeliveredEvent>> undelivered = ItKafka.readCommitted(infra.bootstrapServers(),
                    topics.undelivered().name(), NotifySerdes.streamId().deserializer(),
                    NotifySerdes.undeliveredEvent().deserializer(), Duration.ofSeconds(60),
                    r -> r.size() >= expectedUndelivered);
            assertEquals(expectedUndelivered, undelivered.size());
            assertTrue(undelivered.stream().allMatch(r -> r.value().reason() == UndeliveredReason.NO_LIVE_CONNECTION));
            assertEquals(1, undelivered.stream().filter(r -> r.key().equals(StreamId.forUser("ghost"))).count());
            assertEquals(1.0, app.metrics().count("notify.fanout.node.topic.missing", "stage", "route"));

            List<ConsumerRecord<byte[], byte[]>> dlq = ItKafka.readCommitted(infra.bootstrapServers(),
                    topics.eventsDlq().name(), new ByteArrayDeserializer(), new ByteArrayDeserializer(),
                    Duration.ofSeconds(30), r -> !r.isEmpty());
            assertEquals(1, dlq.size());
            assertEquals("schema", DlqFailure.readFrom(dlq.get(0).headers()).orElseThrow().kind());
            assertEquals(KafkaStreams.State.RUNNING, app.streams().state());
            assertEquals(1.0, app.metrics().count("notify.fanout.dedup.hits"));
            // Keyed by event id, not by the first recipient: only the copies whose stream happens to hash to the
            // partition they were read from skip the by-stream topic; all are sequenced either way.
            assertEquals(EVENTS_PARTITIONS, app.placement().partitions());
            double local = app.metrics().count("notify.fanout.recipients", "path", "local");
            double repartitioned = app.metrics().count("notify.fanout.recipients", "path", "repartition");
            assertEquals(EVENTS + 1, local + repartitioned, "one copy per accepted event");
            assertTrue(local > 0 && repartitioned > 0, local + " local, " + repartitioned + " repartitioned");
        }
    }
}
