package io.notify.cli.replay;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.InterruptException;
import org.apache.kafka.common.errors.WakeupException;

/**
 * Reads fixed offset ranges (the end offsets captured at start) with assign + seek and hands the
 * matching rows to a sink in the replay order: partitions merged by record timestamp, ties by
 * partition then offset, each partition in offset order ({@link PartitionMerge}). This thread
 * polls, cuts at the end offsets and merges (metadata only); a {@link RowPipeline} thread scans,
 * filters and writes, so the two halves run side by side.
 *
 * <p>Bounds: at most {@link #LANE_BOUND} fetched records wait per partition; a partition that far
 * ahead of the others is paused until the merge catches up; {@link RowPipeline#DEPTH} batches wait
 * for the writer. A read that makes no progress for the timeout (broker gone) fails instead of
 * hanging.
 */
final class BoundedRead {

    static final int LANE_BOUND = 2000;
    /** Record timestamp; the merge breaks ties by lane (partition order), and a lane is in offset order. */
    static final Comparator<ConsumerRecord<byte[], byte[]>> BY_TIMESTAMP = (x, y) -> Long.compare(x.timestamp(), y.timestamp());

    /** The record pre-filter that keeps everything, recognised so the read skips it. */
    static final Predicate<ConsumerRecord<byte[], byte[]>> KEEP_ALL = r -> true;

    /** Receives rows in order; returns false to stop the read. */
    interface Sink {
        boolean accept(Row row) throws IOException;
    }

    /**
     * {@code read}: records consumed inside the ranges; {@code matched}: rows handed to the sink;
     * {@code interrupted}: stopped by Ctrl-C or a thread interrupt before the end (not by the sink).
     */
    record Result(long read, long matched, boolean interrupted) {
    }

    private final Consumer<byte[], byte[]> consumer;
    private final List<TopicPartition> lanes;
    private final Map<TopicPartition, Window.Range> ranges;
    private final Predicate<ConsumerRecord<byte[], byte[]>> keep;
    private final boolean keepAll;
    private final Predicate<Row> filter;
    private final ValueScan.Paths paths;
    private final Progress progress;
    private final StopSignal stop;
    private final Duration stallTimeout;

    BoundedRead(Consumer<byte[], byte[]> consumer, Map<TopicPartition, Window.Range> ranges,
                Predicate<ConsumerRecord<byte[], byte[]>> keep, Predicate<Row> filter, ValueScan.Paths paths,
                Progress progress, StopSignal stop, Duration stallTimeout) {
        this.consumer = consumer;
        this.ranges = ranges;
        this.lanes = new ArrayList<>(ranges.keySet());
        this.keep = keep;
        this.keepAll = keep == KEEP_ALL;
        this.filter = filter;
        this.paths = paths;
        this.progress = progress;
        this.stop = stop;
        this.stallTimeout = stallTimeout;
    }

    static long total(Map<TopicPartition, Window.Range> ranges) {
        return ranges.values().stream().mapToLong(Window.Range::size).sum();
    }

    Result run(Sink sink) throws IOException {
        PartitionMerge<ConsumerRecord<byte[], byte[]>> merge = new PartitionMerge<>(lanes.size(), BY_TIMESTAMP);
        Map<TopicPartition, Integer> laneOf = new HashMap<>();
        List<TopicPartition> active = new ArrayList<>();
        for (int i = 0; i < lanes.size(); i++) {
            TopicPartition tp = lanes.get(i);
            laneOf.put(tp, i);
            if (ranges.get(tp).size() == 0) {
                merge.exhausted(i);
            } else {
                active.add(tp);
            }
        }
        consumer.assign(active);
        active.forEach(tp -> consumer.seek(tp, ranges.get(tp).start()));
        RowPipeline rows = new RowPipeline(paths, filter, sink);
        long read = 0;
        boolean interrupted = false;
        try {
            Set<TopicPartition> paused = new HashSet<>();
            long lastProgress = System.nanoTime();
            long consumedBefore = -1;
            while (!merge.finished() && !stop.requested() && !rows.stopped()) {
                ConsumerRecords<byte[], byte[]> records = consumer.poll(Duration.ofMillis(100));
                for (TopicPartition tp : records.partitions()) {
                    List<ConsumerRecord<byte[], byte[]>> got = records.records(tp);
                    long end = ranges.get(tp).end();
                    int n = got.size();
                    while (n > 0 && got.get(n - 1).offset() >= end) {
                        n--; // past the end captured at start
                    }
                    read += n;
                    List<ConsumerRecord<byte[], byte[]>> kept = n == got.size() ? got : got.subList(0, n);
                    if (!keepAll) {
                        kept = kept.stream().filter(keep).toList();
                    }
                    merge.addAll(laneOf.get(tp), kept);
                }
                long consumed = 0;
                for (TopicPartition tp : active) {
                    Window.Range range = ranges.get(tp);
                    long position = Math.min(consumer.position(tp), range.end());
                    consumed += position - range.start();
                    if (position >= range.end()) {
                        merge.exhausted(laneOf.get(tp));
                    }
                }
                List<ConsumerRecord<byte[], byte[]>> batch = new ArrayList<>();
                merge.drain(batch::add);
                rows.put(batch);
                // After the drain, so a lane emptied by it is fetched by the very next poll.
                for (TopicPartition tp : active) {
                    int lane = laneOf.get(tp);
                    boolean hold = merge.isExhausted(lane) || merge.size(lane) >= LANE_BOUND;
                    if (hold && paused.add(tp)) {
                        consumer.pause(List.of(tp)); // done, or far ahead of the others: let them catch up
                    } else if (!hold && merge.size(lane) < LANE_BOUND / 2 && paused.remove(tp)) {
                        consumer.resume(List.of(tp));
                    }
                }
                progress.update(consumed);
                if (consumed != consumedBefore) {
                    consumedBefore = consumed;
                    lastProgress = System.nanoTime();
                } else if (System.nanoTime() - lastProgress > stallTimeout.toNanos()) {
                    throw new IllegalStateException("no progress reading " + lanes.get(0).topic() + " for "
                            + stallTimeout.toSeconds() + " s; is the broker reachable?");
                }
            }
        } catch (WakeupException e) {
            interrupted = true; // Ctrl-C
        } catch (InterruptException | InterruptedException e) {
            Thread.interrupted(); // asked to stop; clear the flag so the output can still be written and closed
            interrupted = true;
        } catch (RuntimeException e) {
            rows.abort();
            throw e;
        }
        long matched;
        try {
            matched = rows.finish();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while finishing the output", e);
        }
        progress.finish();
        return new Result(read, matched, interrupted || stop.requested());
    }
}
