package io.notify.protocol.event;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.notify.protocol.text.IdChars;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Event envelope v1: what a producer hands Notify and what {@code notify.events} carries.
 * The constructor enforces every rule of {@code event-v1.schema.json} that a Java caller can break,
 * so an instance is always valid; EventSchemaAgreementTest keeps the two in step.
 * {@code data} is a Jackson tree: treat it as immutable once handed over. {@code category},
 * {@code critical} and {@code digest} are for users' preferences and digests (docs/inbox.md);
 * {@code expiresAt} or {@code ttl} (not both) is when the event stops being true (docs/protocol.md,
 * "Expiry"). {@code cancellationKey} names a group of events a producer may recall at once (docs/protocol.md,
 * "Recall").
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonPropertyOrder({"id", "type", "to", "class", "data", "occurredAt", "collapseKey", "source", "fallback", "category", "critical", "digest",
        "expiresAt", "ttl", "cancellationKey"})
public record EventEnvelope(
        String id,
        String type,
        Recipients to,
        @JsonProperty("class") EventClass eventClass,
        ObjectNode data,
        OffsetDateTime occurredAt,
        String collapseKey,
        String source,
        Fallback fallback,
        String category,
        @JsonInclude(JsonInclude.Include.NON_DEFAULT) boolean critical,
        Digest digest,
        OffsetDateTime expiresAt,
        String ttl,
        String cancellationKey) {

    public static final Pattern TYPE = Pattern.compile("^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$");
    public static final int MAX_DATA_BYTES = 64 * 1024;
    public static final int MAX_TEXT_LENGTH = 128;
    /** The longest {@code ttl}. */
    public static final Duration MAX_TTL = Duration.ofDays(30);
    /** Types Notify gives its own events; a producer's event may not use them. */
    public static final String RESERVED_TYPE_PREFIX = "notify.";

    public EventEnvelope {
        if (!EventIds.isValid(id)) {
            throw new IllegalArgumentException("id must be 1..128 chars of [A-Za-z0-9._:-], got '" + id + "'");
        }
        if (!isType(type)) {
            throw new IllegalArgumentException("type must match " + TYPE.pattern() + ", got '" + type + "'");
        }
        if (type.startsWith(RESERVED_TYPE_PREFIX)) {
            throw new IllegalArgumentException("type '" + type + "' is reserved: types starting with '" + RESERVED_TYPE_PREFIX
                    + "' are Notify's own (e.g. the inbox state it sends a user's devices)");
        }
        Objects.requireNonNull(to, "to");
        eventClass = eventClass == null ? EventClass.DURABLE : eventClass;
        data = data == null ? JsonNodeFactory.instance.objectNode() : data;
        checkText("collapseKey", collapseKey);
        checkText("source", source);
        if (fallback != null && (eventClass != EventClass.DURABLE || to.users().isEmpty())) {
            throw new IllegalArgumentException("fallback applies to durable events addressed to users (to.users): "
                    + "an ephemeral event, or one to rooms or broadcast only, has no recipient to fall back to");
        }
        if (category != null && !isType(category)) {
            throw new IllegalArgumentException("category must match " + TYPE.pattern() + ", got '" + category + "'");
        }
        if (digest != null && fallback == null) {
            throw new IllegalArgumentException("digest folds offline fallbacks: it needs a fallback (a durable event to users)");
        }
        if (expiresAt != null && ttl != null) {
            throw new IllegalArgumentException("give expiresAt or ttl, not both");
        }
        if (ttl != null && Durations.parse("ttl", ttl).compareTo(MAX_TTL) > 0) {
            throw new IllegalArgumentException("ttl must be at most 30d, got '" + ttl + "'");
        }
        if (cancellationKey != null && !isType(cancellationKey)) {
            throw new IllegalArgumentException("cancellationKey must match " + TYPE.pattern() + ", got '" + cancellationKey + "'");
        }
        if (cancellationKey != null && eventClass != EventClass.DURABLE) {
            throw new IllegalArgumentException("cancellationKey applies to durable events: an ephemeral one is never kept, so never recalled");
        }
    }

    /** An envelope without cancellation key (the fields before recall). */
    public EventEnvelope(String id, String type, Recipients to, EventClass eventClass, ObjectNode data, OffsetDateTime occurredAt,
                         String collapseKey, String source, Fallback fallback, String category, boolean critical, Digest digest,
                         OffsetDateTime expiresAt, String ttl) {
        this(id, type, to, eventClass, data, occurredAt, collapseKey, source, fallback, category, critical, digest, expiresAt, ttl, null);
    }

    /** An envelope without expiry (the fields before expiresAt and ttl). */
    public EventEnvelope(String id, String type, Recipients to, EventClass eventClass, ObjectNode data, OffsetDateTime occurredAt,
                         String collapseKey, String source, Fallback fallback, String category, boolean critical, Digest digest) {
        this(id, type, to, eventClass, data, occurredAt, collapseKey, source, fallback, category, critical, digest, null, null, null);
    }

    /**
     * When the event expires, in epoch ms, for an event Notify accepted at {@code ingestedAt}: {@code expiresAt}, or
     * {@code ingestedAt + ttl}; null when it never does.
     */
    public Long expiryMillis(long ingestedAt) {
        if (expiresAt != null) {
            return expiresAt.toInstant().toEpochMilli();
        }
        return ttl == null ? null : ingestedAt + Durations.parse("ttl", ttl).toMillis();
    }

    /** This event with an expiry: at {@code at}, or ({@code at} null) {@code ttl} after Notify accepts it. */
    public EventEnvelope withExpiry(OffsetDateTime at, String newTtl) {
        return new EventEnvelope(id, type, to, eventClass, data, occurredAt, collapseKey, source, fallback, category, critical, digest,
                at, newTtl, cancellationKey);
    }

    /** An envelope without category, critical mark or digest (the fields v1 had before preferences). */
    public EventEnvelope(String id, String type, Recipients to, EventClass eventClass, ObjectNode data,
                         OffsetDateTime occurredAt, String collapseKey, String source, Fallback fallback) {
        this(id, type, to, eventClass, data, occurredAt, collapseKey, source, fallback, null, false, null, null, null, null);
    }

    /** An envelope without fallback (the fields v1 had before it). */
    public EventEnvelope(String id, String type, Recipients to, EventClass eventClass, ObjectNode data,
                         OffsetDateTime occurredAt, String collapseKey, String source) {
        this(id, type, to, eventClass, data, occurredAt, collapseKey, source, null, null, false, null, null, null, null);
    }

    /** Whether {@code type} matches {@link #TYPE} (checked without the regex, see {@link IdChars}). */
    public static boolean isType(String type) {
        return IdChars.matches(type, 1, 128, "._:-", true);
    }

    private static void checkText(String field, String value) {
        if (value != null && (value.isEmpty() || value.length() > MAX_TEXT_LENGTH)) {
            throw new IllegalArgumentException(field + " must be 1.." + MAX_TEXT_LENGTH + " characters");
        }
    }

    /** A durable event for the given users with a generated id. */
    public static EventEnvelope durable(String type, ObjectNode data, String... users) {
        return durable(type, data, Recipients.users(users));
    }

    /** A durable event for the given recipients (users, rooms, everyone) with a generated id. */
    public static EventEnvelope durable(String type, ObjectNode data, Recipients to) {
        return new EventEnvelope(EventIds.generate(), type, to, EventClass.DURABLE, data, null, null, null);
    }

    /** This event with an offline fallback. */
    public EventEnvelope withFallback(Fallback f) {
        return new EventEnvelope(id, type, to, eventClass, data, occurredAt, collapseKey, source, f, category, critical, digest, expiresAt,
                ttl, cancellationKey);
    }

    /** This event with a category (for users' preferences), a critical mark (preferences bypassed) and a digest. */
    public EventEnvelope withPolicy(String newCategory, boolean newCritical, Digest newDigest) {
        return new EventEnvelope(id, type, to, eventClass, data, occurredAt, collapseKey, source, fallback, newCategory, newCritical,
                newDigest, expiresAt, ttl, cancellationKey);
    }

    public EventEnvelope withId(String newId) {
        return new EventEnvelope(newId, type, to, eventClass, data, occurredAt, collapseKey, source, fallback, category, critical, digest,
                expiresAt, ttl, cancellationKey);
    }

    /** This event with a cancellation key: a recall by that key takes it back (docs/protocol.md, "Recall"). */
    public EventEnvelope withCancellationKey(String key) {
        return new EventEnvelope(id, type, to, eventClass, data, occurredAt, collapseKey, source, fallback, category, critical, digest,
                expiresAt, ttl, key);
    }

    /**
     * The {@code notify.events} record key: the first addressee's stream id ({@code u:<user>}, else
     * {@code r:<room>}, else {@code b:all}; the same bytes the by-stream repartition topic uses).
     * Kafka keeps one key's records in one partition in the order they were produced, and
     * fanout-streams reads a partition in order, so events from one producer with the same first
     * addressee are sequenced in the order they were sent — in particular every event to a single
     * user or a single room. Retries of one event carry the same key, so dedup still meets every
     * copy in one task.
     */
    @JsonIgnore
    public String recordKey() {
        return to.firstStream();
    }

    @JsonIgnore
    public boolean isDurable() {
        return eventClass == EventClass.DURABLE;
    }
}
