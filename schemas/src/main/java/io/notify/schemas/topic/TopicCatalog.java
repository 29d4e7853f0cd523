package io.notify.schemas.topic;

import io.notify.protocol.event.EventEnvelope;
import io.notify.protocol.inbox.FallbackRecord;
import io.notify.protocol.inbox.InboxState;
import io.notify.protocol.inbox.Receipt;
import io.notify.protocol.prefs.UserPreferences;
import io.notify.protocol.push.PushChange;
import io.notify.protocol.push.PushOutcome;
import io.notify.protocol.push.PushRegistrations;
import io.notify.protocol.stream.DeliveryMessage;
import io.notify.protocol.stream.Endpoints;
import io.notify.protocol.stream.SequencedEvent;
import io.notify.protocol.stream.StreamId;
import io.notify.protocol.stream.UndeliveredEvent;
import io.notify.schemas.serde.NotifySerdes;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;
import org.apache.kafka.common.serialization.Serdes;

/**
 * Every Kafka topic of Notify, named under one prefix: {@code ""} in production, a unique prefix
 * per test (e.g. {@code "it-7f3a."}) so tests never share topics. The prefix is prepended verbatim,
 * so end it with '.' for readable names. Immutable and thread-safe; the fixed topics are built once.
 * See docs/topics.md for partitions, retention, writers and readers.
 */
public final class TopicCatalog {

    public static final String EVENTS = "notify.events";
    public static final String EVENTS_DLQ = "notify.events.dlq";
    public static final String STREAM_LOG = "notify.stream-log";
    public static final String NODE_PREFIX = "notify.node.";
    public static final String ALL_NODES = "notify.all-nodes";
    public static final String UNDELIVERED = "notify.undelivered";
    public static final String RECEIPTS = "notify.receipts";
    public static final String INBOX_STATE = "notify.inbox-state";
    public static final String FALLBACK = "notify.fallback";
    public static final String PUSH_CHANGES = "notify.push-changes";
    public static final String PUSH_REGISTRATIONS = "notify.push-registrations";
    public static final String PUSH_OUTCOMES = "notify.push-outcomes";
    public static final String PUSH_DLQ = "notify.push.dlq";
    public static final String PREFERENCES = "notify.preferences";

    /** Leaves room in Kafka's 249-char limit for the longest topic (a node topic with a 64-char node id). */
    public static final Pattern PREFIX = Pattern.compile("^[A-Za-z0-9._-]{0,100}$");

    private static final String STREAM_KEY = "stream id, UTF-8 text such as u:42";
    /** Node topics a catalog remembers; a fleet has far fewer nodes, and a node id never seen costs one build each time. */
    static final int MAX_NODES_NAMED = 1_024;

    private final String prefix;
    private final Topic<String, EventEnvelope> events;
    private final Topic<byte[], byte[]> eventsDlq;
    private final Topic<StreamId, SequencedEvent> streamLog;
    private final Topic<StreamId, UndeliveredEvent> undelivered;
    private final Topic<StreamId, Receipt> receipts;
    private final Topic<StreamId, InboxState> inboxState;
    private final Topic<StreamId, FallbackRecord> fallback;
    private final Topic<StreamId, PushChange> pushChanges;
    private final Topic<StreamId, PushRegistrations> pushRegistrations;
    private final Topic<StreamId, PushOutcome> pushOutcomes;
    private final Topic<StreamId, byte[]> pushDlq;
    private final Topic<StreamId, UserPreferences> preferences;
    private final Topic<StreamId, DeliveryMessage> allNodes;
    /** Node topics already named: the router names one per routed event (bounded: past the bound, built each time). */
    private final Map<String, Topic<StreamId, DeliveryMessage>> nodes = new ConcurrentHashMap<>();

