package io.notify.schemas.serde;

import io.notify.protocol.event.EventEnvelope;
import io.notify.protocol.inbox.FallbackRecord;
import io.notify.protocol.inbox.InboxState;
import io.notify.protocol.inbox.Receipt;
import io.notify.protocol.prefs.UserPreferences;
import io.notify.protocol.push.PushChange;
import io.notify.protocol.push.PushOutcome;
import io.notify.protocol.push.PushRegistrations;
import io.notify.protocol.stream.DeliveryMessage;
import io.notify.protocol.stream.SequencedEvent;
import io.notify.protocol.stream.StreamEvent;
import io.notify.protocol.stream.StreamId;
import io.notify.protocol.stream.UndeliveredEvent;
import org.apache.kafka.common.serialization.Serde;

/**
 * The serde of every Notify wire type, so no module builds its own. All are thread-safe and
 * stateless; the returned instances may be shared.
 */
public final class NotifySerdes {

    private static final Serde<EventEnvelope> EVENT_ENVELOPE = new EventEnvelopeSerde();
    private static final Serde<StreamId> STREAM_ID = new StreamIdSerde();
    private static final JsonSerde<SequencedEvent> SEQUENCED_EVENT = JsonSerde.writtenOnce(SequencedEvent.class);
    private static final JsonSerde<StreamEvent> STREAM_EVENT = JsonSerde.of(StreamEvent.class);
    private static final JsonSerde<DeliveryMessage> DELIVERY_MESSAGE =
            JsonSerde.embeddingWrittenOnce(DeliveryMessage.class, SequencedEvent.class);
    private static final JsonSerde<UndeliveredEvent> UNDELIVERED_EVENT = JsonSerde.of(UndeliveredEvent.class);
    private static final JsonSerde<Receipt> RECEIPT = JsonSerde.of(Receipt.class);
    private static final JsonSerde<InboxState> INBOX_STATE = JsonSerde.of(InboxState.class);
    private static final JsonSerde<FallbackRecord> FALLBACK_RECORD = JsonSerde.of(FallbackRecord.class);
    private static final JsonSerde<UserPreferences> USER_PREFERENCES = JsonSerde.of(UserPreferences.class);
    private static final JsonSerde<PushOutcome> PUSH_OUTCOME = JsonSerde.of(PushOutcome.class);
    private static final JsonSerde<PushChange> PUSH_CHANGE = JsonSerde.of(PushChange.class);
    private static final JsonSerde<PushRegistrations> PUSH_REGISTRATIONS = JsonSerde.of(PushRegistrations.class);

    private NotifySerdes() {
    }

    /** {@code notify.events} values: schema-validated on read. */
    public static Serde<EventEnvelope> eventEnvelope() {
        return EVENT_ENVELOPE;
    }

    /** Keys of stream-keyed topics: UTF-8 "u:42". */
    public static Serde<StreamId> streamId() {
        return STREAM_ID;
    }

    /**
     * {@code notify.stream-log} values and inbox entries. One event written for both, and inside
     * its {@link #deliveryMessage()}s, one after another on one thread, is serialized once.
     */
    public static Serde<SequencedEvent> sequencedEvent() {
        return SEQUENCED_EVENT;
    }

    /** Either kind of per-stream event, told apart by {@code "class"}. */
    public static Serde<StreamEvent> streamEvent() {
        return STREAM_EVENT;
    }

    /** {@code notify.node.<nodeId>} values. */
    public static Serde<DeliveryMessage> deliveryMessage() {
        return DELIVERY_MESSAGE;
    }

    /** {@code notify.undelivered} values. */
    public static Serde<UndeliveredEvent> undeliveredEvent() {
        return UNDELIVERED_EVENT;
    }

    /** {@code notify.receipts} values. */
    public static Serde<Receipt> receipt() {
        return RECEIPT;
    }

    /** {@code notify.inbox-state} values and fanout-streams' inbox-state store. */
    public static Serde<InboxState> inboxState() {
        return INBOX_STATE;
    }

    /** {@code notify.fallback} values. */
    public static Serde<FallbackRecord> fallbackRecord() {
        return FALLBACK_RECORD;
    }

    /** {@code notify.push-changes} values. */
    public static Serde<PushChange> pushChange() {
        return PUSH_CHANGE;
    }

    /** {@code notify.push-registrations} values and the {@code push-registrations} store's. */
    public static Serde<PushRegistrations> pushRegistrations() {
        return PUSH_REGISTRATIONS;
    }

    /** {@code notify.preferences} values and the {@code preferences} store's. */
    public static Serde<UserPreferences> userPreferences() {
        return USER_PREFERENCES;
    }

    /** {@code notify.push-outcomes} values. */
    public static Serde<PushOutcome> pushOutcome() {
        return PUSH_OUTCOME;
    }
}
