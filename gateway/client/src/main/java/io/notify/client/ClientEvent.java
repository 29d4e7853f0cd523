package io.notify.client;

import com.fasterxml.jackson.databind.JsonNode;
import io.notify.protocol.frame.EventFrame;
import io.notify.protocol.stream.Position;
import io.notify.protocol.stream.StreamId;
import java.time.OffsetDateTime;
import java.util.Objects;
import java.util.Optional;

/**
 * One event as the application sees it. A durable event has a {@link #position()} and is delivered
 * exactly once per {@link io.notify.client.store.PositionStore} (in seq order, never a position at
 * or below the last one delivered); an ephemeral event has none: it is never replayed, never
 * deduplicated, and may be lost.
 *
 * @param data the application payload, a JSON object (treat it as read-only)
 * @param occurredAt the producer's source time, when it gave one
 * @param expiresAt  when the event stops being true, when the producer gave it an expiry: stop showing it
 *                   then (docs/protocol.md, "Expiry"; a later resume sends it as an expired position)
 */
public record ClientEvent(StreamId stream, Optional<Position> position, String id, String type, JsonNode data,
                          Optional<OffsetDateTime> occurredAt, Optional<OffsetDateTime> expiresAt) {

    public ClientEvent {
        Objects.requireNonNull(stream, "stream");
        Objects.requireNonNull(position, "position");
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(data, "data");
        Objects.requireNonNull(occurredAt, "occurredAt");
        Objects.requireNonNull(expiresAt, "expiresAt");
    }

    /** An event without expiry. */
    public ClientEvent(StreamId stream, Optional<Position> position, String id, String type, JsonNode data,
                       Optional<OffsetDateTime> occurredAt) {
        this(stream, position, id, type, data, occurredAt, Optional.empty());
    }

    /** The application's view of an event frame. */
    public static ClientEvent of(EventFrame frame) {
        return new ClientEvent(frame.stream(), frame.position(), frame.id(), frame.type(), frame.data(),
                Optional.ofNullable(frame.occurredAt()), Optional.ofNullable(frame.expiresAt()));
    }

    /** True for a durable event (it has a position). */
    public boolean durable() {
        return position.isPresent();
    }
}