    private TopicCatalog(String prefix) {
        this.prefix = prefix;
        this.events = new Topic<>(prefix + EVENTS, Serdes.String(), NotifySerdes.eventEnvelope(),
                "first addressee's stream id, UTF-8 text such as u:42 (EventEnvelope.recordKey())",
                "EventEnvelope v1 JSON (event-v1.schema.json)");
        this.eventsDlq = new Topic<>(prefix + EVENTS_DLQ, Serdes.ByteArray(), Serdes.ByteArray(),
                "the original key bytes, unchanged", "the original value bytes, unchanged; reason in notify.* headers");
        this.streamLog = new Topic<>(prefix + STREAM_LOG, NotifySerdes.streamId(), NotifySerdes.sequencedEvent(),
                STREAM_KEY, "SequencedEvent JSON");
        this.undelivered = new Topic<>(prefix + UNDELIVERED, NotifySerdes.streamId(), NotifySerdes.undeliveredEvent(),
                STREAM_KEY, "UndeliveredEvent JSON");
        this.receipts = new Topic<>(prefix + RECEIPTS, NotifySerdes.streamId(), NotifySerdes.receipt(), STREAM_KEY, "Receipt JSON");
        this.inboxState = new Topic<>(prefix + INBOX_STATE, NotifySerdes.streamId(), NotifySerdes.inboxState(), STREAM_KEY,
                "InboxState JSON (compacted: the latest per stream)");
        this.fallback = new Topic<>(prefix + FALLBACK, NotifySerdes.streamId(), NotifySerdes.fallbackRecord(), STREAM_KEY,
                "FallbackRecord JSON");
        this.pushChanges = new Topic<>(prefix + PUSH_CHANGES, NotifySerdes.streamId(), NotifySerdes.pushChange(), STREAM_KEY,
                "PushChange JSON");
        this.pushRegistrations = new Topic<>(prefix + PUSH_REGISTRATIONS, NotifySerdes.streamId(),
                NotifySerdes.pushRegistrations(), STREAM_KEY, "PushRegistrations JSON (compacted: the latest per user)");
        this.pushOutcomes = new Topic<>(prefix + PUSH_OUTCOMES, NotifySerdes.streamId(), NotifySerdes.pushOutcome(), STREAM_KEY,
                "PushOutcome JSON (one per attempt)");
        this.pushDlq = new Topic<>(prefix + PUSH_DLQ, NotifySerdes.streamId(), Serdes.ByteArray(), STREAM_KEY,
                "FallbackRecord JSON narrowed to the one registration that failed; reason in notify.* headers (DlqFailure)");
        this.preferences = new Topic<>(prefix + PREFERENCES, NotifySerdes.streamId(), NotifySerdes.userPreferences(), STREAM_KEY,
                "UserPreferences JSON (compacted: the latest per user; a tombstone resets the user to no preferences)");
        this.allNodes = new Topic<>(prefix + ALL_NODES, NotifySerdes.streamId(), NotifySerdes.deliveryMessage(), STREAM_KEY,
                "DeliveryMessage JSON");
    }

    /** A catalog whose topic names all start with {@code prefix}; {@code ""} is production. */
    public static TopicCatalog of(String prefix) {
        if (prefix == null || !PREFIX.matcher(prefix).matches()) {
            throw new IllegalArgumentException("topic prefix must be 0..100 chars of [A-Za-z0-9._-], got '" + prefix + "'");
        }
        return new TopicCatalog(prefix);
    }

    /** The production catalog (empty prefix). */
    public static TopicCatalog production() {
        return of("");
    }

    public String prefix() {
        return prefix;
    }

    /** {@code notify.events}: what producers hand Notify. */
    public Topic<String, EventEnvelope> events() {
        return events;
    }

    /** {@code notify.events.dlq}: records of notify.events that failed validation, byte for byte. */
    public Topic<byte[], byte[]> eventsDlq() {
        return eventsDlq;
    }

    /** {@code notify.stream-log}: every durable event in its stream with its position. */
    public Topic<StreamId, SequencedEvent> streamLog() {
        return streamLog;
    }

