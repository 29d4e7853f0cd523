package io.notify.protocol.stream;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.notify.protocol.event.EventClass;
import io.notify.protocol.event.EventEnvelope;
import io.notify.protocol.event.Fallback;
import java.time.OffsetDateTime;

/**
 * A durable event placed in one stream at one {@link Position}: the value of
 * {@code notify.stream-log}, the entry of the inbox, and the durable payload of a
 * {@link DeliveryMessage}. Always {@code "class":"durable"}; epoch and seq are always present and
 * valid. {@code ingestedAt}/{@code sequencedAt} (epoch ms) feed the latency metrics. {@code fallback},
 * when the producer asked for one, is the envelope's (docs/inbox.md); so is {@code collapseKey}, which
 * lets a catching-up client receive only the newest of the backlog's events that share it, for
 * the event types the gateway is told to collapse (docs/protocol.md, "Collapsed catch-up").
 */
@JsonPropertyOrder({"stream", "epoch", "seq", "id", "type", "class", "data", "occurredAt", "source",
        "ingestedAt", "sequencedAt", "fallback", "collapseKey"})
public record SequencedEvent(
        StreamId stream,
        String epoch,
        long seq,
        String id,
        String type,
        ObjectNode data,
        OffsetDateTime occurredAt,
        String source,
        long ingestedAt,
        long sequencedAt,
        Fallback fallback,
        String collapseKey) implements StreamEvent {

    public SequencedEvent {
        EventFields.check(stream, id, type, source, ingestedAt);
        Position.checkEpoch(epoch);
        Position.checkSeq(seq);
        data = EventFields.dataOrEmpty(data);
        EventFields.checkMillis("sequencedAt", sequencedAt);
        EventFields.checkText("collapseKey", collapseKey);
    }

    /** An event without offline fallback. */
    public SequencedEvent(StreamId stream, String epoch, long seq, String id, String type, ObjectNode data,
                          OffsetDateTime occurredAt, String source, long ingestedAt, long sequencedAt) {
        this(stream, epoch, seq, id, type, data, occurredAt, source, ingestedAt, sequencedAt, null, null);
    }

    /** Places a durable envelope in a stream. */
    public static SequencedEvent of(StreamId stream, Position position, EventEnvelope envelope,
                                    long ingestedAt, long sequencedAt) {
        if (!envelope.isDurable()) {
            throw new IllegalArgumentException("event " + envelope.id() + " is ephemeral; only durable events are sequenced");
        }
        return new SequencedEvent(stream, position.epoch(), position.seq(), envelope.id(), envelope.type(),
                envelope.data(), envelope.occurredAt(), envelope.source(), ingestedAt, sequencedAt, envelope.fallback(),
                envelope.collapseKey());
    }

    @Override
    public EventClass eventClass() {
        return EventClass.DURABLE;
    }

    @JsonIgnore
    public Position position() {
        return new Position(epoch, seq);
    }
}
