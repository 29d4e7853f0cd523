package io.notify.cli.replay;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.common.TopicPartition;

/**
 * What part of a topic to read. Time bounds are record timestamps: {@code from} is inclusive,
 * {@code to} exclusive, so a record is inside when {@code from <= timestamp < to}. Offset bounds
 * follow Kafka's convention: {@code fromOffset} inclusive, {@code toOffset} exclusive. A time and an
 * offset may bound the two ends ({@code --from-offset 0:10 --to -1h}), never the same end. Missing
 * bounds mean the first retained record and the end offset captured at start.
 */
record Window(Instant from, Instant to, OffsetArg fromOffset, OffsetArg toOffset) {

    /** An offset range {@code [start, end)} of one partition. */
    record Range(long start, long end) {
        long size() {
            return Math.max(0, end - start);
        }
    }

    Window {
        if (from != null && fromOffset != null) {
            throw new UsageException("--from and --from-offset both bound the start; give one");
        }
        if (to != null && toOffset != null) {
            throw new UsageException("--to and --to-offset both bound the end; give one");
        }
        if (from != null && to != null && !from.isBefore(to)) {
            throw new UsageException("--from (" + from + ") must be before --to (" + to + "); the window [from, to) is empty");
        }
        if (fromOffset != null && toOffset != null && fromOffset.all().isPresent() && toOffset.all().isPresent()
                && fromOffset.all().getAsLong() >= toOffset.all().getAsLong()) {
            throw new UsageException("--from-offset must be below --to-offset; the range [from, to) is empty");
        }
    }

    static Window all() {
        return new Window(null, null, null, null);
    }

    /** True when the timestamp lies in {@code [from, to)}; offsets were already applied by {@link #ranges}. */
    boolean admits(long timestamp) {
        return (from == null || timestamp >= from.toEpochMilli()) && (to == null || timestamp < to.toEpochMilli());
    }

    /** This window widened by {@code slack} on both time ends; offset bounds are dropped (they belong to another topic). */
    Window widenedInTime(Duration slack) {
        return new Window(from == null ? null : from.minus(slack), to == null ? null : to.plus(slack), null, null);
    }

    /**
     * Resolves the window on each partition with the broker: beginning and end offsets (the end
     * captured now, which is the last stable offset under read_committed) and, for time bounds,
     * offsetsForTimes on every partition.
     */
    Map<TopicPartition, Range> resolve(Consumer<?, ?> consumer, List<TopicPartition> partitions, Duration timeout) {
        return resolve(consumer, partitions, timeout, Map.of());
    }

    /** As {@link #resolve(Consumer, List, Duration)}, with the end offsets of some partitions captured earlier. */
    Map<TopicPartition, Range> resolve(Consumer<?, ?> consumer, List<TopicPartition> partitions, Duration timeout,
                                      Map<TopicPartition, Long> capturedEnds) {
        Map<TopicPartition, Long> begin = consumer.beginningOffsets(partitions, timeout);
        List<TopicPartition> unknown = partitions.stream().filter(tp -> !capturedEnds.containsKey(tp)).toList();
        Map<TopicPartition, Long> end = new HashMap<>(unknown.isEmpty() ? Map.of() : consumer.endOffsets(unknown, timeout));
        partitions.stream().filter(capturedEnds::containsKey).forEach(tp -> end.put(tp, capturedEnds.get(tp)));
        Map<TopicPartition, OffsetAndTimestamp> fromTimes = from == null ? Map.of()
                : consumer.offsetsForTimes(times(partitions, from), timeout);
        Map<TopicPartition, OffsetAndTimestamp> toTimes = to == null ? Map.of()
                : consumer.offsetsForTimes(times(partitions, to), timeout);
        return ranges(partitions, begin, end, fromTimes, toTimes);
    }

    private static Map<TopicPartition, Long> times(List<TopicPartition> partitions, Instant at) {
        return partitions.stream().collect(Collectors.toMap(tp -> tp, tp -> at.toEpochMilli()));
    }

    /**
     * The pure part of {@link #resolve}: offsetsForTimes gives the first offset whose timestamp is at
     * or after a bound (null: none yet, so the bound lies past the end). A {@code --from-offset}
     * naming partitions limits the read to them. Offsets outside the retained log are clamped.
     */
    Map<TopicPartition, Range> ranges(List<TopicPartition> partitions, Map<TopicPartition, Long> begin,
                                      Map<TopicPartition, Long> end, Map<TopicPartition, OffsetAndTimestamp> fromTimes,
                                      Map<TopicPartition, OffsetAndTimestamp> toTimes) {
        checkNamedPartitions("--from-offset", fromOffset, partitions);
        checkNamedPartitions("--to-offset", toOffset, partitions);
        Map<TopicPartition, Range> out = new LinkedHashMap<>();
        for (TopicPartition tp : partitions) {
            if (fromOffset != null && fromOffset.namesPartitions() && fromOffset.forPartition(tp.partition()).isEmpty()) {
                continue;
            }
            long first = begin.getOrDefault(tp, 0L);
            long last = end.getOrDefault(tp, first);
            long start = first;
            if (fromOffset != null) {
                start = fromOffset.forPartition(tp.partition()).orElse(first);
            } else if (from != null) {
                OffsetAndTimestamp at = fromTimes.get(tp);
                start = at == null ? last : at.offset();
            }
            long stop = last;
            OptionalLong bound = toOffset == null ? OptionalLong.empty() : toOffset.forPartition(tp.partition());
            if (bound.isPresent()) {
                stop = Math.min(stop, bound.getAsLong());
            } else if (to != null && toTimes.get(tp) != null) {
                stop = Math.min(stop, toTimes.get(tp).offset());
            }
            start = Math.max(first, Math.min(start, last));
            out.put(tp, new Range(start, Math.max(start, stop)));
        }
        return out;
    }

    private static void checkNamedPartitions(String flag, OffsetArg arg, List<TopicPartition> partitions) {
        if (arg == null) {
            return;
        }
        for (int p : arg.byPartition().keySet()) {
            if (partitions.stream().noneMatch(tp -> tp.partition() == p)) {
                throw new UsageException(flag + " names partition " + p + ", but " + partitions.get(0).topic()
                        + " has partitions 0.." + (partitions.size() - 1));
            }
        }
    }
}
