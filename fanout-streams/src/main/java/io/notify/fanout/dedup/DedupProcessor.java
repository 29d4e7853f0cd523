package io.notify.fanout.dedup;

import io.notify.fanout.intake.Intake;
import io.notify.fanout.metrics.FanoutMetrics;
import io.notify.schemas.topic.DlqFailure;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.util.Arrays;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;
import org.apache.kafka.streams.state.WindowStore;
import org.apache.kafka.streams.state.WindowStoreIterator;

/**
 * Step 2: forwards the first record of each event id (in its producer's scope: the record key
 * intake gave it) and drops re-sends of that id seen within the dedup window (by record timestamp,
 * either side, so producer clock skew does not matter). It remembers, with each id, a digest of the
 * record's value: a re-send whose value differs is not a retry but a reused id, and is parked on the
 * DLQ with kind {@value #KIND_DUPLICATE_ID} (never dropped silently, never delivered as the old
 * event's duplicate).
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
 * (ingest and NotifyPublisher always do; see README "Dedup"). A value remembered before digests
 * were (8 bytes: the old first-seen timestamp) counts as the same event.
 */
public final class DedupProcessor implements Processor<String, Intake.Accepted, String, Intake> {

    public static final String STORE = "dedup-ids";
    /** DLQ kind of an event whose id its producer used within the window for another event. */
    public static final String KIND_DUPLICATE_ID = "duplicate_id";
    /** Bytes of the value digest remembered per id (a truncated SHA-256). */
    static final int DIGEST_BYTES = 16;

    private final Duration window;
    private final Clock clock;
    private final FanoutMetrics metrics;
    private final MessageDigest sha256;
    private WindowStore<String, byte[]> seen;
    private ProcessorContext<String, Intake> context;

    public DedupProcessor(Duration window, Clock clock, FanoutMetrics metrics) {
        this.window = window;
        this.clock = clock;
        this.metrics = metrics;
        try {
            this.sha256 = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required by every JRE", e);
        }
    }

    /** The id store: retention = window; window size = window (only puts and point-range fetches are used). */
    public static StoreBuilder<WindowStore<String, byte[]>> storeBuilder(Duration window) {
        return Stores.windowStoreBuilder(
                Stores.persistentWindowStore(STORE, window, window, false),
                Serdes.String(), Serdes.ByteArray());
    }

    @Override
    public void init(ProcessorContext<String, Intake> context) {
        this.context = context;
        this.seen = context.getStateStore(STORE);
    }

    @Override
    public void process(Record<String, Intake.Accepted> record) {
        String id = record.key();
        long ts = record.timestamp();
        long from = Math.max(0, ts - window.toMillis());
        long to = ts > Long.MAX_VALUE - window.toMillis() ? Long.MAX_VALUE : ts + window.toMillis();
        byte[] digest = digest(record.value().rawValue());
        // the millisecond form: the Instant one formats its error text with String.format on every call (Kafka 4.4)
        try (WindowStoreIterator<byte[]> hits = seen.fetch(id, from, to)) {
            if (hits.hasNext()) {
                byte[] first = hits.next().value;
                if (first == null || first.length != DIGEST_BYTES || Arrays.equals(first, digest)) {
                    metrics.dedupHit();
                } else {
                    reused(record);
                }
                return;
            }
        }
        seen.put(id, digest, ts);
        context.forward(record.withValue((Intake) record.value()));
    }

    private void reused(Record<String, Intake.Accepted> record) {
        RecordMetadata source = context.recordMetadata().orElseThrow(
                () -> new IllegalStateException("dedup runs on source records, which always have metadata"));
        String id = record.value().envelope().id();
        DlqFailure failure = new DlqFailure("event id '" + id + "' was used by the same producer within the dedup window ("
                + window + ") for another event: not delivered; send it under a new id", KIND_DUPLICATE_ID,
                source.topic(), Math.max(0, source.partition()), Math.max(0, source.offset()), clock.instant());
        metrics.dlq(KIND_DUPLICATE_ID);
        context.forward(new Record<String, Intake>(null, new Intake.Rejected(record.value().rawKey(), record.value().rawValue()),
                record.timestamp(), failure.toHeaders(record.headers())));
    }

    private byte[] digest(byte[] value) {
        sha256.reset();
        return Arrays.copyOf(sha256.digest(value == null ? new byte[0] : value), DIGEST_BYTES);
    }
}
