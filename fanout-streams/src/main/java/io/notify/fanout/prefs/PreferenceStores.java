package io.notify.fanout.prefs;

import io.notify.protocol.prefs.UserPreferences;
import io.notify.protocol.stream.StreamId;
import io.notify.schemas.serde.NotifySerdes;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;

/**
 * The {@value #PREFERENCES} store: a user's stream → their {@link UserPreferences}, written by
 * {@link PreferenceApplier} only, read by the sequencer (channels by type and category), the fallback
 * timer (quiet hours) and the query API ({@code GET /v1/streams/{stream}/preferences}). Partitioned
 * like the by-stream topic, so it lives in the task that owns the user's stream.
 */
public final class PreferenceStores {

    public static final String PREFERENCES = "preferences";

    private PreferenceStores() {
    }

    /** Changelogged, no cache: a change is rare and applies to the next event at once. */
    public static StoreBuilder<KeyValueStore<StreamId, UserPreferences>> builder() {
        return Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(PREFERENCES), NotifySerdes.streamId(),
                NotifySerdes.userPreferences());
    }

    /** Parameters for {@code KafkaStreams.store(...)} to open this instance's preferences store. */
    public static StoreQueryParameters<ReadOnlyKeyValueStore<StreamId, UserPreferences>> query() {
        return StoreQueryParameters.fromNameAndType(PREFERENCES, QueryableStoreTypes.keyValueStore());
    }
}
