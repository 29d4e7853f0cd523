package io.notify.fanout.intake;

import io.notify.protocol.event.Recall;
import io.notify.protocol.event.EventEnvelope;

/**
 * What intake makes of one {@code notify.events} record: a valid event, or a rejection that
 * carries the record's original key and value bytes (the reason travels in the record's
 * DlqHeaders). Lives only inside one sub-topology, so it needs no serde.
 */
public sealed interface Intake permits Intake.Accepted, Intake.Recalled, Intake.Rejected {

    /**
     * A valid envelope whose id is final, when Notify accepted it (the source record timestamp), and
     * the record's original key and value bytes (references, not copies): dedup tells a retry from a
     * reused id by the value, and parks the latter on the DLQ byte for byte.
     */
    record Accepted(EventEnvelope envelope, long ingestedAt, byte[] rawKey, byte[] rawValue) implements Intake {
    }

    /** A valid recall (docs/protocol.md, "Recall") and when Notify accepted it; recalls skip dedup (a repeat finds nothing left). */
    record Recalled(Recall recall, long ingestedAt) implements Intake {
    }

    /** A record for the DLQ, byte for byte; key and value may be null. */
    record Rejected(byte[] key, byte[] value) implements Intake {
    }
}
