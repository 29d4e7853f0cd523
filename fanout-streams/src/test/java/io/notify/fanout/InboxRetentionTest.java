package io.notify.fanout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.notify.fanout.inbox.InboxKey;
import io.notify.fanout.inbox.InboxLimits;
import io.notify.fanout.inbox.InboxRetention;
import io.notify.fanout.inbox.StreamHead;
import io.notify.fanout.metrics.FanoutMetrics;
import io.notify.fanout.routing.NodeTopics;
import io.notify.protocol.stream.SequencedEvent;
import io.notify.protocol.stream.StreamId;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.Test;

/** Step 5's bounds: by count on append, by age on append and by the idle sweep; tombstones; firstSeq. */
class InboxRetentionTest extends TopologyTest {

    static final StreamId A = StreamId.forUser("a");
    static final StreamId B = StreamId.forUser("b");

    private void start(Map<String, String> settings) {
        start(settings, NodeTopics.assumeAll());
    }

    private List<Long> inboxSeqs(StreamId stream) {
        List<Long> out = new ArrayList<>();
        try (KeyValueIterator<InboxKey, SequencedEvent> it = f.inbox().all()) {
            it.forEachRemaining(kv -> {
                if (kv.key.stream().equals(stream)) {
                    out.add(kv.key.seq());
                }
            });
        }
        return out;
    }

    private List<Long> tombstones(List<KeyValue<InboxKey, SequencedEvent>> changelog) {
        return changelog.stream().filter(kv -> kv.value == null).map(kv -> kv.key.seq()).toList();
    }

    @Test
    void theCountBoundKeepsTheNewestEntriesAndTombstonesTheOldest() {
        start(Map.of("notify.fanout.inbox.max-events", "5"));
        for (int i = 1; i <= 8; i++) {
            f.sendDurable("ev-" + i, "a");
        }
        StreamHead head = f.heads().get(A);
        assertEquals(4, head.firstSeq());
        assertEquals(8, head.lastSeq());
        assertEquals(List.of(4L, 5L, 6L, 7L, 8L), inboxSeqs(A));
        assertEquals(List.of(1L, 2L, 3L), tombstones(f.inboxChangelog()));
        assertEquals(3.0, f.metrics.count("notify.fanout.inbox.trimmed", "bound", "count"));
    }

    @Test
    void theAgeBoundTrimsOnAppend() {
        start(Map.of("notify.fanout.inbox.max-age", "1h", "notify.fanout.inbox.sweep-interval", "1d"));
        f.sendDurable("ev-1", "a");
        f.sendDurable("ev-2", "a");
        f.advance(Duration.ofMinutes(30));
        f.sendDurable("ev-3", "a");
        f.advance(Duration.ofMinutes(31)); // ev-1 and ev-2 are now 61 min old, ev-3 31 min
        f.sendDurable("ev-4", "a");

        assertEquals(3, f.heads().get(A).firstSeq());
        assertEquals(List.of(3L, 4L), inboxSeqs(A));
        assertEquals(List.of(1L, 2L), tombstones(f.inboxChangelog()));
        assertEquals(2.0, f.metrics.count("notify.fanout.inbox.trimmed", "bound", "age"));
        // The next age check is due when the oldest entry left (ev-3) passes the bound; until then appends read nothing.
        assertEquals(f.inbox().get(new InboxKey(A, 3)).sequencedAt() + Duration.ofHours(1).toMillis() + 1,
                f.heads().get(A).ageCheckAt());
    }

    @Test
    void anEntryIsTrimmedAtTheFirstAppendAfterItAgedOutEvenWhenChecksWereSkipped() {
        start(Map.of("notify.fanout.inbox.max-age", "1h", "notify.fanout.inbox.sweep-interval", "1d"));
        f.sendDurable("ev-1", "a");
        for (int i = 2; i <= 5; i++) {
            f.advance(Duration.ofMinutes(15)); // ev-5 lands at +60 min: ev-1 is exactly 1 h old, still kept
            f.sendDurable("ev-" + i, "a");
        }
        assertEquals(List.of(1L, 2L, 3L, 4L, 5L), inboxSeqs(A));
        f.advance(Duration.ofMillis(1));
        f.sendDurable("ev-6", "a"); // ev-1 is now 1 ms past the bound
        assertEquals(List.of(2L, 3L, 4L, 5L, 6L), inboxSeqs(A));
        assertEquals(1.0, f.metrics.count("notify.fanout.inbox.trimmed", "bound", "age"));
    }

