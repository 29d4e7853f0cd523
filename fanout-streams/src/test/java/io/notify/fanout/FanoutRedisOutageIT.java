package io.notify.fanout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.notify.common.config.Settings;
import io.notify.devstack.Await;
import io.notify.devstack.Infra;
import io.notify.devstack.NotifyInfraExtension;
import io.notify.devstack.RedisServer;
import io.notify.protocol.event.EventEnvelope;
import io.notify.protocol.stream.DeliveryMessage;
import io.notify.protocol.stream.SequencedEvent;
import io.notify.protocol.stream.StreamId;
import io.notify.protocol.stream.UndeliveredEvent;
import io.notify.registry.RegistryClients;
import io.notify.registry.RegistryKeys;
import io.notify.registry.RegistryRedis;
import io.notify.registry.lease.NodeRegistry;
import io.notify.registry.lease.NodeRegistryConfig;
import io.notify.schemas.publish.NotifyPublisher;
import io.notify.schemas.serde.NotifySerdes;
import io.notify.schemas.topic.TopicCatalog;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.streams.KafkaStreams;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Redis is only a routing hint: stopped mid-stream, events keep being sequenced into the inbox
 * and recorded undelivered (registry_unavailable); restarted (empty), the gateway re-registers and
 * live routing resumes. No event is lost from the stream's history.
 */
@ExtendWith(NotifyInfraExtension.class)
@Timeout(180)
class FanoutRedisOutageIT {

    static final String NODE = "gw-r";
    static final StreamId STREAM = StreamId.forUser("outage-user");

    @TempDir
    Path dir;

    @Test
    void redisDownLosesNothingAndRoutingResumes(Infra infra) throws Exception {
        TopicCatalog topics = TopicCatalog.of(infra.prefix());
        FanoutStreamsIT.createTopics(infra, topics);
        infra.createTopic(topics.node(NODE).name(), 1);
        try (RedisServer redis = new RedisServer().start()) {
            RegistryRedis client = RegistryClients.create(redis.uri(), false, Duration.ofSeconds(1));
            NodeRegistryConfig timings = NodeRegistryConfig.defaults()
                    .withTimings(Duration.ofSeconds(6), Duration.ofSeconds(1), Duration.ofSeconds(3), Duration.ofMillis(500));
            try (NodeRegistry node = new NodeRegistry(NODE, NodeRegistry.newIncarnation(), timings,
                         new RegistryKeys(infra.prefix()), client, Clock.systemUTC(), new SimpleMeterRegistry());
                 FanoutService fanout = new FanoutService(FanoutConfig.load(Settings.of(Map.of(
                         "notify.kafka.bootstrap-servers", infra.bootstrapServers(),
                         "notify.topic-prefix", infra.prefix(),
                         "notify.redis.uri", redis.uri(),
                         "notify.fanout.state-dir", dir.toString(),
                         "notify.fanout.query.port", "0",
                         FanoutConfig.QUERY_TOKENS, FanoutFixture.QUERY_TOKEN)))).start();
                 NotifyPublisher publisher = NotifyPublisher.builder().bootstrapServers(infra.bootstrapServers())
                         .topicPrefix(infra.prefix()).build()) {
                node.start().toCompletableFuture().get(10, TimeUnit.SECONDS);
                node.register(STREAM, "c1").toCompletableFuture().get(10, TimeUnit.SECONDS);
                Await.until("RUNNING", Duration.ofSeconds(60),
                        () -> fanout.app().streams().state() == KafkaStreams.State.RUNNING);

                int n = 0;
                for (; n < 10; n++) {
                    publish(publisher, n);
                }
                awaitDelivered(infra, topics, Set.of("o-9"), Duration.ofSeconds(60));

                redis.stop();
                for (; n < 20; n++) {
                    publish(publisher, n);
                }
                List<ConsumerRecord<StreamId, UndeliveredEvent>> undelivered = ItKafka.readCommitted(
                        infra.bootstrapServers(), topics.undelivered().name(), NotifySerdes.streamId().deserializer(),
                        NotifySerdes.undeliveredEvent().deserializer(), Duration.ofSeconds(60),
                        r -> r.stream().anyMatch(x -> x.value().event().id().equals("o-19")));
                assertTrue(undelivered.stream().anyMatch(r -> r.value().reason().wireName().equals("registry_unavailable")),
                        "events during the outage are recorded undelivered with reason registry_unavailable");

                redis.restart();
                // Routing resumes once the gateway re-registered (next heartbeat) and the router reconnected.
                long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
                boolean resumed = false;
                while (!resumed && System.nanoTime() < deadline) {
                    publish(publisher, n);
                    resumed = !readDeliveries(infra, topics, Set.of("o-" + n), Duration.ofSeconds(2)).isEmpty();
                    n++;
                }
                assertTrue(resumed, "live routing resumed after Redis came back");

                List<ConsumerRecord<StreamId, SequencedEvent>> log = FanoutCrashIT.readLog(infra, topics, n,
                        Duration.ofSeconds(60));
                List<SequencedEvent> history = log.stream().map(ConsumerRecord::value)
                        .filter(e -> e.stream().equals(STREAM)).toList();
                assertEquals(LongStream.rangeClosed(1, n).boxed().toList(),
                        history.stream().map(SequencedEvent::seq).toList(), "every event is in the stream's history");
            }
        }
    }

    private static void publish(NotifyPublisher publisher, int i) throws Exception {
        publisher.publish(EventEnvelope.durable("outage.test", null, STREAM.userId()).withId("o-" + i))
                .get(30, TimeUnit.SECONDS);
    }

    private static void awaitDelivered(Infra infra, TopicCatalog topics, Set<String> ids, Duration timeout) {
        List<String> got = readDeliveries(infra, topics, ids, timeout);
        assertEquals(ids, Set.copyOf(got), "delivered to the node topic");
    }

    private static List<String> readDeliveries(Infra infra, TopicCatalog topics, Set<String> ids, Duration timeout) {
        List<ConsumerRecord<StreamId, DeliveryMessage>> records = ItKafka.readCommitted(infra.bootstrapServers(),
                topics.node(NODE).name(), NotifySerdes.streamId().deserializer(), NotifySerdes.deliveryMessage().deserializer(),
                timeout, r -> r.stream().map(x -> x.value().event().id()).collect(Collectors.toSet()).containsAll(ids));
        return records.stream().map(r -> r.value().event().id()).filter(ids::contains).distinct().toList();
    }
}
