package io.notify.fanout.query;

import io.notify.fanout.inbox.InboxKey;
import io.notify.fanout.inbox.InboxStores;
import io.notify.fanout.inbox.StreamHead;
import io.notify.fanout.prefs.PreferenceStores;
import io.notify.fanout.push.PushStores;
import io.notify.protocol.inbox.InboxState;
import io.notify.protocol.prefs.UserPreferences;
import io.notify.protocol.push.PushRegistrations;
import io.notify.protocol.stream.SequencedEvent;
import io.notify.protocol.stream.StreamId;
import io.notify.schemas.serde.NotifySerdes;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KeyQueryMetadata;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.state.HostInfo;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/**
 * Says which instance owns a stream's inbox right now, and opens this instance's stores for the
 * partitions it owns. Only the ACTIVE owner answers (standbys may lag); while Kafka Streams is not
 * RUNNING, or metadata is not yet known, the answer is {@link Unavailable} — the API then says 503,
 * never stale data. Store reads are READ_COMMITTED (transactional state stores; see FanoutStreamsConfig),
 * so a position is only ever served once its transaction committed.
 */
public final class StreamOwners {

    /** Where a stream's inbox lives. */
    public sealed interface Owner permits Local, Remote, Unavailable {
    }

    /** Owned here, in this store partition. */
    public record Local(int partition) implements Owner {
    }

    /** Owned by another instance; forward there. */
    public record Remote(HostInfo host) implements Owner {
    }

    /** Not answerable now (rebalance, restore, shutdown). */
    public record Unavailable(String reason) implements Owner {
    }

    private final KafkaStreams streams;
    private final HostInfo self;
    private final Serializer<StreamId> keySerializer = NotifySerdes.streamId().serializer();

    public StreamOwners(KafkaStreams streams, HostInfo self) {
        this.streams = streams;
        this.self = self;
    }

    public HostInfo self() {
        return self;
    }

    public Owner ownerOf(StreamId stream) {
        if (streams.state() != KafkaStreams.State.RUNNING) {
            return new Unavailable("fanout-streams is " + streams.state());
        }
        KeyQueryMetadata md;
        try {
            md = streams.queryMetadataForKey(InboxStores.HEADS, stream, keySerializer);
        } catch (IllegalStateException e) {
            return new Unavailable("stream metadata not available: " + e.getMessage());
        }
        if (md == null || md.equals(KeyQueryMetadata.NOT_AVAILABLE) || md.activeHost() == null) {
            return new Unavailable("no active owner for " + stream.value() + " yet");
        }
        return md.activeHost().equals(self) ? new Local(md.partition()) : new Remote(md.activeHost());
    }

    /**
     * The stores of one partition owned here.
     *
     * @throws InvalidStateStoreException when the partition moved away or is restoring (answer 503)
     */
    public InboxReader.StreamState local(int partition) {
        ReadOnlyKeyValueStore<StreamId, StreamHead> heads = streams.store(InboxStores.headsQuery().withPartition(partition));
        ReadOnlyKeyValueStore<InboxKey, SequencedEvent> inbox = streams.store(InboxStores.inboxQuery().withPartition(partition));
        ReadOnlyKeyValueStore<StreamId, InboxState> states = streams.store(InboxStores.inboxStateQuery().withPartition(partition));
        ReadOnlyKeyValueStore<StreamId, PushRegistrations> push = streams.store(PushStores.registrationsQuery().withPartition(partition));
        ReadOnlyKeyValueStore<StreamId, UserPreferences> prefs = streams.store(PreferenceStores.query().withPartition(partition));
        return over(heads, inbox, states, push, prefs);
    }

    /** The read side over one partition's stores (the query API's, or a test's own). */
    public static InboxReader.StreamState over(ReadOnlyKeyValueStore<StreamId, StreamHead> heads,
                                               ReadOnlyKeyValueStore<InboxKey, SequencedEvent> inbox,
                                               ReadOnlyKeyValueStore<StreamId, InboxState> states,
                                               ReadOnlyKeyValueStore<StreamId, PushRegistrations> push,
                                               ReadOnlyKeyValueStore<StreamId, UserPreferences> prefs) {
        return new InboxReader.StreamState() {
            @Override
            public Optional<StreamHead> head(StreamId stream) {
                return InboxStores.head(heads, stream);
            }

            @Override
            public List<SequencedEvent> range(StreamId stream, long afterSeq, int limit) {
                return InboxStores.range(inbox, stream, afterSeq, limit);
            }

            @Override
            public List<SequencedEvent> newestFirst(StreamId stream, long beforeSeq, int limit) {
                return InboxStores.newestFirst(inbox, stream, beforeSeq, limit);
            }

            @Override
            public Optional<InboxState> inboxState(StreamId stream) {
                return Optional.ofNullable(states.get(stream));
            }

            @Override
            public Optional<PushRegistrations> pushRegistrations(StreamId stream) {
                return Optional.ofNullable(push.get(stream));
            }

            @Override
            public Optional<UserPreferences> preferences(StreamId stream) {
                return Optional.ofNullable(prefs.get(stream));
            }
        };
    }
}
