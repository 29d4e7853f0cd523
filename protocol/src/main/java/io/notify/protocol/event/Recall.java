package io.notify.protocol.event;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.Objects;

/**
 * A producer taking back events it sent (docs/protocol.md, "Recall"): the second kind of record on
 * {@code notify.events}, told from an event by its {@code recall} field. {@code recall} names the
 * events, by {@code id} or by the {@code cancellationKey} they carry (exactly one); {@code to} names the
 * streams to take them back from, as an event's {@code to} does (usually the same as the events'; a
 * recall sent with the same first addressee as the events is sequenced after them). {@code id} is the
 * recall's own id, for tracing; a retried recall is harmless (the second finds nothing left to take).
 * A recall applies to the producer's own events only (the producer scope of the record, as for dedup).
 *
 * <pre>{"id": "rc-1", "recall": {"id": "ord-1:shipped"}, "to": {"users": ["42"]}}
 * {"id": "rc-2", "recall": {"cancellationKey": "order-1"}, "to": {"users": ["42", "43"]}}</pre>
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonPropertyOrder({"id", "recall", "to"})
public record Recall(String id, Target recall, Recipients to) {

    /** The field that makes a {@code notify.events} record a recall. */
    public static final String FIELD = "recall";

    /** Which events: the one with {@code id}, or every one carrying {@code cancellationKey}. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    @JsonPropertyOrder({"id", "cancellationKey"})
    public record Target(String id, String cancellationKey) {

        public Target {
            if ((id == null) == (cancellationKey == null)) {
                throw new IllegalArgumentException("recall names exactly one of id and cancellationKey");
            }
            if (id != null && !EventIds.isValid(id)) {
                throw new IllegalArgumentException("recall.id must be 1..128 chars of [A-Za-z0-9._:-], got '" + id + "'");
            }
            if (cancellationKey != null && !EventEnvelope.isType(cancellationKey)) {
                throw new IllegalArgumentException("recall.cancellationKey must match " + EventEnvelope.TYPE.pattern() + ", got '"
                        + cancellationKey + "'");
            }
        }

        /** The event with this id. */
        public static Target event(String id) {
            return new Target(id, null);
        }

        /** Every event carrying this cancellation key. */
        public static Target key(String cancellationKey) {
            return new Target(null, cancellationKey);
        }

        /** Whether an event with {@code eventId} and {@code eventKey} (nullable) is one this target names. */
        public boolean matches(String eventId, String eventKey) {
            return id != null ? id.equals(eventId) : cancellationKey.equals(eventKey);
        }
    }

    public Recall {
        if (!EventIds.isValid(id)) {
            throw new IllegalArgumentException("id must be 1..128 chars of [A-Za-z0-9._:-], got '" + id + "'");
        }
        Objects.requireNonNull(recall, "recall");
        Objects.requireNonNull(to, "to");
    }

    /** A recall with a generated id. */
    public static Recall of(Target target, Recipients to) {
        return new Recall(EventIds.generate(), target, to);
    }

    /** The {@code notify.events} record key: the first addressee's stream, as for an event ({@link EventEnvelope#recordKey()}). */
    @JsonIgnore
    public String recordKey() {
        return to.firstStream();
    }
}
