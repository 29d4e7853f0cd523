package io.notify.cli.replay;

import io.notify.schemas.topic.TopicCatalog;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The topics an analyst reads, with where each keeps the fields the filters look at. A topic is
 * named by its short name ({@code stream-log}), its full name ({@code notify.stream-log}) or its
 * full name under the catalog prefix ({@code it-7f3a.notify.stream-log}).
 *
 * <p>A new topic is one constant here, its columns in {@link Columns} and its case in
 * {@link Republisher} (both exhaustive switches, so the compiler asks for them). A path that is
 * null means the records have no such field, and the filter on it is refused for the topic.
 *
 * <p>The push topics (docs/push.md) are keyed by the user's stream like the inbox topics; none of
 * their records can become events again ({@link #holdsEvents}), not even the push DLQ's, which holds
 * a fallback record's event but is one device's share of a push the sender gave up on. So is
 * {@code notify.preferences} (docs/inbox.md, "Preferences"): keyed by the user's stream, not events.
 */
enum SourceTopic {
    /** Envelopes: the recipients are {@code to.users}. */
    EVENTS("events", TopicCatalog.EVENTS, "ingest", "id", "type", "class", "to.users", false, null),
    /** Per-stream records: the recipient is the stream {@code u:<id>}; always durable. */
    STREAM_LOG("stream-log", TopicCatalog.STREAM_LOG, "fan-out", "id", "type", "class", "stream", true, null),
    /** The event is nested under {@code event}; the recipient is the stream. */
    UNDELIVERED("undelivered", TopicCatalog.UNDELIVERED, "fan-out", "event.id", "event.type", "event.class", "stream", true,
            null),
    /** Original bytes of failed envelopes: fields are read where the value is still JSON, else the id is the key. */
    DLQ("dlq", TopicCatalog.EVENTS_DLQ, "fan-out", "id", "type", "class", "to.users", false, "id"),
    /** Acks and seen/read/archive marks of a user's stream; {@code ids} lists the marked events. Not events. */
    RECEIPTS("receipts", TopicCatalog.RECEIPTS, "the gateways", "ids", null, null, "stream", true, "stream"),
    /** The read state of a user's stream (compacted, so a tombstone has only its key). Not events. */
    INBOX_STATE("inbox-state", TopicCatalog.INBOX_STATE, "fan-out", null, null, null, "stream", true, "stream"),
    /** Events no device acknowledged or read in time; the event (always durable) is nested under {@code event}. */
    FALLBACK("fallback", TopicCatalog.FALLBACK, "fan-out", "event.id", "event.type", "event.class", "stream", true, null),
    /** Changes to a user's push registrations (register, unregister, gone); {@code id} is a registration's. Not events. */
    PUSH_CHANGES("push-changes", TopicCatalog.PUSH_CHANGES, "the gateways and the push sender", null, null, null, "stream", true,
            "stream"),
    /** Each user's push registrations with the change that made them (compacted). Not events. */
    PUSH_REGISTRATIONS("push-registrations", TopicCatalog.PUSH_REGISTRATIONS, "fan-out", null, null, null, "stream", true, "stream"),
    /** One record per push attempt; {@code eventId} names the event. Not events. */
    PUSH_OUTCOMES("push-outcomes", TopicCatalog.PUSH_OUTCOMES, "the push sender", "eventId", null, null, "stream", true, "stream"),
    /**
     * Fallback records narrowed to the one registration the push sender could not send to, the reason in
     * the {@code notify.*} headers; the event is nested under {@code event}, but they never become events again.
     */
    PUSH_DLQ("push-dlq", TopicCatalog.PUSH_DLQ, "the push sender", "event.id", "event.type", "event.class", "stream", true, "stream",
            false),
    /** Each user's preferences as the user last put them (compacted; a tombstone resets the user). Not events. */
    PREFERENCES("preferences", TopicCatalog.PREFERENCES, "the gateways", null, null, null, "stream", true, "stream");

    static final String NAMES = Arrays.stream(values()).map(s -> s.shortName).collect(Collectors.joining(", "))
            + " (or " + Arrays.stream(values()).map(s -> s.fullName).collect(Collectors.joining(", ")) + ")";

    final String shortName;
    final String fullName;
    /** Who produces the topic, for the refusal of {@code --republish-to} into it. */
    final String writtenBy;
    /** Where the event id is (a list on receipts); null: the records name no events. */
    final String idPath;
    /** Where the event type is; null: the records are not events ({@code --type} does not apply). */
    final String typePath;
    /** Where the event class is; null: the records are not events ({@code --class} does not apply). */
    final String classPath;
    final String userPath;
    /** True when {@link #userPath} holds a stream id {@code u:<id>}, false when it lists user ids. */
    final boolean userIsStream;
    /** The value path the record key repeats, read from the key when the value lacks it; null: none. */
    final String keyPath;
    /** True when the records can become events again ({@code --republish-to events}). */
    private final boolean eventsAgain;

    SourceTopic(String shortName, String fullName, String writtenBy, String idPath, String typePath, String classPath,
                String userPath, boolean userIsStream, String keyPath) {
        this(shortName, fullName, writtenBy, idPath, typePath, classPath, userPath, userIsStream, keyPath, typePath != null);
    }

    SourceTopic(String shortName, String fullName, String writtenBy, String idPath, String typePath, String classPath,
                String userPath, boolean userIsStream, String keyPath, boolean eventsAgain) {
        this.shortName = shortName;
        this.fullName = fullName;
        this.writtenBy = writtenBy;
        this.idPath = idPath;
        this.typePath = typePath;
        this.classPath = classPath;
        this.userPath = userPath;
        this.userIsStream = userIsStream;
        this.keyPath = keyPath;
        this.eventsAgain = eventsAgain;
    }

    /** The topic {@code text} names, or a {@link UsageException} listing the known names. */
    static SourceTopic parse(String text, TopicCatalog catalog) {
        String t = text == null ? "" : text.trim();
        String lower = t.toLowerCase(Locale.ROOT);
        for (SourceTopic s : values()) {
            if (lower.equals(s.shortName) || lower.equals(s.fullName) || t.equals(catalog.prefix() + s.fullName)) {
                return s;
            }
        }
        throw new UsageException("unknown topic '" + text + "'; expected one of " + NAMES);
    }

    /** The Kafka topic name under the catalog's prefix. */
    String topicName(TopicCatalog catalog) {
        return catalog.prefix() + fullName;
    }

    /**
     * True when the records are (or hold) events that can become events again: not the records of
     * topics without events, nor the push DLQ's (one device's share of a push, for the push sender).
     */
    boolean holdsEvents() {
        return eventsAgain;
    }

    /**
     * The scalars at {@code path} of a row's value: one for a scalar, the items of an array. Where
     * the value lacks it and it is the field the key repeats ({@link #keyPath}), the key as text.
     */
    List<String> values(Row row, String path) {
        String one = row.value.text(path);
        if (one != null) {
            return List.of(one);
        }
        List<String> many = row.value.list(path);
        if (!many.isEmpty() || !path.equals(keyPath)) {
            return many;
        }
        String key = row.keyText();
        return key == null ? List.of() : List.of(key);
    }
}
