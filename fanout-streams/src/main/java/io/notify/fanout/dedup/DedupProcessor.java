package io.notify.fanout.dedup;

import io.notify.fanout.FanoutMetrics;
import io.notify.fanout.intake.Intake;
import java.time.Duration;
import java.time.Instant;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;
import org.apache.kafka.streams.state.WindowStore;
import org.apache.kafka.streams.state.WindowStoreIterator;

/**
 * Step 2: forwards the first record of each event id and drops re-sends of that id seen within
 * the dedup window (by record timestamp, either side, so producer clock skew does not matter).
 *
 * <p>Why a window store and not a key-value store with expiry: the window store drops whole
 * time segments once stream time passes the retention, so its growth is bounded by the window
 * with no per-key delete and no tombstone per id in the changelog (whose topic is
 * compact,delete with a matching retention); a KV store would need a punctuator deleting
 * every id one by one. The price: expiry follows stream time (record timestamps), not the wall
 * clock, which is exactly the window's meaning.
 *
 * <p>Guarantee: within one source partition, an id forwarded once is never forwarded again
 * while its first sighting is inside the window; under exactly_once_v2 the store update and the
 * output commit together. Copies of one id only meet when the producer keys records by event id
 * (ingest and NotifyPublisher always do; see README "Dedup").
 */
public final class DedupProcessor implements Processor<String, Intake.Accepted, String, Intake.Accepted> {

    public static final String STORE = "dedup-ids";

    private final Duration window;
    private final FanoutMetrics metrics;
    private WindowStore<String, Long> seen;
    private ProcessorContext<String, Intake.Accepted> context;

    public DedupProcessor(Duration window, FanoutMetrics metrics) {
        this.window = window;
        this.metrics = metrics;
    }

    /** The id store: retention = window; window size = window (only puts and point-range fetches are used). */
    public static StoreBuilder<WindowStore<String, Long>> storeBuilder(Duration window) {
        return Stores.windowStoreBuilder(
                Stores.persistentWindowStore(STORE, window, window, false),
                Serdes.String(), Serdes.Long());
    }

    @Override
    public void init(ProcessorContext<String, Intake.Accepted> context) {
        this.context = context;
        this.seen = context.getStateStore(STORE);
    }

    @Override
    public void process(Record<String, Intake.Accepted> record) {
        String id = record.key();
        long ts = record.timestamp();
        Instant from = Instant.ofEpochMilli(Math.max(0, ts - window.toMillis()));
        Instant to = Instant.ofEpochMilli(ts > Long.MAX_VALUE - window.toMillis() ? Long.MAX_VALUE : ts + window.toMillis());
        try (WindowStoreIterator<Long> hits = seen.fetch(id, from, to)) {
            if (hits.hasNext()) {
                metrics.dedupHit();
                return;
            }
        }
        seen.put(id, ts, ts);
        context.forward(record);
    }
}
