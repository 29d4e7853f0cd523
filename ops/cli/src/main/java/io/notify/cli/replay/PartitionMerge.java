package io.notify.cli.replay;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Predicate;

/**
 * K-way merge of per-partition sequences ("lanes") into one output order. Each lane's items leave
 * in the order they were added, so per-partition order always holds; across lanes the lane whose
 * head is smallest by {@code order} goes first, and of equal heads the lower lane. With the
 * replay's order (timestamp; lanes are partitions in order, each in offset order) the output is
 * sorted by timestamp, then partition, then offset whenever each partition's timestamps rise, which
 * they do for broker (LogAppendTime) timestamps and for producers with sane clocks; where one
 * partition's timestamps go backwards, its own order wins.
 *
 * <p>An item is emitted only once every lane that may still receive items has a head, since a
 * smaller item may yet arrive on an empty lane. Lanes hold the consumer's per-partition lists as
 * they come (no copy per item), and the next lane is found by a scan of the lane heads, which for
 * the dozen or so partitions of a Notify topic is cheaper than a heap. The caller bounds memory by
 * pausing the fetch of lanes whose {@link #size} is large. Not thread-safe.
 */
final class PartitionMerge<T> {

    /** One lane: chunks in arrival order, and the position in the first chunk. */
    private static final class Lane<T> {
        final ArrayDeque<List<T>> chunks = new ArrayDeque<>();
        int index;
        int size;
        boolean exhausted;

        T head() {
            return chunks.peekFirst().get(index);
        }

        T poll() {
            List<T> first = chunks.peekFirst();
            T item = first.get(index++);
            if (index == first.size()) {
                chunks.pollFirst();
                index = 0;
            }
            size--;
            return item;
        }
    }

    private final List<Lane<T>> lanes;
    private final Comparator<T> order;
    /** Lanes that may still receive items and hold none: while above zero nothing can be emitted. */
    private int waiting;

    PartitionMerge(int laneCount, Comparator<T> order) {
        this.order = order;
        this.lanes = new ArrayList<>(laneCount);
        for (int i = 0; i < laneCount; i++) {
            lanes.add(new Lane<>());
        }
        waiting = laneCount;
    }

    /** Appends one item to its lane; items of one lane must come in lane order. */
    void add(int lane, T item) {
        addAll(lane, List.of(item));
    }

    /** Appends items (kept, not copied: do not change the list afterwards) in lane order. */
    void addAll(int lane, List<T> items) {
        Lane<T> l = lanes.get(lane);
        if (l.exhausted) {
            throw new IllegalStateException("lane " + lane + " is exhausted");
        }
        if (items.isEmpty()) {
            return;
        }
        if (l.size == 0) {
            waiting--;
        }
        l.chunks.addLast(items);
        l.size += items.size();
    }

    /** Declares that no more items will come on {@code lane}. Idempotent. */
    void exhausted(int lane) {
        Lane<T> l = lanes.get(lane);
        if (!l.exhausted) {
            l.exhausted = true;
            if (l.size == 0) {
                waiting--;
            }
        }
    }

    boolean isExhausted(int lane) {
        return lanes.get(lane).exhausted;
    }

    int size(int lane) {
        return lanes.get(lane).size;
    }

    /**
     * Hands items to {@code sink} in merge order for as long as the next one is certain.
     *
     * @return false when the sink returned false (stop), true otherwise
     */
    boolean drain(Predicate<T> sink) {
        while (waiting == 0) {
            Lane<T> next = null;
            T best = null;
            for (Lane<T> l : lanes) {
                if (l.size > 0) {
                    T head = l.head();
                    if (next == null || order.compare(head, best) < 0) { // strict: of equal heads the lower lane wins
                        next = l;
                        best = head;
                    }
                }
            }
            if (next == null) {
                return true;
            }
            next.poll();
            if (next.size == 0 && !next.exhausted) {
                waiting++;
            }
            if (!sink.test(best)) {
                return false;
            }
        }
        return true;
    }

    /** True when every lane is exhausted and everything was drained. */
    boolean finished() {
        for (Lane<T> l : lanes) {
            if (!l.exhausted || l.size > 0) {
                return false;
            }
        }
        return true;
    }
}
