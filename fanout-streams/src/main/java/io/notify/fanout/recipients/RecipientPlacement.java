package io.notify.fanout.recipients;

import io.notify.protocol.stream.StreamId;
import io.notify.schemas.serde.NotifySerdes;
import org.apache.kafka.common.utils.Utils;

/**
 * Whether a recipient's copy of an event can be sequenced in the task that read the event, without
 * the {@code by-stream} repartition hop. It can when the by-stream partition of its stream (the
 * partition Kafka Streams' default partitioner gives the serialized stream key: murmur2, positive,
 * modulo the partition count) is the partition of {@code notify.events} the event was read from,
 * and both topics have the same number of partitions: then that task also owns the stream's head
 * and inbox. Producers that key {@code notify.events} by the first recipient (ingest,
 * NotifyPublisher) make this true for every first recipient; a record that a custom partitioner
 * or another key put elsewhere is simply repartitioned, as every copy was before. Immutable.
 */
public final class RecipientPlacement {

    private static final RecipientPlacement NONE = new RecipientPlacement(0);
    private final int partitions;

    private RecipientPlacement(int partitions) {
        this.partitions = partitions;
    }

    /** Every copy is repartitioned (the partition counts are unknown or differ). */
    public static RecipientPlacement none() {
        return NONE;
    }

    /**
     * The placement for {@code notify.events} with {@code eventsPartitions} partitions and a
     * by-stream topic configured to {@code streamPartitions} (0: as many as notify.events): local
     * copies only when the two counts are equal.
     */
    public static RecipientPlacement forTopics(int eventsPartitions, int streamPartitions) {
        if (eventsPartitions < 1 || (streamPartitions != 0 && streamPartitions != eventsPartitions)) {
            return NONE;
        }
        return new RecipientPlacement(eventsPartitions);
    }

    /** Partitions of both topics when copies can stay local; 0 when every copy is repartitioned. */
    public int partitions() {
        return partitions;
    }

    /** Whether {@code stream}'s copy of a record read from partition {@code recordPartition} of notify.events stays in its task. */
    public boolean local(StreamId stream, int recordPartition) {
        if (partitions == 0 || recordPartition < 0) {
            return false;
        }
        byte[] key = NotifySerdes.streamId().serializer().serialize(null, stream);
        return Utils.toPositive(Utils.murmur2(key)) % partitions == recordPartition;
    }
}
