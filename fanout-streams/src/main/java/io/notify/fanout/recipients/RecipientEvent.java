package io.notify.fanout.recipients;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.notify.protocol.event.EventClass;
import io.notify.protocol.event.EventEnvelope;
import io.notify.protocol.event.Digest;
import io.notify.protocol.event.Fallback;
import io.notify.protocol.event.Recall;
import io.notify.protocol.event.Channel;
import io.notify.protocol.stream.LiveEvent;
import io.notify.protocol.stream.Position;
import io.notify.protocol.stream.SequencedEvent;
import io.notify.protocol.stream.StreamId;
import io.notify.schemas.serde.JsonSerde;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Value of the internal {@code by-stream} repartition topic (key: the recipient's stream): one
 * event for one recipient, i.e. the envelope without {@code to}. Copying the whole recipient list
 * into each of up to {@code Recipients.MAX_USERS} records would multiply the topic's bytes by the
 * audience size. Internal to fanout-streams: it may change between versions as long as a rolling
 * deploy can read the old shape (unknown fields are ignored on read).
 *
 * <p>A record with {@code recall} set is not an event but a producer's recall for this stream
 * (docs/protocol.md, "Recall"): {@code id} is the recall's own, {@code type} {@value #RECALL_TYPE}, and
 * {@code producer} the scope whose events it may take back.
 */
@JsonPropertyOrder({"id", "type", "class", "data", "occurredAt", "collapseKey", "source", "ingestedAt", "fallback", "category",
        "critical", "digest", "expiresAt", "cancellationKey", "producer", "recall"})
public record RecipientEvent(
        String id,
        String type,
        @JsonProperty("class") EventClass eventClass,
        ObjectNode data,
        OffsetDateTime occurredAt,
        String collapseKey,
        String source,
        long ingestedAt,
        Fallback fallback,
        String category,
        @JsonInclude(JsonInclude.Include.NON_DEFAULT) boolean critical,
        Digest digest,
        Long expiresAt,
        String cancellationKey,
        String producer,
        Recall.Target recall) {

    /** The type of a recall's record (reserved: no producer's event has it). */
    public static final String RECALL_TYPE = "notify.recall";

    private static final JsonSerde<RecipientEvent> SERDE = JsonSerde.of(RecipientEvent.class);

    public RecipientEvent {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(eventClass, "eventClass");
    }

    public static JsonSerde<RecipientEvent> serde() {
        return SERDE;
    }

    /**
     * One record per addressed stream: {@code to.users}, then {@code to.rooms}, then {@code b:all}, in that order.
     * {@code producer}: the scope it was published in, or null for the shared scope of direct producers.
     */
    public static List<StreamAddressed> explode(EventEnvelope envelope, long ingestedAt, String producer) {
        RecipientEvent event = new RecipientEvent(envelope.id(), envelope.type(), envelope.eventClass(),
                envelope.data(), envelope.occurredAt(), envelope.collapseKey(), envelope.source(), ingestedAt, envelope.fallback(),
                envelope.category(), envelope.critical(), envelope.digest(), envelope.expiryMillis(ingestedAt),
                envelope.cancellationKey(), producer, null);
        return each(StreamId.addressedBy(envelope.to()), event);
    }

    /** A recall's record for each stream it names, in the order of {@code to}, as for an event. */
    public static List<StreamAddressed> explode(Recall recall, long ingestedAt, String producer) {
        RecipientEvent order = new RecipientEvent(recall.id(), RECALL_TYPE, EventClass.DURABLE, null, null, null, null, ingestedAt,
                null, null, false, null, null, null, producer, recall.recall());
        return each(StreamId.addressedBy(recall.to()), order);
    }

    private static List<StreamAddressed> each(List<StreamId> streams, RecipientEvent event) {
        List<StreamAddressed> out = new ArrayList<>(streams.size());
        for (StreamId stream : streams) {
            out.add(new StreamAddressed(stream, event));
        }
        return out;
    }

    /** A recipient event paired with the stream it is addressed to. */
    public record StreamAddressed(StreamId stream, RecipientEvent event) {
    }

    /** Whether this is a producer's recall for the stream rather than an event. */
    @JsonIgnore
    public boolean isRecall() {
        return recall != null;
    }

    @JsonIgnore
    public boolean isDurable() {
        return eventClass == EventClass.DURABLE;
    }

    /** This event placed in a stream at a position (durable only), with the channels the user's preferences turned off. */
    public SequencedEvent sequenced(StreamId stream, Position position, long sequencedAt, List<Channel> muted) {
        boolean user = stream.isUser();
        return new SequencedEvent(stream, position.epoch(), position.seq(), id, type, data, occurredAt, source,
                ingestedAt, sequencedAt, user ? fallback : null, collapseKey, category, critical, user ? digest : null, muted, expiresAt,
                cancellationKey, producer, false);
    }

    /** This event addressed to a stream for live delivery only (ephemeral only). */
    public LiveEvent live(StreamId stream) {
        return new LiveEvent(stream, id, type, data, occurredAt, collapseKey, source, ingestedAt, expiresAt);
    }
}
