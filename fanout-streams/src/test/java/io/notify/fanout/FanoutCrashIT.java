package io.notify.fanout;

import com.fasterxml.jackson.databind.JsonNode;
import io.notify.devstack.Await;
import io.notify.protocol.NotifyJson;
import io.notify.protocol.inbox.InboxState;
import io.notify.protocol.inbox.Receipt;
import io.notify.protocol.inbox.ReceiptKind;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.notify.common.config.Settings;
import io.notify.devstack.Infra;
import io.notify.devstack.JavaProcess;
import io.notify.devstack.NotifyInfraExtension;
import io.notify.fanout.recipients.RecipientPlacement;
import io.notify.protocol.event.Channel;
import io.notify.protocol.event.Digest;
import io.notify.protocol.event.EventEnvelope;
import io.notify.protocol.event.Fallback;
import io.notify.protocol.event.Recall;
import io.notify.protocol.inbox.FallbackRecord;
import io.notify.protocol.prefs.Channels;
import io.notify.protocol.prefs.Preferences;
import io.notify.protocol.prefs.UserPreferences;
import io.notify.protocol.stream.SequencedEvent;
import io.notify.protocol.stream.StreamId;
import io.notify.schemas.publish.NotifyPublisher;
import io.notify.schemas.serde.NotifySerdes;
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
 * The instances run the default commit timing (exactly_once_v2, commits on catch-up: CatchUpCommit),
 * so the kill lands among transactions of a few records each.
 *
 * <p>Users' preferences and digests cross the kill too (issue 41): {@value #DIGEST_USERS} more users set
 * preferences before the run (type {@code crash.nopush}: push off); every eighth event also goes to one
 * of them as a {@code crash.digest} event with a fallback folded into digest {@code crash} (window
 * {@value #DIGEST_WINDOW}), and every eighth, offset by four, as a {@code crash.nopush} one. After the
 * kill the survivor still mutes push for them (the preferences store restored), and the digests'
 * fallback records together fold every {@code crash.digest} event exactly once. Every eleventh event is recalled
 * right after it is published (a recall record by id, as a direct producer writes it), on both sides of the kill:
 * each is recalled exactly once, in its own seq, and archived for its users (their unread counts drop by it).
 */
@ExtendWith(NotifyInfraExtension.class)
@Timeout(240)
class FanoutCrashIT {

    static final int USERS = 10;
    static final int PER_USER = 40;
    static final int DIGEST_USERS = 3;
    static final String DIGEST_WINDOW = "20s";

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
                     .topicPrefix(infra.prefix()).build();
             KafkaProducer<String, String> recaller = ItKafka.producer(infra.bootstrapServers())) {
            a.awaitLog("query API on port", Duration.ofSeconds(60));
            b.awaitLog("query API on port", Duration.ofSeconds(60));
            Map<String, Set<String>> sent = new HashMap<>();
            int total = USERS * PER_USER;
            int copies = 0;
            int repartitioned = 0;
            RecipientPlacement placement = RecipientPlacement.forTopics(FanoutStreamsIT.EVENTS_PARTITIONS, 0);
            long killedAt = 0;
            setPreferences(infra, topics);
            Await.until("the digest users' preferences applied", Duration.ofSeconds(60),
                    () -> preferencesApplied(a) + preferencesApplied(b) == DIGEST_USERS);
            Map<String, Set<String>> digested = new HashMap<>();
            Map<String, Set<String>> unpushed = new HashMap<>();
            Map<String, Set<String>> recalled = new HashMap<>();
            int recalledCopies = 0;
            for (int i = 0; i < total; i++) {
                if (i % 4 == 0) { // a digest user's event: folded (i % 8 == 0) or with push muted by the user
                    String user = "dig-" + (i / 8) % DIGEST_USERS;
                    boolean fold = i % 8 == 0;
                    EventEnvelope e = EventEnvelope.durable(fold ? "crash.digest" : "crash.nopush", null, user).withId("dig-" + i)
                            .withFallback(new Fallback("10s", "push"))
                            .withPolicy(null, false, fold ? new Digest("crash", DIGEST_WINDOW) : null);
                    publisher.publish(e).get(30, TimeUnit.SECONDS);
                    (fold ? digested : unpushed).computeIfAbsent(user, k -> new TreeSet<>()).add(e.id());
                }
                String user = "user-" + (i % USERS);
                String second = "user-" + ((i + 1) % USERS);
                EventEnvelope e = (i % 3 == 0 ? EventEnvelope.durable("crash.test", null, user, second)
                        : EventEnvelope.durable("crash.test", null, user)).withId("crash-" + i);
                publisher.publish(e).get(30, TimeUnit.SECONDS);
                for (String u : e.to().users()) {
                    sent.computeIfAbsent(u, k -> new TreeSet<>()).add(e.id());
                    copies++;
                }
                if (i % 11 == 7) { // every eleventh: a different first user each time (USERS is 10)
                    ItKafka.send(recaller, topics.events().name(), e.recordKey(), NotifyJson.mapper().writeValueAsString(
                            new Recall("rc-" + e.id(), Recall.Target.event(e.id()), e.to())));
                    for (String u : e.to().users()) {
                        recalled.computeIfAbsent(u, k -> new TreeSet<>()).add(e.id());
                        recalledCopies++;
                    }
                }
                if (i % 3 == 0 && !placement.local(StreamId.forUser(second), partitionOf(user))) {
                    repartitioned++;
                }
                if (i == total / 3) {
                    awaitStreamLog(infra, topics, i / 2);
                    markRead(infra, topics, MARKED_BEFORE_KILL);
                    awaitStates(infra, topics, MARKED_BEFORE_KILL);
                    // Events i/2..i are still being processed: the kill lands among the short transactions that
                    // commits on catch-up make (the default under exactly_once_v2), not only interval ones.
                    assertTrue(catchUpCommits(a) > 0, "instance a committed on catch-up before the kill");
                    a.kill();
                    killedAt = System.nanoTime();
                }
            }
            assertTrue(repartitioned > 10, "second copies through the by-stream topic: " + repartitioned);
            int digestCopies = total / 4;
            int logged = copies + digestCopies + recalledCopies; // a recall is logged as the event's recalled entry
            List<ConsumerRecord<StreamId, SequencedEvent>> log = readLog(infra, topics, logged, Duration.ofSeconds(150));
            long recovered = System.nanoTime();
            Map<StreamId, List<SequencedEvent>> byStream = new TreeMap<>(log.stream().collect(Collectors.groupingBy(
                    ConsumerRecord::key, Collectors.mapping(ConsumerRecord::value, Collectors.toList()))));
            assertEquals(USERS + DIGEST_USERS, byStream.size());
            assertDigestsAndPreferences(infra, topics, byStream, digested, unpushed);
            for (int u = 0; u < USERS; u++) {
                String user = "user-" + u;
                List<SequencedEvent> events = byStream.get(StreamId.forUser(user)).stream().filter(e -> !e.recalled()).toList();
                Map<String, Long> seqOf = events.stream().collect(Collectors.toMap(SequencedEvent::id, SequencedEvent::seq));
                List<SequencedEvent> recalls = byStream.get(StreamId.forUser(user)).stream().filter(SequencedEvent::recalled).toList();
                assertEquals(recalled.getOrDefault(user, Set.of()), new TreeSet<>(recalls.stream().map(SequencedEvent::id).toList()), "recalled, " + user);
                assertEquals(recalled.getOrDefault(user, Set.of()).size(), recalls.size(), "each recalled once, " + user);
                assertTrue(recalls.stream().allMatch(r -> r.seq() == seqOf.get(r.id()) && r.data().isEmpty()), "in its own seq: " + recalls);
                assertEquals(LongStream.rangeClosed(1, sent.get(user).size()).boxed().toList(),
                        events.stream().map(SequencedEvent::seq).toList(), "gapless seqs of " + user);
                assertEquals(1, events.stream().map(SequencedEvent::epoch).distinct().count(), "one epoch for " + user);
                assertEquals(sent.get(user), new TreeSet<>(events.stream().map(SequencedEvent::id).toList()),
                        "every event of " + user + " exactly once");
            }
            assertEquals(logged, log.size(), "no duplicate in notify.stream-log");
            // read state marked before the kill is still there, on whichever instance owns the stream now
            int port = queryPort(b);
            for (int u = 0; u < USERS; u++) {
                String user = "user-" + u;
                Set<Long> readSeqs = LongStream.rangeClosed(1, MARKED_BEFORE_KILL).boxed().collect(Collectors.toSet());
                long recalledUnread = byStream.get(StreamId.forUser(user)).stream()
                        .filter(e -> e.recalled() && !readSeqs.contains(e.seq())).count();
                long unread = sent.get(user).size() - MARKED_BEFORE_KILL - recalledUnread;
                AtomicReference<JsonNode> state = new AtomicReference<>();
                Await.until(user + "'s unread count without its recalled events", Duration.ofSeconds(60), () -> {
                    try {
                        state.set(stateOf(port, user));
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                    return state.get().path("unread").asLong() == unread;
                });
                assertEquals(MARKED_BEFORE_KILL, state.get().path("state").path("read").path("upTo").asLong(), state.toString());
            }
            markRead(infra, topics, MARKED_BEFORE_KILL + 1);
            awaitStates(infra, topics, MARKED_BEFORE_KILL + 1);
            assertEquals(2 + recalled.getOrDefault("user-0", Set.of()).size(), stateOf(port, "user-0").path("version").asLong(),
                    "the survivor goes on from the restored state (two reads, an archive mark per recall)");
            System.out.printf("FanoutCrashIT: %d events (%d copies, %d through the by-stream topic) exactly once; "
                    + "last event sequenced %d ms after the kill%n", total, copies, repartitioned,
                    TimeUnit.NANOSECONDS.toMillis(recovered - killedAt));
        }
    }

    static final long MARKED_BEFORE_KILL = 5;

    /** The digest users turn push off for type crash.nopush, before any event of theirs (the instances made the topic). */
    private static void setPreferences(Infra infra, TopicCatalog topics) {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, infra.bootstrapServers());
        try (KafkaProducer<StreamId, UserPreferences> producer = new KafkaProducer<>(p, topics.preferences().keySerde().serializer(),
                topics.preferences().valueSerde().serializer())) {
            for (int u = 0; u < DIGEST_USERS; u++) {
                StreamId stream = StreamId.forUser("dig-" + u);
                producer.send(new ProducerRecord<>(topics.preferences().name(), stream, new UserPreferences(stream,
                        new Preferences(Map.of("crash.nopush", new Channels(null, null, false)), Map.of(), null), 1)));
            }
            producer.flush();
        }
    }

    /**
     * Every crash.nopush event is in the stream log muted for push and has no fallback record, on either side of the
     * kill; the digests' fallback records fold each crash.digest event exactly once (nobody acked or read them), in
     * ranges of seqs that do not overlap.
     */
    private static void assertDigestsAndPreferences(Infra infra, TopicCatalog topics, Map<StreamId, List<SequencedEvent>> byStream,
                                                    Map<String, Set<String>> digested, Map<String, Set<String>> unpushed) {
        long expected = digested.values().stream().mapToLong(Set::size).sum();
        List<ConsumerRecord<StreamId, FallbackRecord>> records = ItKafka.readCommitted(infra.bootstrapServers(),
                topics.fallback().name(), topics.fallback().keySerde().deserializer(), topics.fallback().valueSerde().deserializer(),
                Duration.ofSeconds(90), r -> r.stream().mapToLong(f -> f.value().digest() == null ? 1 : f.value().digest().count())
                        .sum() >= expected);
        for (int u = 0; u < DIGEST_USERS; u++) {
            String user = "dig-" + u;
            List<SequencedEvent> events = byStream.get(StreamId.forUser(user));
            assertEquals(LongStream.rangeClosed(1, events.size()).boxed().toList(), events.stream().map(SequencedEvent::seq).toList(),
                    "gapless seqs of " + user);
            for (SequencedEvent e : events) {
                boolean muted = unpushed.get(user).contains(e.id());
                assertEquals(muted ? List.of(Channel.PUSH) : List.of(), e.muted(), e.id() + ": push muted by the preferences");
            }
            List<FallbackRecord> mine = records.stream().filter(r -> r.key().equals(StreamId.forUser(user))).map(ConsumerRecord::value)
                    .toList();
            assertTrue(mine.stream().allMatch(r -> r.digest() != null && r.digest().key().equals("crash")),
                    user + ": only digests, no fallback for a muted event: " + mine);
            assertEquals(digested.get(user).size(), mine.stream().mapToLong(r -> r.digest().count()).sum(),
                    user + ": every folded event counted once");
            assertEquals(mine.size(), mine.stream().map(r -> r.digest().first().seq()).distinct().count(), user + ": no digest twice");
        }
    }

    /** Every user marks its first {@code upTo} events read (the gateways' POST /v1/inbox/read). */
    private static void markRead(Infra infra, TopicCatalog topics, long upTo) throws Exception {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, infra.bootstrapServers());
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        try (KafkaProducer<StreamId, Receipt> producer = new KafkaProducer<>(p, topics.receipts().keySerde().serializer(),
                topics.receipts().valueSerde().serializer())) {
            for (int u = 0; u < USERS; u++) {
                StreamId stream = StreamId.forUser("user-" + u);
                producer.send(new ProducerRecord<>(topics.receipts().name(), stream,
                        Receipt.markUpTo(stream, ReceiptKind.READ, null, upTo, "crash-it", System.currentTimeMillis())));
            }
            producer.flush();
        }
    }

    /** Waits until notify.inbox-state holds, for every user, a committed state read up to {@code upTo}. */
    private static void awaitStates(Infra infra, TopicCatalog topics, long upTo) {
        List<ConsumerRecord<StreamId, InboxState>> states = ItKafka.readCommitted(infra.bootstrapServers(),
                topics.inboxState().name(), topics.inboxState().keySerde().deserializer(),
                topics.inboxState().valueSerde().deserializer(), Duration.ofSeconds(90),
                r -> r.stream().filter(s -> s.value().read().upTo() == upTo).map(ConsumerRecord::key).distinct().count() == USERS);
        assertEquals(USERS, states.stream().filter(s -> s.value().read().upTo() == upTo).map(ConsumerRecord::key).distinct().count(),
                "every user's state read up to " + upTo + " on notify.inbox-state");
    }

    private static int queryPort(JavaProcess instance) throws Exception {
        return loggedPort(instance, "query API on port (\\d+)");
    }

    private static int loggedPort(JavaProcess instance, String regex) throws Exception {
        Matcher m = Pattern.compile(regex).matcher(Files.readString(instance.logFile()));
        assertTrue(m.find(), "no " + regex + " in " + instance.logFile());
        return Integer.parseInt(m.group(1));
    }

    /** notify_fanout_catch_up_commits_total of a running instance (its management port's /metrics). */
    private static double catchUpCommits(JavaProcess instance) throws Exception {
        double commits = counter(instance, "notify_fanout_catch_up_commits_total", "");
        assertTrue(commits >= 0, "no notify_fanout_catch_up_commits_total in /metrics");
        return commits;
    }

    /** notify_fanout_preferences_total{outcome="applied"} of a running instance, 0 before its first. */
    private static double preferencesApplied(JavaProcess instance) {
        try {
            return Math.max(0, counter(instance, "notify_fanout_preferences_total", "outcome=\"applied\""));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** A counter of a running instance whose labels contain {@code label} (its management port's /metrics); -1 when absent. */
    private static double counter(JavaProcess instance, String name, String label) throws Exception {
        int port = loggedPort(instance, "management on port (\\d+)");
        String metrics = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics"))
                .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString()).body();
        Matcher m = Pattern.compile("(?m)^" + name + "(?:\\{[^}]*" + Pattern.quote(label) + "[^}]*\\})? ([0-9.eE+]+)$").matcher(metrics);
        return m.find() ? Double.parseDouble(m.group(1)) : -1;
    }

    /** GET /v1/streams/u:<user>/state from the query API, retried while ownership settles (503). */
    private static JsonNode stateOf(int port, String user) throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        HttpRequest req = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/v1/streams/u:" + user + "/state"))
                .header("Authorization", "Bearer " + FanoutFixture.QUERY_TOKEN).timeout(Duration.ofSeconds(10)).build();
        AtomicReference<String> body = new AtomicReference<>();
        Await.until("the state of " + user, Duration.ofSeconds(60), () -> {
            try {
                HttpResponse<String> answer = http.send(req, HttpResponse.BodyHandlers.ofString());
                body.set(answer.statusCode() == 200 ? answer.body() : null);
            } catch (IOException e) {
                body.set(null);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
            return body.get() != null;
        });
        return NotifyJson.mapper().readTree(body.get());
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
