package io.notify.protocol.stream;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.notify.protocol.event.EventClass;
import io.notify.protocol.event.EventEnvelope;
import io.notify.protocol.event.Digest;
import io.notify.protocol.event.Fallback;
import io.notify.protocol.event.Channel;
import java.time.OffsetDateTime;
import java.util.List;

/**
 * A durable event placed in one stream at one {@link Position}: the value of
 * {@code notify.stream-log}, the entry of the inbox, and the durable payload of a
 * {@link DeliveryMessage}. Always {@code "class":"durable"}; epoch and seq are always present and
 * valid. {@code ingestedAt}/{@code sequencedAt} (epoch ms) feed the latency metrics. {@code fallback},
 * when the producer asked for one, is the envelope's (docs/inbox.md); so is {@code collapseKey}, which
 * lets a catching-up client receive only the newest of the backlog's events that share it, for
 * the event types the gateway is told to collapse (docs/protocol.md, "Collapsed catch-up").
 * {@code category}, {@code critical} and {@code digest} are the envelope's; {@code muted} lists the
 * channels ({@code live}, {@code push}) the user's preferences turned off for this event when it was
 * sequenced (docs/inbox.md, "Preferences"): a gateway does not send it, the fallback does not fire.
 * {@code expiresAt} (epoch ms, from the envelope's expiresAt or ttl) is when it stops being delivered.
 * {@code cancellationKey} is the envelope's; {@code producer} the producer scope it was published in (the
 * {@code notify.producer} header; null for direct producers that name none), which a recall must match.
 * {@code recalled}: the producer took it back (docs/protocol.md, "Recall"): the inbox keeps the entry in its
 * seq without its {@code data}, the inbox API lists it no more, a catching-up client gets its seq as a
 * {@code collapsed} frame with reason {@code recalled}.
 */
@JsonPropertyOrder({"stream", "epoch", "seq", "id", "type", "class", "data", "occurredAt", "source",
        "ingestedAt", "sequencedAt", "fallback", "collapseKey", "category", "critical", "digest", "muted",
        "expiresAt", "cancellationKey", "producer", "recalled"})
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
        String collapseKey,
        String category,
        @JsonInclude(JsonInclude.Include.NON_DEFAULT) boolean critical,
        Digest digest,
        @JsonInclude(JsonInclude.Include.NON_EMPTY) List<Channel> muted,
        Long expiresAt,
        String cancellationKey,
        String producer,
        @JsonInclude(JsonInclude.Include.NON_DEFAULT) boolean recalled) implements StreamEvent {

    public SequencedEvent {
        EventFields.check(stream, id, type, source, ingestedAt);
        Position.checkEpoch(epoch);
        Position.checkSeq(seq);
        data = EventFields.dataOrEmpty(data);
        EventFields.checkMillis("sequencedAt", sequencedAt);
        EventFields.checkText("collapseKey", collapseKey);
        if (category != null && !EventEnvelope.isType(category)) {
            throw new IllegalArgumentException("category must match " + EventEnvelope.TYPE.pattern() + ", got '" + Texts.clip(category) + "'");
        }
        if (digest != null && fallback == null) {
            throw new IllegalArgumentException("a digest folds offline fallbacks: it needs a fallback");
        }
        muted = muted == null ? List.of() : List.copyOf(muted);
        if (expiresAt != null) {
            EventFields.checkMillis("expiresAt", expiresAt);
        }
        if (muted.contains(Channel.INBOX)) {
            throw new IllegalArgumentException("an event in the inbox cannot have the inbox channel muted");
        }
        if (cancellationKey != null && !EventEnvelope.isType(cancellationKey)) {
            throw new IllegalArgumentException("cancellationKey must match " + EventEnvelope.TYPE.pattern() + ", got '"
                    + Texts.clip(cancellationKey) + "'");
        }
        EventFields.checkText("producer", producer);
        if (recalled && !data.isEmpty()) {
            throw new IllegalArgumentException("a recalled event keeps no data");
        }
    }

    /** An event without cancellation key, producer or recall (the fields before recall). */
    public SequencedEvent(StreamId stream, String epoch, long seq, String id, String type, ObjectNode data,
                          OffsetDateTime occurredAt, String source, long ingestedAt, long sequencedAt, Fallback fallback,
                          String collapseKey, String category, boolean critical, Digest digest, List<Channel> muted, Long expiresAt) {
        this(stream, epoch, seq, id, type, data, occurredAt, source, ingestedAt, sequencedAt, fallback, collapseKey, category, critical,
                digest, muted, expiresAt, null, null, false);
    }

    /** An event without category, critical mark, digest or muted channels (the fields before preferences). */
    public SequencedEvent(StreamId stream, String epoch, long seq, String id, String type, ObjectNode data,
                          OffsetDateTime occurredAt, String source, long ingestedAt, long sequencedAt, Fallback fallback,
                          String collapseKey) {
        this(stream, epoch, seq, id, type, data, occurredAt, source, ingestedAt, sequencedAt, fallback, collapseKey, null, false,
                null, List.of(), null, null, null, false);
    }

    /** An event without expiry (the fields before expiresAt). */
    public SequencedEvent(StreamId stream, String epoch, long seq, String id, String type, ObjectNode data,
                          OffsetDateTime occurredAt, String source, long ingestedAt, long sequencedAt, Fallback fallback,
                          String collapseKey, String category, boolean critical, Digest digest, List<Channel> muted) {
        this(stream, epoch, seq, id, type, data, occurredAt, source, ingestedAt, sequencedAt, fallback, collapseKey, category, critical,
                digest, muted, null, null, null, false);
    }

    /** An event without offline fallback. */
    public SequencedEvent(StreamId stream, String epoch, long seq, String id, String type, ObjectNode data,
                          OffsetDateTime occurredAt, String source, long ingestedAt, long sequencedAt) {
        this(stream, epoch, seq, id, type, data, occurredAt, source, ingestedAt, sequencedAt, null, null, null, false, null, List.of(),
                null, null, null, false);
    }

    /** Places a durable envelope in a stream. */
    public static SequencedEvent of(StreamId stream, Position position, EventEnvelope envelope,
                                    long ingestedAt, long sequencedAt) {
        if (!envelope.isDurable()) {
            throw new IllegalArgumentException("event " + envelope.id() + " is ephemeral; only durable events are sequenced");
        }
        return new SequencedEvent(stream, position.epoch(), position.seq(), envelope.id(), envelope.type(),
                envelope.data(), envelope.occurredAt(), envelope.source(), ingestedAt, sequencedAt, envelope.fallback(),
                envelope.collapseKey(), envelope.category(), envelope.critical(), envelope.digest(), List.of(),
                envelope.expiryMillis(ingestedAt), envelope.cancellationKey(), null, false);
    }

    /**
     * This event recalled: the same position, id, type, producer and times, without its data, fallback and digest (what
     * the inbox keeps in its seq, and what {@code notify.stream-log} records of the recall).
     */
    public SequencedEvent asRecalled() {
        return new SequencedEvent(stream, epoch, seq, id, type, null, occurredAt, source, ingestedAt, sequencedAt, null, collapseKey,
                category, critical, null, muted, expiresAt, cancellationKey, producer, true);
    }

    @Override
    public EventClass eventClass() {
        return EventClass.DURABLE;
    }

    /** Whether the user's preferences turned {@code channel} off for this event. */
    public boolean isMuted(Channel channel) {
        return muted.contains(channel);
    }

    @JsonIgnore
    public Position position() {
        return new Position(epoch, seq);
    }
}
