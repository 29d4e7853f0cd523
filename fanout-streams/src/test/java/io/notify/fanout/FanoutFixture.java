package io.notify.fanout;

import io.notify.protocol.inbox.FallbackRecord;
import java.util.ArrayList;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.notify.common.config.Settings;
import io.notify.devstack.TestClock;
import io.notify.fanout.inbox.InboxKey;
import io.notify.fanout.inbox.InboxStores;
import io.notify.fanout.inbox.StreamHead;
import io.notify.fanout.metrics.FanoutMetrics;
import io.notify.fanout.recipients.RecipientPlacement;
import io.notify.fanout.routing.NodeTopics;
import io.notify.protocol.inbox.InboxState;
import io.notify.protocol.inbox.Receipt;
import io.notify.protocol.prefs.Preferences;
import io.notify.protocol.prefs.UserPreferences;
import io.notify.protocol.push.PushChange;
import io.notify.protocol.stream.DeliveryMessage;
import io.notify.protocol.stream.SequencedEvent;
import io.notify.protocol.stream.StreamId;
import io.notify.protocol.stream.UndeliveredEvent;
import io.notify.registry.ConnectionRef;
import io.notify.registry.route.InMemoryRouteLookup;
import io.notify.schemas.serde.NotifySerdes;
import io.notify.schemas.topic.Topic;
import io.notify.schemas.topic.TopicCatalog;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.test.TestRecord;

/**
 * The whole topology under TopologyTestDriver with an in-memory registry and a hand-driven
 * clock: caching off (every write visible at once) and a state dir of the test's own. The
 * driver reads every record from partition 0; by default the placement assumes two partitions, so
 * copies for streams of partition 0 are sequenced locally and the others go through the by-stream
 * repartition topic, as a mix of both happens in production.
 */
final class FanoutFixture implements AutoCloseable {

    static final Instant START = Instant.parse("2026-01-01T00:00:00Z");
    static final String PREFIX = "t.";

    final TestClock clock;
    final InMemoryRouteLookup registry;
    final FanoutMetrics metrics = FanoutMetrics.inMemory();
    final TopicCatalog topics = TopicCatalog.of(PREFIX);
    final FanoutConfig config;
    final TopologyTestDriver driver;
    private final TestInputTopic<byte[], byte[]> events;

    static final RecipientPlacement TWO_PARTITIONS = RecipientPlacement.forTopics(2, 0);
    /** The query API's service token in every test config of this module. */
    static final String QUERY_TOKEN = "test-query-token-0123456789";

    FanoutFixture(Path stateDir) {
        this(stateDir, Map.of(), NodeTopics.assumeAll());
    }

    FanoutFixture(Path stateDir, Map<String, String> settings, NodeTopics nodeTopics) {
        this(stateDir, settings, nodeTopics, TWO_PARTITIONS);
    }

    FanoutFixture(Path stateDir, Map<String, String> settings, NodeTopics nodeTopics, RecipientPlacement placement) {
        this(stateDir, settings, nodeTopics, placement, START);
    }

    /** A topology whose clocks (the test's and the driver's wall clock) start at {@code start}. */
    FanoutFixture(Path stateDir, Instant start) {
        this(stateDir, Map.of(), NodeTopics.assumeAll(), TWO_PARTITIONS, start);
    }

    FanoutFixture(Path stateDir, Map<String, String> settings, NodeTopics nodeTopics, RecipientPlacement placement, Instant start) {
        clock = new TestClock(start);
        registry = new InMemoryRouteLookup(clock);
        Map<String, String> values = new HashMap<>(Map.of(
                "notify.topic-prefix", PREFIX,
                "notify.fanout.state-dir", stateDir.toString(),
                "notify.fanout.cache-max-bytes", "0",
                "notify.kafka.bootstrap-servers", "unused:9092",
                FanoutConfig.QUERY_TOKENS, QUERY_TOKEN));
        values.putAll(settings);
        config = FanoutConfig.load(Settings.of(values));
        Properties props = FanoutStreamsConfig.properties(config, nodeTopics, metrics, registry);
        driver = new TopologyTestDriver(FanoutTopology.build(config, placement, registry, nodeTopics, clock, metrics), props, start);
        events = driver.createInputTopic(topics.events().name(), new ByteArraySerializer(), new ByteArraySerializer());
    }

