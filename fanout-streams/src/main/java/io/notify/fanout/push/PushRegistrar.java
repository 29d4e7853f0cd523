package io.notify.fanout.push;

import io.notify.fanout.commit.CatchUpCommit;
import io.notify.fanout.metrics.FanoutMetrics;
import io.notify.protocol.push.PushChange;
import io.notify.protocol.push.PushRegistrations;
import io.notify.protocol.stream.StreamId;
import io.notify.schemas.serde.NotifySerdes;
import java.util.Arrays;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Applies {@code notify.push-changes} to the {@value PushStores#REGISTRATIONS} store in the task that
 * owns the user's stream, and forwards each new state (for the compacted
 * {@code notify.push-registrations}) in the same exactly-once transaction.
 *
 * <ul>
 *   <li>{@code register}: adds the registration, or replaces the one with its id (the same address
 *       registered again keeps its first {@code createdAt}); past {@code max-registrations} per user the
 *       oldest is removed (counted {@code evicted}: a user with a new phone never gets stuck).</li>
 *   <li>{@code unregister} (the user) and {@code gone} (the provider, via the push sender): removes it;
 *       an unknown id is counted {@code unknown_id} and changes nothing, so a repeat is harmless.</li>
 * </ul>
 * Dropped and counted in {@code notify_fanout_push_changes_total{kind,outcome}}: an unreadable record
 * ({@code unreadable}), a record whose key is not its stream ({@code misplaced}). Unlike receipts, a
 * change needs no event of the stream: a user registers a device before anything was sent to them.
 * Not thread-safe: one instance per task.
 */
public final class PushRegistrar implements Processor<byte[], byte[], StreamId, PushRegistrations> {

    private final int maxRegistrations;
    private final FanoutMetrics metrics;
    private ProcessorContext<StreamId, PushRegistrations> context;
    private KeyValueStore<StreamId, PushRegistrations> store;

    public PushRegistrar(int maxRegistrations, FanoutMetrics metrics) {
        if (maxRegistrations < 1) {
            throw new IllegalArgumentException("max-registrations must be >= 1");
        }
        this.maxRegistrations = maxRegistrations;
        this.metrics = metrics;
    }

    @Override
    public void init(ProcessorContext<StreamId, PushRegistrations> context) {
        this.context = context;
        this.store = context.getStateStore(PushStores.REGISTRATIONS);
    }

    @Override
    public void process(Record<byte[], byte[]> record) {
        metrics.catchUpCommit(CatchUpCommit.processed(context));
        PushChange change;
        try {
            change = NotifySerdes.pushChange().deserializer().deserialize(null, record.value());
        } catch (SerializationException e) {
            metrics.pushChange("unknown", "unreadable");
            return;
        }
        if (change == null) {
            metrics.pushChange("unknown", "unreadable");
            return;
        }
        String kind = change.kind().wireName();
        StreamId stream = change.stream();
        if (record.key() == null || !Arrays.equals(record.key(), NotifySerdes.streamId().serializer().serialize(null, stream))) {
            metrics.pushChange(kind, "misplaced");
            return;
        }
        PushRegistrations before = store.get(stream);
        PushRegistrations.Applied applied = (before == null ? PushRegistrations.empty(stream) : before).apply(change, maxRegistrations);
        if (change.kind() != PushChange.Kind.REGISTER && !applied.existed()) {
            metrics.pushChange(kind, "unknown_id");
            return;
        }
        store.put(stream, applied.state());
        applied.evicted().forEach(r -> metrics.pushChange(kind, "evicted"));
        metrics.pushChange(kind, "applied");
        context.forward(record.withKey(stream).withValue(applied.state()));
    }
}
