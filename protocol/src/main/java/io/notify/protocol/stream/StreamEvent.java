package io.notify.protocol.stream;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.notify.protocol.event.EventClass;
import java.time.OffsetDateTime;

/**
 * One event as it belongs to one stream: either a {@link SequencedEvent} (durable, with a
 * position) or a {@link LiveEvent} (ephemeral, no position). The JSON field {@code "class"}
 * ({@code durable} | {@code ephemeral}) tells them apart, so a durable event without a position, or
 * an ephemeral one with a position, cannot be built or read.
 *
 * <p>Why the envelope is flattened rather than embedded: the envelope's {@code to} lists every
 * recipient; copying it into each per-stream record would multiply bytes by the audience size on
 * fan-out and would tell each client who else got the event. The per-stream record keeps exactly
 * what a client and an analyst need, and can evolve apart from the producer-facing envelope.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, include = JsonTypeInfo.As.EXISTING_PROPERTY, property = "class")
@JsonSubTypes({
        @JsonSubTypes.Type(value = SequencedEvent.class, name = "durable"),
        @JsonSubTypes.Type(value = LiveEvent.class, name = "ephemeral")})
public sealed interface StreamEvent permits SequencedEvent, LiveEvent {

    StreamId stream();

    /** The event id of the envelope: the dedup key across retries. */
    String id();

    String type();

    @JsonProperty("class")
    EventClass eventClass();

    ObjectNode data();

    /** When it happened at the source, as the producer gave it; null when it gave none. */
    OffsetDateTime occurredAt();

    /** Name of the producing service; null when it gave none. */
    String source();

    /** Epoch ms when Notify accepted the event (the {@code notify.events} record timestamp). */
    long ingestedAt();

    /** Epoch ms after which the event is no longer delivered (the envelope's expiresAt or ttl); null: never. */
    Long expiresAt();

    /** Whether the event has expired at {@code nowMs}. */
    default boolean expiredAt(long nowMs) {
        Long at = expiresAt();
        return at != null && at <= nowMs;
    }

    @JsonIgnore
    default boolean isDurable() {
        return eventClass() == EventClass.DURABLE;
    }
}
