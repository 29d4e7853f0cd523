package io.notify.fanout.push;

import io.notify.protocol.push.PushRegistrations;
import io.notify.protocol.stream.StreamId;
import io.notify.schemas.serde.NotifySerdes;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;

/**
 * The {@value #REGISTRATIONS} store: a user's stream → their {@link PushRegistrations}, written by
 * {@link PushRegistrar} only, read by the fallback timer (a push fallback carries the registrations)
 * and by the query API ({@code GET /v1/streams/{stream}/push-registrations}). Partitioned like the
 * by-stream topic, so it lives in the task that owns the user's stream.
 */
public final class PushStores {

    public static final String REGISTRATIONS = "push-registrations";

    private PushStores() {
    }

    /** Changelogged, no cache: a change is rare and should be visible to the next fallback at once. */
    public static StoreBuilder<KeyValueStore<StreamId, PushRegistrations>> registrationsBuilder() {
        return Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(REGISTRATIONS), NotifySerdes.streamId(),
                NotifySerdes.pushRegistrations());
    }

    /** Parameters for {@code KafkaStreams.store(...)} to open this instance's registrations store. */
    public static StoreQueryParameters<ReadOnlyKeyValueStore<StreamId, PushRegistrations>> registrationsQuery() {
        return StoreQueryParameters.fromNameAndType(REGISTRATIONS, QueryableStoreTypes.keyValueStore());
    }
}
