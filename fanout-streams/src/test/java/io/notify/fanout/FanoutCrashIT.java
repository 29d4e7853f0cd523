package io.notify.fanout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.notify.common.config.Settings;
import io.notify.devstack.Infra;
import io.notify.devstack.JavaProcess;
import io.notify.devstack.NotifyInfraExtension;
import io.notify.fanout.recipients.RecipientPlacement;
import io.notify.schemas.event.EventEnvelope;
import io.notify.schemas.publish.NotifyPublisher;
import io.notify.schemas.serde.NotifySerdes;
import io.notify.schemas.stream.SequencedEvent;
import io.notify.schemas.stream.StreamId;
import io.notify.schemas.topic.TopicCatalog;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.internals.BuiltInPartitioner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Exactly-once across a crash: two fanout-streams instances run as child processes; one is
 * killed with SIGKILL mid-stream and the other takes over its tasks. notify.stream-log, read
 * read_committed, must hold every event exactly once per recipient with gapless seqs 1..n. Every
 * third event has a second recipient, so copies sequenced in the task that read them (the first
 * recipient's, see RecipientPlacement) and copies through the by-stream topic both cross the kill.
 */
@ExtendWith(NotifyInfraExtension.class)
@Timeout(240)
class FanoutCrashIT {

    static final int USERS = 10;
    static final int PER_USER = 40;

    @TempDir
    Path dir;

    static JavaProcess instance(Infra infra, Path dir, String name) {
        return new JavaProcess(FanoutMain.class.getName(), List.of(
                "notify.kafka.bootstrap-servers=" + infra.bootstrapServers(),
                "notify.topic-prefix=" + infra.prefix(),
                "notify.redis.uri=" + infra.redisUri(),
                "notify.fanout.state-dir=" + dir.resolve(name + "-state"),
                "notify.fanout.query.port=0",
                "notify.fanout.commit-interval=100ms",
                // Detect the killed member in seconds, not the default 45 s.
                "notify.fanout.streams.session.timeout.ms=6000",
                "notify.fanout.streams.heartbeat.interval.ms=1000"),
                List.of("-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"), dir.resolve(name + ".log"),
                // a secret: services refuse one on the command line
                Map.of(Settings.envName(FanoutConfig.QUERY_TOKENS), FanoutFixture.QUERY_TOKEN));
    }

    @Test
    void killedInstanceLosesAndDuplicatesNothing(Infra infra) throws Exception {
        TopicCatalog topics = TopicCatalog.of(infra.prefix());
        FanoutStreamsIT.createTopics(infra, topics);
        try (JavaProcess a = instance(infra, dir, "a").start();
             JavaProcess b = instance(infra, dir, "b").start();
             NotifyPublisher publisher = NotifyPublisher.builder().bootstrapServers(infra.bootstrapServers())
                     .topicPrefix(infra.prefix()).build()) {
            a.awaitLog("query API on port", Duration.ofSeconds(60));
            b.awaitLog("query API on port", Duration.ofSeconds(60));
            Map<String, Set<String>> sent = new HashMap<>();
            int total = USERS * PER_USER;
            int copies = 0;
            int repartitioned = 0;
            RecipientPlacement placement = RecipientPlacement.forTopics(FanoutStreamsIT.EVENTS_PARTITIONS, 0);
            long killedAt = 0;
            for (int i = 0; i < total; i++) {
                String user = "user-" + (i % USERS);
                String second = "user-" + ((i + 1) % USERS);
                EventEnvelope e = (i % 3 == 0 ? EventEnvelope.durable("crash.test", null, user, second)
                        : EventEnvelope.durable("crash.test", null, user)).withId("crash-" + i);
                publisher.publish(e).get(30, TimeUnit.SECONDS);
                for (String u : e.to().users()) {
                    sent.computeIfAbsent(u, k -> new TreeSet<>()).add(e.id());
                    copies++;
                }
                if (i % 3 == 0 && !placement.local(StreamId.forUser(second), partitionOf(user))) {
                    repartitioned++;
                }
                if (i == total / 3) {
                    awaitStreamLog(infra, topics, i / 2);
                    a.kill();
                    killedAt = System.nanoTime();
                }
            }
            assertTrue(repartitioned > 10, "second copies through the by-stream topic: " + repartitioned);
            List<ConsumerRecord<StreamId, SequencedEvent>> log = readLog(infra, topics, copies, Duration.ofSeconds(150));
            long recovered = System.nanoTime();
            Map<StreamId, List<SequencedEvent>> byStream = new TreeMap<>(log.stream().collect(Collectors.groupingBy(
                    ConsumerRecord::key, Collectors.mapping(ConsumerRecord::value, Collectors.toList()))));
            assertEquals(USERS, byStream.size());
            for (int u = 0; u < USERS; u++) {
                String user = "user-" + u;
                List<SequencedEvent> events = byStream.get(StreamId.forUser(user));
                assertEquals(LongStream.rangeClosed(1, sent.get(user).size()).boxed().toList(),
                        events.stream().map(SequencedEvent::seq).toList(), "gapless seqs of " + user);
                assertEquals(1, events.stream().map(SequencedEvent::epoch).distinct().count(), "one epoch for " + user);
                assertEquals(sent.get(user), new TreeSet<>(events.stream().map(SequencedEvent::id).toList()),
                        "every event of " + user + " exactly once");
            }
            assertEquals(copies, log.size(), "no duplicate in notify.stream-log");
            System.out.printf("FanoutCrashIT: %d events (%d copies, %d through the by-stream topic) exactly once; "
                    + "last event sequenced %d ms after the kill%n", total, copies, repartitioned,
                    TimeUnit.NANOSECONDS.toMillis(recovered - killedAt));
        }
    }

    /** The notify.events partition the publisher's key (the first recipient's stream) picks. */
    private static int partitionOf(String firstUser) {
        return BuiltInPartitioner.partitionForKey(StreamId.forUser(firstUser).value().getBytes(StandardCharsets.UTF_8),
                FanoutStreamsIT.EVENTS_PARTITIONS);
    }

    private static void awaitStreamLog(Infra infra, TopicCatalog topics, int atLeast) {
        List<?> seen = readLog(infra, topics, atLeast, Duration.ofSeconds(60));
        if (seen.size() < atLeast) {
            throw new AssertionError("only " + seen.size() + " of " + atLeast + " events sequenced before the kill");
        }
    }

    static List<ConsumerRecord<StreamId, SequencedEvent>> readLog(Infra infra, TopicCatalog topics, int atLeast,
                                                                  Duration timeout) {
        return ItKafka.readCommitted(infra.bootstrapServers(), topics.streamLog().name(),
                NotifySerdes.streamId().deserializer(), NotifySerdes.sequencedEvent().deserializer(), timeout,
                r -> r.size() >= atLeast);
    }
}
