package io.notify.gateway.receipts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.notify.gateway.metrics.GatewayMetrics;
import io.notify.gateway.support.CollectingReceiptSink;
import io.notify.protocol.inbox.Receipt;
import io.notify.protocol.inbox.ReceiptKind;
import io.notify.protocol.stream.StreamId;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * The coalescing of clients' acks into receipts: one per device and stream per flush, the highest
 * seq, the bound on what waits, and failures counted, never thrown.
 */
class ReceiptBatcherTest {

    private static final StreamId U1 = StreamId.forUser("1");
    private static final StreamId U2 = StreamId.forUser("2");
    private static final Instant AT = Instant.parse("2026-12-04T10:00:00Z");

    private final GatewayMetrics metrics = new GatewayMetrics(new SimpleMeterRegistry());
    private final CollectingReceiptSink sink = new CollectingReceiptSink();

    private ReceiptBatcher batcher(int maxPending) {
        return new ReceiptBatcher(sink, maxPending, Clock.fixed(AT, ZoneOffset.UTC), metrics.inbox());
    }

    private double receipts(String outcome) {
        return metrics.count("notify.gateway.receipts", "kind", "ack", "outcome", outcome);
    }

    private static List<Receipt> sorted(List<Receipt> receipts) {
        List<Receipt> out = new ArrayList<>(receipts);
        out.sort(Comparator.comparing((Receipt r) -> r.stream().value()).thenComparing(Receipt::device));
        return out;
    }

    @Test
    void acksOfOneDeviceAndStreamBecomeOneReceiptWithTheHighestSeq() {
        ReceiptBatcher b = batcher(100);
        assertTrue(b.ack(U1, "ep1", 3, "phone"));
        assertTrue(b.ack(U1, "ep1", 7, "phone"));
        assertTrue(b.ack(U1, "ep1", 5, "phone")); // lower: kept at 7
        assertTrue(b.ack(U1, "ep1", 2, "laptop"));
        assertTrue(b.ack(U2, "ep9", 4, "phone"));
        assertEquals(3, b.pending());
        assertTrue(sink.received().isEmpty(), "nothing is written before the flush");

        assertEquals(3, b.flush());
        assertEquals(List.of(
                Receipt.ack(U1, "ep1", 2, "laptop", AT.toEpochMilli()),
                Receipt.ack(U1, "ep1", 7, "phone", AT.toEpochMilli()),
                Receipt.ack(U2, "ep9", 4, "phone", AT.toEpochMilli())), sorted(sink.received()));
        assertEquals(ReceiptKind.ACK, sink.received().get(0).kind());
        assertEquals(2.0, metrics.count("notify.gateway.acks.coalesced"));
        assertEquals(3.0, receipts("produced"));
        assertEquals(0, b.pending());
    }

    @Test
    void eachFlushStartsANewWindow() {
        ReceiptBatcher b = batcher(100);
        b.ack(U1, "ep1", 3, "phone");
        assertEquals(1, b.flush());
        assertEquals(0, b.flush(), "an empty window writes nothing");
        b.ack(U1, "ep1", 4, "phone");
        b.ack(U1, "ep1", 6, "phone");
        assertEquals(1, b.flush());
        assertEquals(List.of(3L, 6L), sink.received().stream().map(Receipt::upTo).toList());
    }

    @Test
    void anAckOfAnotherEpochReplacesTheNotedOne_andAnUnknownEpochIsLeftOut() {
        ReceiptBatcher b = batcher(100);
        b.ack(U1, "ep1", 9, "phone");
        b.ack(U1, "ep2", 2, "phone"); // the stream's history changed: the session follows ep2 now
        b.ack(U2, null, 5, "phone");  // the session knew no epoch yet
        b.flush();
        List<Receipt> r = sorted(sink.received());
        assertEquals("ep2", r.get(0).epoch());
        assertEquals(2L, r.get(0).upTo());
        assertNull(r.get(1).epoch());
        assertEquals(5L, r.get(1).upTo());
    }

    @Test
    void beyondTheBoundANewDeviceAndStreamIsDroppedAndCounted_aNotedOneStillCounts() {
        ReceiptBatcher b = batcher(2);
        assertTrue(b.ack(U1, "ep1", 1, "a"));
        assertTrue(b.ack(U1, "ep1", 1, "b"));
        assertFalse(b.ack(U1, "ep1", 1, "c"), "a third device and stream: over the bound");
        assertTrue(b.ack(U1, "ep1", 8, "a"), "a noted one is updated");
        assertEquals(1.0, receipts("dropped"));
        assertEquals(2, b.pending());
        b.flush();
        assertEquals(List.of(8L, 1L), sorted(sink.received()).stream().map(Receipt::upTo).toList());
        assertTrue(b.ack(U1, "ep1", 2, "c"), "room again after the flush");
    }

    @Test
    void aFailedWriteIsCountedNeverThrown() {
        ReceiptBatcher b = batcher(100);
        sink.failing(true);
        b.ack(U1, "ep1", 1, "a");
        b.ack(U2, "ep1", 1, "a");
        assertEquals(2, b.flush());
        assertEquals(2.0, receipts("failed"));
        assertEquals(0.0, receipts("produced"));
        assertEquals(0, b.pending(), "not retried: a later ack of the device carries the same information");
    }

    @Test
    void onlyUserStreamsHaveReceipts() {
        assertThrows(IllegalArgumentException.class, () -> batcher(10).ack(StreamId.forRoom("chat"), "ep1", 1, "a"));
    }

    @Test
    void noAckIsLostWhileFlushesRunConcurrently() throws Exception {
        ReceiptBatcher b = batcher(1000);
        int threads = 4;
        int acks = 20_000;
        CountDownLatch start = new CountDownLatch(1);
        AtomicBoolean done = new AtomicBoolean();
        List<Thread> ackers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            String device = "d" + t;
            Thread th = new Thread(() -> {
                try {
                    start.await();
                } catch (InterruptedException e) {
                    return;
                }
                for (long seq = 1; seq <= acks; seq++) {
                    b.ack(U1, "ep1", seq, device);
                }
            });
            th.start();
            ackers.add(th);
        }
        Thread flusher = new Thread(() -> {
            while (!done.get()) {
                b.flush();
            }
        });
        flusher.start();
        start.countDown();
        for (Thread th : ackers) {
            th.join(TimeUnit.SECONDS.toMillis(30));
        }
        done.set(true);
        flusher.join(TimeUnit.SECONDS.toMillis(30));
        b.flush();
        Map<String, Long> last = new HashMap<>();
        for (Receipt r : sink.received()) {
            Long before = last.put(r.device(), r.upTo());
            assertTrue(before == null || before < r.upTo(), "each device's receipts only go up: " + before + " then " + r.upTo());
        }
        assertEquals(Map.of("d0", (long) acks, "d1", (long) acks, "d2", (long) acks, "d3", (long) acks), last,
                "the last receipt of each device has its last ack");
    }
}
