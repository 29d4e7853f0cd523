package io.notify.cli.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.Test;

class PartitionMergeTest {

    /** (timestamp, lane, offset), ordered as the replay orders rows. */
    record Item(long ts, int lane, long offset) {
        @Override
        public String toString() {
            return ts + "/" + lane + "/" + offset;
        }
    }

    /** As the replay orders: by timestamp; the merge breaks ties by lane, and each lane is in offset order. */
    private static final Comparator<Item> ORDER = Comparator.comparingLong(Item::ts);

    private static List<Item> drain(PartitionMerge<Item> m) {
        List<Item> out = new ArrayList<>();
        m.drain(out::add);
        return out;
    }

    @Test
    void mergesByTimestampThenPartitionThenOffset() {
        PartitionMerge<Item> m = new PartitionMerge<>(3, ORDER);
        m.add(0, new Item(10, 0, 0));
        m.add(0, new Item(30, 0, 1));
        m.add(1, new Item(10, 1, 0));
        m.add(1, new Item(20, 1, 1));
        m.add(2, new Item(5, 2, 0));
        m.add(2, new Item(30, 2, 1));
        for (int i = 0; i < 3; i++) {
            m.exhausted(i);
        }
        assertEquals("[5/2/0, 10/0/0, 10/1/0, 20/1/1, 30/0/1, 30/2/1]", drain(m).toString());
        assertTrue(m.finished());
    }

    @Test
    void keepsPartitionOrderWhenItsTimestampsGoBackwards() {
        PartitionMerge<Item> m = new PartitionMerge<>(2, ORDER);
        m.add(0, new Item(50, 0, 0));
        m.add(0, new Item(10, 0, 1)); // a producer clock stepped back
        m.add(1, new Item(20, 1, 0));
        m.exhausted(0);
        m.exhausted(1);
        assertEquals("[20/1/0, 50/0/0, 10/0/1]", drain(m).toString());
    }

    @Test
    void waitsForEveryLaneThatMayStillDeliver() {
        PartitionMerge<Item> m = new PartitionMerge<>(2, ORDER);
        m.add(0, new Item(100, 0, 0));
        assertEquals(List.of(), drain(m), "lane 1 may still bring an earlier item");
        m.add(1, new Item(50, 1, 0));
        assertEquals("[50/1/0]", drain(m).toString(), "lane 1 is empty again: 100 must wait");
        m.exhausted(1);
        assertEquals("[100/0/0]", drain(m).toString());
        assertFalse(m.finished(), "lane 0 is not exhausted");
        m.exhausted(0);
        assertTrue(m.finished());
    }

    @Test
    void emptyAndExhaustedLanesDoNotBlock() {
        PartitionMerge<Item> m = new PartitionMerge<>(3, ORDER);
        m.exhausted(1);
        m.add(0, new Item(1, 0, 0));
        m.add(2, new Item(2, 2, 0));
        m.exhausted(0);
        m.exhausted(2);
        assertEquals("[1/0/0, 2/2/0]", drain(m).toString());
        assertTrue(m.finished());
    }

    @Test
    void sinkCanStopTheDrain() {
        PartitionMerge<Item> m = new PartitionMerge<>(1, ORDER);
        m.add(0, new Item(1, 0, 0));
        m.add(0, new Item(2, 0, 1));
        m.exhausted(0);
        List<Item> got = new ArrayList<>();
        assertFalse(m.drain(i -> got.add(i) && false));
        assertEquals(1, got.size());
        assertEquals(1, m.size(0));
    }
}