    /** {@code notify.node.<nodeId>}: deliveries for one gateway node. */
    public Topic<StreamId, DeliveryMessage> node(String nodeId) {
        Topic<StreamId, DeliveryMessage> known = nodeId == null ? null : nodes.get(nodeId);
        if (known != null) {
            return known;
        }
        try {
            Endpoints.requireNodeId(nodeId);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("cannot name the topic of a gateway node: " + e.getMessage(), e);
        }
        Topic<StreamId, DeliveryMessage> topic = new Topic<>(prefix + NODE_PREFIX + nodeId, NotifySerdes.streamId(),
                NotifySerdes.deliveryMessage(), STREAM_KEY, "DeliveryMessage JSON");
        if (nodes.size() < MAX_NODES_NAMED) {
            nodes.put(nodeId, topic);
        }
        return topic;
    }

    /**
     * {@code notify.all-nodes}: deliveries every gateway node reads, whatever its subscribers: the
     * broadcast stream's events and hot rooms' (docs/topics.md). Created by the gateway nodes, as their own topics are.
     */
    public Topic<StreamId, DeliveryMessage> allNodes() {
        return allNodes;
    }

    /** {@code notify.undelivered}: events that reached no live connection. */
    public Topic<StreamId, UndeliveredEvent> undelivered() {
        return undelivered;
    }

    /**
     * {@code notify.receipts}: devices' acks and users' seen/read/archive marks, written by the
     * gateways, applied by fanout-streams in the task owning the stream's inbox (so it has as many
     * partitions as the by-stream topic).
     */
    public Topic<StreamId, Receipt> receipts() {
        return receipts;
    }

    /** {@code notify.inbox-state}: the read state of each user stream, compacted (the latest per stream). */
    public Topic<StreamId, InboxState> inboxState() {
        return inboxState;
    }

    /** {@code notify.fallback}: events no device acknowledged or read in time, for push/e-mail senders. */
    public Topic<StreamId, FallbackRecord> fallback() {
        return fallback;
    }

    /**
     * {@code notify.push-changes}: registrations and removals of users' push devices, written by the
     * gateways and the push sender, applied by fanout-streams where the user's stream lives (so it has
     * as many partitions as the by-stream topic, like notify.receipts).
     */
    public Topic<StreamId, PushChange> pushChanges() {
        return pushChanges;
    }

    /** {@code notify.push-registrations}: each user's push registrations, compacted (the latest per user). */
    public Topic<StreamId, PushRegistrations> pushRegistrations() {
        return pushRegistrations;
    }

    /** {@code notify.push-outcomes}: one record per push attempt (sent, retried, gone, refused, given up), for analysts. */
    public Topic<StreamId, PushOutcome> pushOutcomes() {
        return pushOutcomes;
    }

    /** {@code notify.push.dlq}: fallback records (or one device's share of one) the push sender could not send, with the reason. */
    public Topic<StreamId, byte[]> pushDlq() {
        return pushDlq;
    }

    /**
     * {@code notify.preferences}: each user's preferences (compacted), written by the gateways and applied by
     * fanout-streams where the user's stream lives (as many partitions as the by-stream topic, like notify.receipts).
     */
    public Topic<StreamId, UserPreferences> preferences() {
        return preferences;
    }

    /** The fixed topics (node topics are per node and not listed). */
    public List<Topic<?, ?>> fixedTopics() {
        return List.of(events, eventsDlq, streamLog, undelivered, receipts, inboxState, fallback, pushChanges, pushRegistrations,
                pushOutcomes, pushDlq, preferences);
    }

    /** Matches the names of all node topics under this prefix; group 1 is the node id. */
    public Pattern nodeTopicPattern() {
        return Pattern.compile("^" + Pattern.quote(prefix + NODE_PREFIX) + "([A-Za-z0-9._-]{1,64})$");
    }

    /** The node id of a node topic name under this prefix, or empty for any other name. */
    public Optional<String> nodeIdOf(String topicName) {
        if (topicName == null) {
            return Optional.empty();
        }
        var m = nodeTopicPattern().matcher(topicName);
        return m.matches() ? Optional.of(m.group(1)) : Optional.empty();
    }

    @Override
    public String toString() {
        return "TopicCatalog[prefix='" + prefix + "']";
    }
}
