package io.notify.cli.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

class WindowTest {

    private static final TopicPartition P0 = new TopicPartition("t", 0);
    private static final TopicPartition P1 = new TopicPartition("t", 1);
    private static final List<TopicPartition> PARTS = List.of(P0, P1);
    private static final Map<TopicPartition, Long> BEGIN = Map.of(P0, 5L, P1, 0L);
    private static final Map<TopicPartition, Long> END = Map.of(P0, 100L, P1, 50L);
    private static final Instant T = Instant.parse("2026-11-29T10:00:00Z");

    private static OffsetAndTimestamp at(long offset) {
        return new OffsetAndTimestamp(offset, 0L, Optional.empty());
    }

    @Test
    void fromIsInclusiveAndToExclusive() {
        Window w = new Window(T, T.plusSeconds(10), null, null);
        assertTrue(w.admits(T.toEpochMilli()));
        assertTrue(w.admits(T.plusSeconds(10).toEpochMilli() - 1));
        assertFalse(w.admits(T.plusSeconds(10).toEpochMilli()));
        assertFalse(w.admits(T.toEpochMilli() - 1));
    }

    @Test
    void timesResolveThroughOffsetsForTimesAndMissingAnswersMeanTheEnd() {
        Window w = new Window(T, T.plusSeconds(10), null, null);
        var ranges = w.ranges(PARTS, BEGIN, END, Map.of(P0, at(20)), Map.of(P0, at(40)));
        assertEquals(new Window.Range(20, 40), ranges.get(P0));
        assertEquals(new Window.Range(50, 50), ranges.get(P1), "no record at or after --from: nothing to read");
    }

    @Test
    void noBoundsReadTheRetainedLogUpToTheCapturedEnd() {
        var ranges = Window.all().ranges(PARTS, BEGIN, END, Map.of(), Map.of());
        assertEquals(new Window.Range(5, 100), ranges.get(P0));
        assertEquals(new Window.Range(0, 50), ranges.get(P1));
    }

    @Test
    void offsetsAreClampedAndNamedPartitionsLimitTheRead() {
        Window w = new Window(null, null, OffsetArg.parse("f", "1:10"), OffsetArg.parse("t", "1:20,0:3"));
        var ranges = w.ranges(PARTS, BEGIN, END, Map.of(), Map.of());
        assertEquals(List.of(P1), List.copyOf(ranges.keySet()));
        assertEquals(new Window.Range(10, 20), ranges.get(P1));
        var clamped = new Window(null, null, OffsetArg.parse("f", "0"), OffsetArg.parse("t", "1000")).ranges(PARTS, BEGIN,
                END, Map.of(), Map.of());
        assertEquals(new Window.Range(5, 100), clamped.get(P0));
        assertThrows(UsageException.class, () -> new Window(null, null, OffsetArg.parse("f", "9:1"), null)
                .ranges(PARTS, BEGIN, END, Map.of(), Map.of()));
    }

    @Test
    void rejectsEmptyOrContradictoryWindows() {
        assertThrows(UsageException.class, () -> new Window(T, T, null, null));
        assertThrows(UsageException.class, () -> new Window(T.plusSeconds(1), T, null, null));
        assertThrows(UsageException.class, () -> new Window(T, null, OffsetArg.parse("f", "1"), null));
        assertThrows(UsageException.class, () -> new Window(null, T, null, OffsetArg.parse("t", "1")));
        assertThrows(UsageException.class, () -> new Window(null, null, OffsetArg.parse("f", "5"), OffsetArg.parse("t", "5")));
    }
}
