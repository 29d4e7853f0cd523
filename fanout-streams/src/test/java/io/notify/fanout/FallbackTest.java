package io.notify.fanout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.notify.protocol.inbox.FallbackRecord;
import io.notify.protocol.inbox.Receipt;
import io.notify.protocol.inbox.ReceiptKind;
import io.notify.protocol.stream.StreamId;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.streams.KeyValue;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Offline fallback through the whole topology, on the driver's wall clock. */
class FallbackTest {

    static final StreamId U = StreamId.forUser("42");
    FanoutFixture f;

    @BeforeEach
    void open(@TempDir Path dir) {
        f = new FanoutFixture(dir);
    }

    @AfterEach
    void close() {
        f.close();
    }

    private void sendWithFallback(String id, String after, String... users) {
        StringBuilder to = new StringBuilder();
        for (String u : users) {
            to.append(to.length() == 0 ? "" : ",").append('"').append(u).append('"');
        }
        f.send(id, "{\"id\":\"" + id + "\",\"type\":\"order.shipped\",\"to\":{\"users\":[" + to + "],\"rooms\":[\"r1\"]},"
                + "\"fallback\":{\"after\":\"" + after + "\",\"channel\":\"push\"}}");
    }

    private List<KeyValue<StreamId, FallbackRecord>> fallbacks() {
        return f.output(f.topics.fallback()).readKeyValuesToList();
    }

    private double count(String outcome) {
        var c = f.metrics.registry().find("notify.fanout.fallback").tags("outcome", outcome).counter();
        return c == null ? 0 : c.count();
    }

    @Test
    void anEventNobodyAcknowledgedFallsBackOnceWhenDueAndNotBefore() {
        sendWithFallback("ev-1", "30s", "42", "43");
        f.advance(Duration.ofSeconds(29));
        assertEquals(List.of(), fallbacks(), "not due yet");
        f.advance(Duration.ofSeconds(2));
        List<KeyValue<StreamId, FallbackRecord>> out = fallbacks();
        assertEquals(2, out.size(), "one per user, none for the room: " + out);
        FallbackRecord r = out.stream().filter(kv -> kv.key.equals(U)).findFirst().orElseThrow().value;
        assertEquals("42", r.userId());
        assertEquals("push", r.channel());
        assertEquals(FallbackRecord.Reason.NO_DEVICE, r.reason());
        assertEquals("ev-1", r.event().id());
        assertEquals(r.event().sequencedAt() + 30_000, r.dueAt());
        assertTrue(r.at() - r.dueAt() <= 2_000, "decided within one check of its due time: " + (r.at() - r.dueAt()));
        f.advance(Duration.ofMinutes(5));
        assertEquals(List.of(), fallbacks(), "exactly one record per event and user");
        assertEquals(2, count("emitted_no_device"));
    }

    @Test
    void anAckOrAReadBeforeTheDueTimeCancelsIt() {
        sendWithFallback("acked", "10s", "42");
        sendWithFallback("read", "10s", "42");
        sendWithFallback("missed", "10s", "42");
        String epoch = f.heads().get(U).epoch();
        f.receipt(Receipt.ack(U, epoch, 1, "phone-1", 1));
        f.receipt(Receipt.markIds(U, ReceiptKind.READ, null, List.of("read"), "laptop", 2));
        f.advance(Duration.ofSeconds(11));
        List<KeyValue<StreamId, FallbackRecord>> out = fallbacks();
        assertEquals(1, out.size(), out.toString());
        FallbackRecord r = out.get(0).value;
        assertEquals("missed", r.event().id());
        assertEquals(FallbackRecord.Reason.NO_ACK, r.reason(), "a device exists, it did not acknowledge this one");
        assertEquals(List.of(new FallbackRecord.Device("phone-1", 1, 1)), r.devices());
        assertEquals(1, count("cancelled_ack"));
        assertEquals(1, count("cancelled_read"));
    }

    @Test
    void pendingFallbacksAreBounded(@TempDir Path other) {
        try (FanoutFixture small = new FanoutFixture(other, Map.of("notify.fanout.fallback.max-pending", "1"),
                io.notify.fanout.routing.NodeTopics.assumeAll())) {
            FanoutFixture saved = f;
            f = small;
            sendWithFallback("first", "10s", "42");
            sendWithFallback("second", "10s", "42");
            assertEquals(1, count("dropped_full"));
            f.advance(Duration.ofSeconds(11));
            assertEquals(List.of("first"), fallbacks().stream().map(kv -> kv.value.event().id()).toList());
            f = saved;
        }
    }
}