    private static void assertRange(StreamHead expected, StreamHead actual) {
        FanoutFixture.assertSameRange(expected, actual);
    }

    @Test
    void theIdleSweepEmptiesAgedStreamsAndTheNextEventContinuesTheEpoch() {
        start(Map.of("notify.fanout.inbox.max-age", "1h", "notify.fanout.inbox.sweep-interval", "1m"));
        f.sendDurable("a-1", "a");
        f.sendDurable("a-2", "a");
        f.sendDurable("b-1", "b");
        String epoch = f.heads().get(A).epoch();
        String epochB = f.heads().get(B).epoch();
        f.advance(Duration.ofMinutes(30));
        assertEquals(List.of(1L, 2L), inboxSeqs(A)); // swept, but nothing is old enough yet

        f.advance(Duration.ofMinutes(31));
        assertRange(new StreamHead(epoch, 3, 2), f.heads().get(A));
        assertRange(new StreamHead(epochB, 2, 1), f.heads().get(B));
        assertEquals(List.of(), inboxSeqs(A));
        assertEquals(List.of(), inboxSeqs(B));
        assertEquals(3, tombstones(f.inboxChangelog()).size());

        f.sendDurable("a-3", "a");
        assertRange(new StreamHead(epoch, 3, 3), f.heads().get(A));
        assertEquals(List.of(3L), inboxSeqs(A));
    }

    @Test
    void oneSweepLooksAtABoundedNumberOfStreamsAndResumesFromItsCursor() {
        start(Map.of("notify.fanout.inbox.max-age", "1h", "notify.fanout.inbox.sweep-interval", "1m",
                "notify.fanout.inbox.sweep-streams", "1"));
        f.sendDurable("a-1", "a");
        f.sendDurable("b-1", "b");
        f.advance(Duration.ofMinutes(61));
        assertEquals(List.of(), inboxSeqs(A)); // streams are swept in key order: u:a first
        assertEquals(List.of(1L), inboxSeqs(B));

        f.advance(Duration.ofMinutes(1));
        assertEquals(List.of(), inboxSeqs(B));
        assertEquals(2, f.heads().get(B).firstSeq());
        assertNull(f.inbox().get(new InboxKey(B, 1)));
    }

    @Test
    void trimmingByCountReadsNoEntryItDeletes() {
        // A Kafka Streams store's delete(key) reads the old value to return it: one RocksDB read per trimmed entry,
        // of the stream's oldest entry, long out of the memtable. Trimming writes tombstones (put(key, null)) instead.
        Map<Object, Object> entries = new HashMap<>();
        List<String> reads = new ArrayList<>();
        for (long seq = 1; seq <= 8; seq++) {
            entries.put(new InboxKey(A, seq), "entry " + seq);
        }
        long now = 1_000_000;
        InboxRetention retention = new InboxRetention(mapStore(new HashMap<>(), reads), mapStore(entries, reads),
                InboxLimits.uniform(5, Duration.ofDays(1)), 10, 10, FanoutMetrics.inMemory());

        StreamHead trimmed = retention.trim(A, new StreamHead("e1", 1, 8, now + 1), now); // no age check due yet

        assertEquals(4, trimmed.firstSeq());
        assertEquals(List.of(4L, 5L, 6L, 7L, 8L),
                entries.keySet().stream().map(k -> ((InboxKey) k).seq()).sorted().toList());
        assertEquals(List.of(), reads);
    }

    /** A store over {@code entries} that records every call that reads ({@code get}, and {@code delete}, which returns the old value). */
    @SuppressWarnings("unchecked")
    private static <K, V> KeyValueStore<K, V> mapStore(Map<Object, Object> entries, List<String> reads) {
        return (KeyValueStore<K, V>) Proxy.newProxyInstance(KeyValueStore.class.getClassLoader(), new Class<?>[] {KeyValueStore.class},
                (proxy, method, args) -> switch (method.getName()) {
                    case "put" -> {
                        if (args[1] == null) {
                            entries.remove(args[0]);
                        } else {
                            entries.put(args[0], args[1]);
                        }
                        yield null;
                    }
                    case "get", "delete" -> {
                        reads.add(method.getName() + " " + args[0]);
                        yield method.getName().equals("get") ? entries.get(args[0]) : entries.remove(args[0]);
                    }
                    default -> throw new UnsupportedOperationException(method.getName());
                });
    }
}