    /** A v1 event JSON with the given id (null: no id field), class and users. */
    static String event(String id, String eventClass, String... users) {
        StringBuilder to = new StringBuilder();
        for (String u : users) {
            to.append(to.length() == 0 ? "" : ",").append('"').append(u).append('"');
        }
        return "{" + (id == null ? "" : "\"id\":\"" + id + "\",") + "\"type\":\"order.shipped\",\"to\":{\"users\":["
                + to + "]},\"class\":\"" + eventClass + "\",\"data\":{\"n\":1}}";
    }

    /** The same epoch and inbox range ({@code ageCheckAt} is a cache of the age bound, not compared). */
    static void assertSameRange(StreamHead expected, StreamHead actual) {
        assertTrue(actual != null && expected.epoch().equals(actual.epoch()) && expected.firstSeq() == actual.firstSeq()
                && expected.lastSeq() == actual.lastSeq(), "expected " + expected + ", got " + actual);
    }

    static String durable(String id, String... users) {
        return event(id, "durable", users);
    }

    /** Sends a record keyed by the event id, stamped with the clock's time. */
    void send(String id, String json) {
        send(id == null ? null : id.getBytes(StandardCharsets.UTF_8), json.getBytes(StandardCharsets.UTF_8));
    }

    void send(byte[] key, byte[] value) {
        send(key, value, new RecordHeaders());
    }

    void send(byte[] key, byte[] value, RecordHeaders headers) {
        events.pipeInput(new TestRecord<>(key, value, headers, clock.instant()));
    }

    /** Pipes a receipt into notify.receipts, keyed by its stream, stamped with the clock's time. */
    void receipt(Receipt r) {
        receipt(NotifySerdes.streamId().serializer().serialize(null, r.stream()), NotifySerdes.receipt().serializer().serialize(null, r));
    }

    void receipt(byte[] key, byte[] value) {
        driver.createInputTopic(topics.receipts().name(), new ByteArraySerializer(), new ByteArraySerializer())
                .pipeInput(new TestRecord<>(key, value, new RecordHeaders(), clock.instant()));
    }

    /** Pipes a push change into notify.push-changes, keyed by its stream. */
    void pushChange(PushChange c) {
        pushChange(NotifySerdes.streamId().serializer().serialize(null, c.stream()), NotifySerdes.pushChange().serializer().serialize(null, c));
    }

    void pushChange(byte[] key, byte[] value) {
        driver.createInputTopic(topics.pushChanges().name(), new ByteArraySerializer(), new ByteArraySerializer())
                .pipeInput(new TestRecord<>(key, value, new RecordHeaders(), clock.instant()));
    }

    /** Pipes a user's preferences into notify.preferences, keyed by their stream; null preferences: a tombstone (reset). */
    void preferences(StreamId user, Preferences prefs) {
        byte[] key = NotifySerdes.streamId().serializer().serialize(null, user);
        byte[] value = prefs == null ? null
                : NotifySerdes.userPreferences().serializer().serialize(null, new UserPreferences(user, prefs, clock.millis()));
        driver.createInputTopic(topics.preferences().name(), new ByteArraySerializer(), new ByteArraySerializer())
                .pipeInput(new TestRecord<>(key, value, new RecordHeaders(), clock.instant()));
    }

    List<KeyValue<StreamId, InboxState>> inboxStates() {
        return output(topics.inboxState()).readKeyValuesToList();
    }

    void sendDurable(String id, String... users) {
        send(id, durable(id, users));
    }

