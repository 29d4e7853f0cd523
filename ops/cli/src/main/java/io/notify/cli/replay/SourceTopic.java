package io.notify.cli.replay;

import io.notify.schemas.topic.TopicCatalog;
import java.util.Locale;

/**
 * The four topics an analyst reads, with where each keeps the fields the filters look at. A topic
 * is named by its short name ({@code stream-log}), its full name ({@code notify.stream-log}) or its
 * full name under the catalog prefix ({@code it-7f3a.notify.stream-log}).
 */
enum SourceTopic {
    /** Envelopes: the recipients are {@code to.users}. */
    EVENTS("events", TopicCatalog.EVENTS, "id", "type", "class", "to.users", false),
    /** Per-stream records: the recipient is the stream {@code u:<id>}; always durable. */
    STREAM_LOG("stream-log", TopicCatalog.STREAM_LOG, "id", "type", "class", "stream", true),
    /** The event is nested under {@code event}; the recipient is the stream. */
    UNDELIVERED("undelivered", TopicCatalog.UNDELIVERED, "event.id", "event.type", "event.class", "stream", true),
    /** Original bytes of failed envelopes: fields are read where the value is still JSON. */
    DLQ("dlq", TopicCatalog.EVENTS_DLQ, "id", "type", "class", "to.users", false);

    static final String NAMES = "events, stream-log, undelivered, dlq (or notify.events, notify.stream-log, "
            + "notify.undelivered, notify.events.dlq)";

    final String shortName;
    final String fullName;
    final String idPath;
    final String typePath;
    final String classPath;
    final String userPath;
    /** True when {@link #userPath} holds a stream id {@code u:<id>}, false when it lists user ids. */
    final boolean userIsStream;

    SourceTopic(String shortName, String fullName, String idPath, String typePath, String classPath, String userPath,
                boolean userIsStream) {
        this.shortName = shortName;
        this.fullName = fullName;
        this.idPath = idPath;
        this.typePath = typePath;
        this.classPath = classPath;
        this.userPath = userPath;
        this.userIsStream = userIsStream;
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
}
