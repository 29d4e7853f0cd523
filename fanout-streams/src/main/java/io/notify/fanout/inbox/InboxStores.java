package io.notify.fanout.inbox;

import io.notify.protocol.inbox.InboxState;
import io.notify.protocol.stream.SequencedEvent;
import io.notify.protocol.stream.StreamId;
import io.notify.schemas.serde.NotifySerdes;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;

/**
 * The two stores that make a stream resumable, and the read side the query API uses.
 * <ul>
 *   <li>{@value #HEADS}: {@link StreamId} → {@link StreamHead} (epoch, firstSeq, lastSeq)</li>
 *   <li>{@value #INBOX}: {@link InboxKey} (stream, seq) → {@link SequencedEvent}, holding exactly the
 *       seqs {@code head.firstSeq..head.lastSeq} of each stream</li>
 *   <li>{@value #INBOX_STATE}: {@link StreamId} → {@link InboxState}, the read state of user streams,
 *       written by {@code ReceiptApplier} only</li>
 * </ul>
 * Both are partitioned like the {@code by-stream} repartition topic, so the instance owning a
 * stream is {@code KafkaStreams.queryMetadataForKey(HEADS, stream, NotifySerdes.streamId().serializer())}.
 * The first two are written only by the sequencer, in the same task and (under exactly_once_v2) the same
 * transaction as the stream-log record. Reads are not isolated from a running transaction: a
 * reader may see a position whose transaction later aborts (see README "Reading the inbox").
 */
public final class InboxStores {

    public static final String HEADS = "stream-heads";
    public static final String INBOX = "inbox";
    public static final String INBOX_STATE = "inbox-state";

    private InboxStores() {
    }

    /** Store for heads; caching on, so a hot stream's head reaches the changelog once per commit. */
    public static StoreBuilder<KeyValueStore<StreamId, StreamHead>> headsBuilder() {
        return Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(HEADS), NotifySerdes.streamId(),
                StreamHead.serde()).withCachingEnabled();
    }

    /** Store for inbox entries; caching on, so an entry appended and trimmed within one commit never hits the changelog. */
    public static StoreBuilder<KeyValueStore<InboxKey, SequencedEvent>> inboxBuilder() {
        return Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(INBOX), InboxKey.serde(),
                NotifySerdes.sequencedEvent()).withCachingEnabled();
    }

    /** Store for user streams' read state ({@code ReceiptApplier}); caching on, so a stream's many acks reach the changelog once per commit. */
    public static StoreBuilder<KeyValueStore<StreamId, InboxState>> inboxStateBuilder() {
        return Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(INBOX_STATE), NotifySerdes.streamId(),
                NotifySerdes.inboxState()).withCachingEnabled();
    }

    /** Parameters for {@code KafkaStreams.store(...)} to open the inbox-state store of this instance. */
    public static StoreQueryParameters<ReadOnlyKeyValueStore<StreamId, InboxState>> inboxStateQuery() {
        return StoreQueryParameters.fromNameAndType(INBOX_STATE, QueryableStoreTypes.keyValueStore());
    }

    /** Parameters for {@code KafkaStreams.store(...)} to open the heads store of this instance. */
    public static StoreQueryParameters<ReadOnlyKeyValueStore<StreamId, StreamHead>> headsQuery() {
        return StoreQueryParameters.fromNameAndType(HEADS, QueryableStoreTypes.keyValueStore());
    }

    /** Parameters for {@code KafkaStreams.store(...)} to open the inbox store of this instance. */
    public static StoreQueryParameters<ReadOnlyKeyValueStore<InboxKey, SequencedEvent>> inboxQuery() {
        return StoreQueryParameters.fromNameAndType(INBOX, QueryableStoreTypes.keyValueStore());
    }

    /** The head of a stream; empty when the stream never had a durable event (on this store). */
    public static Optional<StreamHead> head(ReadOnlyKeyValueStore<StreamId, StreamHead> heads, StreamId stream) {
        return Optional.ofNullable(heads.get(stream));
    }

    /** Up to {@code limit} events of {@code stream} with seq < {@code beforeSeq}, newest first. */
    public static List<SequencedEvent> newestFirst(ReadOnlyKeyValueStore<InboxKey, SequencedEvent> inbox, StreamId stream,
                                                   long beforeSeq, int limit) {
        if (beforeSeq <= 1) {
            return List.of();
        }
        List<SequencedEvent> out = new ArrayList<>(Math.min(limit, 1024));
        try (KeyValueIterator<InboxKey, SequencedEvent> it = inbox.reverseRange(new InboxKey(stream, 0), new InboxKey(stream, beforeSeq - 1))) {
            while (it.hasNext() && out.size() < limit) {
                out.add(it.next().value);
            }
        }
        return out;
    }

    /**
     * Up to {@code limit} events of {@code stream} with seq > {@code afterSeq}, in seq order.
     * Returns what the inbox holds: the caller compares {@code afterSeq} with the head's
     * {@code firstSeq} to tell "nothing new" from "older than the inbox holds".
     */
    public static List<SequencedEvent> range(ReadOnlyKeyValueStore<InboxKey, SequencedEvent> inbox, StreamId stream,
                                             long afterSeq, int limit) {
        if (afterSeq < 0) {
            throw new IllegalArgumentException("afterSeq must be >= 0, got " + afterSeq);
        }
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be >= 1, got " + limit);
        }
        if (afterSeq == Long.MAX_VALUE) {
            return List.of();
        }
        List<SequencedEvent> out = new ArrayList<>(Math.min(limit, 1024));
        try (KeyValueIterator<InboxKey, SequencedEvent> it =
                     inbox.range(new InboxKey(stream, afterSeq + 1), new InboxKey(stream, Long.MAX_VALUE))) {
            while (it.hasNext() && out.size() < limit) {
                KeyValue<InboxKey, SequencedEvent> entry = it.next();
                out.add(entry.value);
            }
        }
        return out;
    }
}