    /** Moves the clock and the driver's wall clock together (wall-clock punctuators fire). */
    void advance(Duration d) {
        clock.advance(d);
        driver.advanceWallClockTime(d);
    }

    void connect(String user, String node, String incarnation, String conn) {
        registry.setAlive(node, incarnation);
        registry.register(StreamId.forUser(user), new ConnectionRef(node, incarnation, conn), Duration.ofSeconds(45));
    }

    <K, V> TestOutputTopic<K, V> output(Topic<K, V> topic) {
        return driver.createOutputTopic(topic.name(), topic.keySerde().deserializer(), topic.valueSerde().deserializer());
    }

    List<KeyValue<StreamId, SequencedEvent>> streamLog() {
        return output(topics.streamLog()).readKeyValuesToList();
    }

    List<KeyValue<StreamId, DeliveryMessage>> node(String nodeId) {
        return output(topics.node(nodeId)).readKeyValuesToList();
    }

    List<KeyValue<StreamId, DeliveryMessage>> allNodes() {
        return output(topics.allNodes()).readKeyValuesToList();
    }

    List<KeyValue<StreamId, UndeliveredEvent>> undelivered() {
        return output(topics.undelivered()).readKeyValuesToList();
    }

    TestOutputTopic<byte[], byte[]> dlq() {
        return driver.createOutputTopic(topics.eventsDlq().name(), new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    // every record each output topic had so far (reading a driver's output topic consumes it), for the *Of reads below
    private final List<KeyValue<StreamId, SequencedEvent>> logged = new ArrayList<>();
    private final Map<String, List<KeyValue<StreamId, DeliveryMessage>>> deliveredByNode = new HashMap<>();
    private final List<KeyValue<StreamId, FallbackRecord>> fellBack = new ArrayList<>();

    /** Every stream-log record of {@code stream} so far, in order (this and {@link #streamLog()} consume the same topic). */
    List<SequencedEvent> logOf(StreamId stream) {
        logged.addAll(streamLog());
        return logged.stream().filter(kv -> kv.key.equals(stream)).map(kv -> kv.value).toList();
    }

    /** Every delivery message for {@code stream} on {@code nodeId}'s topic so far, in order. */
    List<DeliveryMessage> deliveredOf(String nodeId, StreamId stream) {
        List<KeyValue<StreamId, DeliveryMessage>> seen = deliveredByNode.computeIfAbsent(nodeId, n -> new ArrayList<>());
        seen.addAll(node(nodeId));
        return seen.stream().filter(kv -> kv.key.equals(stream)).map(kv -> kv.value).toList();
    }

    /** Every notify.fallback record of {@code stream} so far, in order. */
    List<FallbackRecord> fallbacksOf(StreamId stream) {
        fellBack.addAll(output(topics.fallback()).readKeyValuesToList());
        return fellBack.stream().filter(kv -> kv.key.equals(stream)).map(kv -> kv.value).toList();
    }

    /** A counter of the topology's metrics with one tag; 0 before it counted. */
    double counted(String name, String tag, String value) {
        var c = metrics.registry().find(name).tags(tag, value).counter();
        return c == null ? 0 : c.count();
    }

    /** Every write to the inbox changelog, in order; a null value is a tombstone. */
    List<KeyValue<InboxKey, SequencedEvent>> inboxChangelog() {
        return driver.createOutputTopic(config.streamsApplicationId() + "-" + InboxStores.INBOX + "-changelog",
                InboxKey.serde().deserializer(), NotifySerdes.sequencedEvent().deserializer()).readKeyValuesToList();
    }

    KeyValueStore<StreamId, StreamHead> heads() {
        return driver.getKeyValueStore(InboxStores.HEADS);
    }

    KeyValueStore<InboxKey, SequencedEvent> inbox() {
        return driver.getKeyValueStore(InboxStores.INBOX);
    }

    @Override
    public void close() {
        driver.close();
    }
}
