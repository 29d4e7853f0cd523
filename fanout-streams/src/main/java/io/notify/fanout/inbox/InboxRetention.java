package io.notify.fanout.inbox;

import io.notify.fanout.metrics.FanoutMetrics;
import io.notify.protocol.stream.SequencedEvent;
import io.notify.protocol.stream.StreamId;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Keeps each stream's inbox within its bounds: at most {@code maxEvents} entries, none older
 * than {@code maxAge} (by {@code sequencedAt}). Entries go oldest first, so the inbox always
 * holds one contiguous seq range and the head's {@code firstSeq} stays exact; every delete is a
 * tombstone in the store's changelog.
 *
 * <p>Two paths: {@link #trim} runs on every append (the count bound, and the age bound of an
 * active stream); {@link #sweep} runs from a wall-clock punctuator for streams that went idle,
 * which nothing else would ever trim. One sweep looks at no more than {@code sweepStreams} heads
 * and deletes no more than {@code sweepMaxDeletes} entries, then stops and resumes from its
 * cursor on the next run, so a punctuation never holds the stream thread long. Neither reads the
 * oldest entry before the head's {@code ageCheckAt} (nothing can have aged out before it), so an
 * append costs no inbox read until its stream's oldest entry nears the age bound. An entry goes as
 * {@code put(key, null)}, never {@code delete(key)}: a Kafka Streams store's delete reads the old
 * value to return it, a RocksDB point read of the stream's oldest entry, long out of the memtable
 * (a fifth of the stream thread at 16,000 events/s, docs/BENCHMARKS.md). The cursor lives
 * in memory: after a restart the sweep starts over from the first stream, which is harmless.
 * Not thread-safe: one instance per task, used from its stream thread.
 */
public final class InboxRetention {

    private final KeyValueStore<StreamId, StreamHead> heads;
    private final KeyValueStore<InboxKey, SequencedEvent> inbox;
    private final InboxLimits limits;
    private final int sweepStreams;
    private final int sweepMaxDeletes;
    private final FanoutMetrics metrics;
    private StreamId cursor; // last stream the sweep looked at; null = start from the first

    public InboxRetention(KeyValueStore<StreamId, StreamHead> heads, KeyValueStore<InboxKey, SequencedEvent> inbox,
                          InboxLimits limits, int sweepStreams, int sweepMaxDeletes, FanoutMetrics metrics) {
        this.heads = heads;
        this.inbox = inbox;
        this.limits = limits;
        this.sweepStreams = sweepStreams;
        this.sweepMaxDeletes = sweepMaxDeletes;
        this.metrics = metrics;
    }

    /** Deletes what is over either bound; returns the head with its new firstSeq and ageCheckAt (not stored). */
    public StreamHead trim(StreamId stream, StreamHead head, long nowMs) {
        return trim(stream, head, nowMs, Integer.MAX_VALUE).head();
    }

    private Trimmed trim(StreamId stream, StreamHead head, long nowMs, int budget) {
        InboxLimits.Limit limit = limits.of(stream);
        long maxAgeMs = limit.maxAge().toMillis();
        long first = head.firstSeq();
        long overCount = Math.max(0, head.size() - limit.maxEvents());
        long checkAt = head.ageCheckAt();
        int deleted = 0;
        long byCount = 0;
        while (deleted < budget && first <= head.lastSeq()) {
            if (byCount < overCount) {
                byCount++;
            } else {
                if (nowMs < checkAt) {
                    break; // the oldest entry cannot be past the age bound yet: no read needed
                }
                SequencedEvent oldest = inbox.get(new InboxKey(stream, first));
                if (oldest != null && nowMs - oldest.sequencedAt() <= maxAgeMs) {
                    checkAt = oldest.sequencedAt() + maxAgeMs + 1; // everything after it is younger
                    break;
                }
            }
            inbox.put(new InboxKey(stream, first), null); // a tombstone: delete() would read the entry first
            first++;
            deleted++;
        }
        metrics.inboxTrimmed("count", byCount);
        metrics.inboxTrimmed("age", deleted - byCount);
        StreamHead trimmed = first == head.firstSeq() ? head : head.withFirstSeq(first);
        return new Trimmed(checkAt == head.ageCheckAt() ? trimmed : trimmed.withAgeCheckAt(checkAt), deleted);
    }

    private record Trimmed(StreamHead head, int deleted) {
    }

    /**
     * One bounded sweep over the heads after the cursor, trimming entries past the age bound.
     *
     * @return entries deleted
     */
    public int sweep(long nowMs) {
        List<KeyValue<StreamId, StreamHead>> batch = nextBatch();
        int deleted = 0;
        for (KeyValue<StreamId, StreamHead> entry : batch) {
            if (!entry.value.isEmpty()) {
                Trimmed t = trim(entry.key, entry.value, nowMs, sweepMaxDeletes - deleted);
                if (t.head() != entry.value) {
                    heads.put(entry.key, t.head());
                }
                deleted += t.deleted();
                if (deleted >= sweepMaxDeletes) {
                    return deleted; // the cursor stays before this stream, so the next sweep finishes it
                }
            }
            cursor = entry.key;
        }
        if (batch.size() < sweepStreams) {
            cursor = null; // reached the end: the next sweep starts over
        }
        return deleted;
    }

    /** Copies the next heads out first, so the sweep never writes a store it is iterating. */
    private List<KeyValue<StreamId, StreamHead>> nextBatch() {
        List<KeyValue<StreamId, StreamHead>> batch = new ArrayList<>();
        try (KeyValueIterator<StreamId, StreamHead> it = heads.range(cursor, null)) {
            while (it.hasNext() && batch.size() < sweepStreams) {
                KeyValue<StreamId, StreamHead> next = it.next();
                if (!next.key.equals(cursor)) {
                    batch.add(next);
                }
            }
        }
        return batch;
    }
}
