package io.notify.protocol.stream;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.notify.protocol.event.EventClass;
import io.notify.protocol.event.EventEnvelope;
import java.time.OffsetDateTime;

/**
 * An ephemeral event (typing, presence, progress) addressed to one stream: routed live, at most
 * once, never sequenced, stored or replayed, so it has no position. Always
 * {@code "class":"ephemeral"}. {@code collapseKey}, when present, lets a slow connection's queue
 * keep only the newest event per key.
 */
@JsonPropertyOrder({"stream", "id", "type", "class", "data", "occurredAt", "collapseKey", "source", "ingestedAt", "expiresAt"})
public record LiveEvent(
        StreamId stream,
        String id,
        String type,
        ObjectNode data,
        OffsetDateTime occurredAt,
        String collapseKey,
        String source,
        long ingestedAt,
        Long expiresAt) implements StreamEvent {

    public LiveEvent {
        EventFields.check(stream, id, type, source, ingestedAt);
        EventFields.checkText("collapseKey", collapseKey);
        data = EventFields.dataOrEmpty(data);
        if (expiresAt != null) {
            EventFields.checkMillis("expiresAt", expiresAt);
        }
    }

    /** An ephemeral event that does not expire (the fields before expiresAt). */
    public LiveEvent(StreamId stream, String id, String type, ObjectNode data, OffsetDateTime occurredAt, String collapseKey,
                     String source, long ingestedAt) {
        this(stream, id, type, data, occurredAt, collapseKey, source, ingestedAt, null);
    }

    /** Addresses an ephemeral envelope to a stream. */
    public static LiveEvent of(StreamId stream, EventEnvelope envelope, long ingestedAt) {
        if (envelope.isDurable()) {
            throw new IllegalArgumentException("event " + envelope.id() + " is durable; durable events must be sequenced");
        }
        return new LiveEvent(stream, envelope.id(), envelope.type(), envelope.data(), envelope.occurredAt(),
                envelope.collapseKey(), envelope.source(), ingestedAt, envelope.expiryMillis(ingestedAt));
    }

    @Override
    public EventClass eventClass() {
        return EventClass.EPHEMERAL;
    }
}
