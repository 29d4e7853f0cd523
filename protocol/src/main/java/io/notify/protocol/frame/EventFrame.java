package io.notify.protocol.frame;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.notify.protocol.event.EventClass;
import io.notify.protocol.event.EventEnvelope;
import io.notify.protocol.event.EventIds;
import io.notify.protocol.stream.LiveEvent;
import io.notify.protocol.stream.Position;
import io.notify.protocol.stream.SequencedEvent;
import io.notify.protocol.stream.StreamEvent;
import io.notify.protocol.stream.StreamId;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Optional;

/**
 * An event for the client, server to client. Guarantees: a durable event carries
 * {@code epoch} and {@code seq}; an ephemeral one carries neither (it is never replayed, so it has
 * no position). Clients dedup durable events by {@code (stream, seq)} and detect gaps by seq.
 * Only what the application needs crosses this edge: no recipients, no source, no internal timestamps.
 * {@code expiresAt}, when the producer gave the event an expiry, is when the client should stop
 * showing it (docs/protocol.md, "Expiry").
 */
@JsonPropertyOrder({"stream", "epoch", "seq", "id", "type", "class", "data", "occurredAt", "expiresAt"})
public record EventFrame(StreamId stream, String epoch, Long seq, String id, String type,
                         @JsonProperty("class") EventClass eventClass, ObjectNode data,
                         OffsetDateTime occurredAt, OffsetDateTime expiresAt) implements ServerFrame {

    public EventFrame {
        if (stream == null) {
            throw new IllegalArgumentException("stream is required");
        }
        if (eventClass == null) {
            throw new IllegalArgumentException("class is required");
        }
        if (eventClass == EventClass.DURABLE) {
            if (epoch == null || seq == null) {
                throw new IllegalArgumentException("a durable event needs " + (epoch == null ? "epoch" : "seq"));
            }
            new Position(epoch, seq);
        } else if (epoch != null || seq != null) {
            throw new IllegalArgumentException("an ephemeral event has no position, but " + (epoch != null ? "epoch" : "seq") + " is set");
        }
        if (!EventIds.isValid(id)) {
            throw new IllegalArgumentException("id must be 1..128 chars of [A-Za-z0-9._:-], got '" + FrameTexts.clip(id) + "'");
        }
        if (type == null || !EventEnvelope.TYPE.matcher(type).matches()) {
            throw new IllegalArgumentException("type must match " + EventEnvelope.TYPE.pattern() + ", got '" + FrameTexts.clip(type) + "'");
        }
        data = data == null ? JsonNodeFactory.instance.objectNode() : data;
    }

    /** An event that does not expire (the fields before expiresAt). */
    public EventFrame(StreamId stream, String epoch, Long seq, String id, String type, EventClass eventClass, ObjectNode data,
                      OffsetDateTime occurredAt) {
        this(stream, epoch, seq, id, type, eventClass, data, occurredAt, null);
    }

    /** The client's view of a per-stream event. */
    public static EventFrame of(StreamEvent event) {
        if (event instanceof SequencedEvent s) {
            return new EventFrame(s.stream(), s.epoch(), s.seq(), s.id(), s.type(), EventClass.DURABLE, s.data(), s.occurredAt(),
                    utc(s.expiresAt()));
        }
        LiveEvent l = (LiveEvent) event;
        return new EventFrame(l.stream(), null, null, l.id(), l.type(), EventClass.EPHEMERAL, l.data(), l.occurredAt(),
                utc(l.expiresAt()));
    }

    private static OffsetDateTime utc(Long epochMillis) {
        return epochMillis == null ? null : OffsetDateTime.ofInstant(Instant.ofEpochMilli(epochMillis), ZoneOffset.UTC);
    }

    /** The position of a durable event; empty for an ephemeral one. */
    @JsonIgnore
    public Optional<Position> position() {
        return epoch == null ? Optional.empty() : Optional.of(new Position(epoch, seq));
    }

    @JsonIgnore
    public boolean isDurable() {
        return eventClass == EventClass.DURABLE;
    }

    @Override
    public FrameType frameType() {
        return FrameType.EVENT;
    }
}
