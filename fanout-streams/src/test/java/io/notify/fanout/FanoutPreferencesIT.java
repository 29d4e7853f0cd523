package io.notify.fanout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.notify.devstack.Await;
import io.notify.devstack.Infra;
import io.notify.devstack.NotifyInfraExtension;
import io.notify.devstack.TestClock;
import io.notify.fanout.metrics.FanoutMetrics;
import io.notify.protocol.event.Channel;
import io.notify.protocol.event.Digest;
import io.notify.protocol.event.EventEnvelope;
import io.notify.protocol.event.Fallback;
import io.notify.protocol.inbox.FallbackRecord;
import io.notify.protocol.prefs.Channels;
import io.notify.protocol.prefs.Preferences;
import io.notify.protocol.prefs.QuietHours;
import io.notify.protocol.prefs.UserPreferences;
import io.notify.protocol.stream.SequencedEvent;
import io.notify.protocol.stream.StreamId;
import io.notify.registry.route.InMemoryRouteLookup;
import io.notify.schemas.publish.NotifyPublisher;
import io.notify.schemas.topic.TopicCatalog;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Users' preferences, quiet hours and digests in the real app under exactly_once_v2 against the real
 * broker, on a clock the test moves: the night Berlin's clocks go forward (2026-03-29), so quiet hours
 * 22:00–07:00 end at 05:00 UTC, not 06:00. The crash side (preferences and digests across a kill -9)
 * is in {@link FanoutCrashIT}.
 */
@ExtendWith(NotifyInfraExtension.class)
@Timeout(120)
class FanoutPreferencesIT {

    static final StreamId ANA = StreamId.forUser("ana");
    static final StreamId BOB = StreamId.forUser("bob");

    @TempDir
    Path stateDir;

    @Test
    void quietHoursAcrossTheSpringForwardChangeMutedChannelsCriticalEventsAndADigestOfTen(Infra infra) throws Exception {
        TestClock clock = new TestClock(Instant.parse("2026-03-28T21:30:00Z")); // 22:30 in Berlin
        FanoutConfig config = FanoutStreamsIT.config(infra, stateDir, Map.of());
        TopicCatalog topics = config.topics();
        FanoutStreamsIT.createTopics(infra, topics);
        try (FanoutApp app = new FanoutApp(config, new InMemoryRouteLookup(clock), FanoutMetrics.inMemory(), clock).start();
             NotifyPublisher publisher = NotifyPublisher.builder().bootstrapServers(infra.bootstrapServers())
                     .topicPrefix(infra.prefix()).build()) {
            FanoutStreamsIT.awaitRunning(app);
            setPreferences(infra, topics, ANA, new Preferences(Map.of("promo.sale", new Channels(null, null, false)),
                    Map.of("news", new Channels(null, false, null)), new QuietHours("22:00", "07:00", "Europe/Berlin")));
            Await.until("ana's preferences applied", Duration.ofSeconds(30),
                    () -> app.metrics().count("notify.fanout.preferences", "outcome", "applied") == 1.0);
            Fallback push = new Fallback("10s", "push");
            publisher.publish(EventEnvelope.durable("order.shipped", null, "ana").withId("held").withFallback(push)).get(30, TimeUnit.SECONDS);
            publisher.publish(EventEnvelope.durable("promo.sale", null, "ana").withId("muted").withFallback(push)).get(30, TimeUnit.SECONDS);
            publisher.publish(EventEnvelope.durable("news.daily", null, "ana").withId("live-only").withPolicy("news", false, null))
                    .get(30, TimeUnit.SECONDS);
            publisher.publish(EventEnvelope.durable("promo.sale", null, "ana").withId("critical").withFallback(push)
                    .withPolicy(null, true, null)).get(30, TimeUnit.SECONDS);
            for (int i = 1; i <= 10; i++) {
                publisher.publish(EventEnvelope.durable("comment.added", null, "bob").withId("c-" + i).withFallback(push)
                        .withPolicy(null, false, new Digest("comments:p-9", "1m"))).get(30, TimeUnit.SECONDS);
            }
            List<ConsumerRecord<StreamId, SequencedEvent>> log = FanoutCrashIT.readLog(infra, topics, 13, Duration.ofSeconds(60));
            List<SequencedEvent> ana = log.stream().filter(r -> r.key().equals(ANA)).map(ConsumerRecord::value).toList();
            assertEquals(List.of("held", "muted", "critical"), ana.stream().map(SequencedEvent::id).toList(),
                    "the news event is live only: not kept");
            assertEquals(List.of(List.of(), List.of(Channel.PUSH), List.of()), ana.stream().map(SequencedEvent::muted).toList());
            assertEquals(1.0, app.metrics().count("notify.fanout.muted", "channel", "inbox"));

            clock.advance(Duration.ofSeconds(65)); // every fallback due, bob's digest closed; ana in her quiet hours
            List<ConsumerRecord<StreamId, FallbackRecord>> first = fallbacks(infra, topics, 2);
            assertEquals(List.of("critical"), idsOf(first, ANA), "the critical one goes out at once; the other is held, the muted never");
            List<FallbackRecord> bob = first.stream().filter(r -> r.key().equals(BOB)).map(ConsumerRecord::value).toList();
            assertEquals(1, bob.size(), "one record for ten events: " + bob);
            assertEquals(10, bob.get(0).digest().count());
            assertEquals("c-1", bob.get(0).digest().first().id());
            assertEquals("c-10", bob.get(0).event().id());
            assertEquals(1.0, app.metrics().count("notify.fanout.fallback", "outcome", "held_quiet"));

            clock.advance(Duration.between(clock.instant(), Instant.parse("2026-03-29T05:00:02Z"))); // 07:00:02 CEST
            List<ConsumerRecord<StreamId, FallbackRecord>> all = fallbacks(infra, topics, 3);
            assertEquals(List.of("critical", "held"), idsOf(all, ANA));
            FallbackRecord held = all.stream().filter(r -> r.value().event().id().equals("held")).findFirst().orElseThrow().value();
            assertEquals(Instant.parse("2026-03-29T05:00:00Z").toEpochMilli(), held.dueAt(), "07:00 in Berlin, summer time");
            assertTrue(all.stream().noneMatch(r -> r.value().event().id().equals("muted")));
        }
    }

    private static List<String> idsOf(List<ConsumerRecord<StreamId, FallbackRecord>> records, StreamId user) {
        return records.stream().filter(r -> r.key().equals(user)).map(r -> r.value().event().id()).toList();
    }

    private static List<ConsumerRecord<StreamId, FallbackRecord>> fallbacks(Infra infra, TopicCatalog topics, int atLeast) {
        List<ConsumerRecord<StreamId, FallbackRecord>> records = ItKafka.readCommitted(infra.bootstrapServers(), topics.fallback().name(),
                topics.fallback().keySerde().deserializer(), topics.fallback().valueSerde().deserializer(), Duration.ofSeconds(30),
                r -> r.size() >= atLeast);
        assertEquals(atLeast, records.size(), "fallback records: " + records);
        return records;
    }

    private static void setPreferences(Infra infra, TopicCatalog topics, StreamId user, Preferences prefs) {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, infra.bootstrapServers());
        try (KafkaProducer<StreamId, UserPreferences> producer = new KafkaProducer<>(p, topics.preferences().keySerde().serializer(),
                topics.preferences().valueSerde().serializer())) {
            producer.send(new ProducerRecord<>(topics.preferences().name(), user, new UserPreferences(user, prefs, 1)));
            producer.flush();
        }
    }
}
