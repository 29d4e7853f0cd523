package io.notify.fanout.prefs;

import io.notify.fanout.commit.CatchUpCommit;
import io.notify.fanout.metrics.FanoutMetrics;
import io.notify.protocol.prefs.UserPreferences;
import io.notify.protocol.stream.StreamId;
import io.notify.schemas.serde.NotifySerdes;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Applies {@code notify.preferences} to the {@value PreferenceStores#PREFERENCES} store in the task that
 * owns the user's stream: a record replaces the user's preferences, a tombstone removes them (every
 * channel on, no quiet hours). Events sequenced after the record follow it. Dropped and counted in
 * {@code notify_fanout_preferences_total{outcome}}: an unreadable record ({@code unreadable}), one whose
 * key is not a user stream or not its value's stream ({@code misplaced}); applied ones count
 * {@code applied} and {@code reset}. Nothing is forwarded: the topic itself is the compacted record.
 * Not thread-safe: one instance per task.
 */
public final class PreferenceApplier implements Processor<byte[], byte[], Void, Void> {

    private final FanoutMetrics metrics;
    private ProcessorContext<Void, Void> context;
    private KeyValueStore<StreamId, UserPreferences> store;

    public PreferenceApplier(FanoutMetrics metrics) {
        this.metrics = metrics;
    }

    @Override
    public void init(ProcessorContext<Void, Void> context) {
        this.context = context;
        this.store = context.getStateStore(PreferenceStores.PREFERENCES);
    }

    @Override
    public void process(Record<byte[], byte[]> record) {
        metrics.catchUpCommit(CatchUpCommit.processed(context));
        StreamId stream;
        try {
            stream = record.key() == null ? null : StreamId.parse(new String(record.key(), StandardCharsets.UTF_8));
        } catch (IllegalArgumentException e) {
            stream = null;
        }
        if (stream == null || !stream.isUser()) {
            metrics.preferences("misplaced");
            return;
        }
        if (record.value() == null) {
            store.delete(stream);
            metrics.preferences("reset");
            return;
        }
        UserPreferences prefs;
        try {
            prefs = NotifySerdes.userPreferences().deserializer().deserialize(null, record.value());
        } catch (SerializationException e) {
            metrics.preferences("unreadable");
            return;
        }
        if (prefs == null) {
            metrics.preferences("unreadable");
            return;
        }
        if (!prefs.stream().equals(stream)) {
            metrics.preferences("misplaced");
            return;
        }
        store.put(stream, prefs);
        metrics.preferences("applied");
    }
}
