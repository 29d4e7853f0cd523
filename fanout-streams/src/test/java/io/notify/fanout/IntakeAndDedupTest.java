package io.notify.fanout;

import static io.notify.fanout.FanoutFixture.durable;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.notify.fanout.dedup.DedupProcessor;
import io.notify.protocol.event.EventEnvelope;
import io.notify.protocol.stream.SequencedEvent;
import io.notify.protocol.stream.StreamId;
import io.notify.schemas.topic.DlqFailure;
import io.notify.schemas.topic.DlqHeaders;
import io.notify.schemas.topic.ProducerScope;
import io.notify.schemas.validation.EventValidator;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Steps 1–2: validation, the DLQ, ids taken from keys, and dedup. */
class IntakeAndDedupTest extends TopologyTest {

    @BeforeEach
    void startFixture() {
        start();
    }

    @Test
    void aDuplicateIdProducesOneOutputUntilTheWindowHasPassed() {
        f.sendDurable("ord-1", "42");
        f.advance(Duration.ofHours(1));
        f.sendDurable("ord-1", "42");
        f.advance(Duration.ofHours(22));
        f.sendDurable("ord-1", "42");

        List<KeyValue<StreamId, SequencedEvent>> log = f.streamLog();
        assertEquals(1, log.size());
        assertEquals("ord-1", log.get(0).value.id());
        assertEquals(1, log.get(0).value.seq());
        assertEquals(2.0, f.metrics.count("notify.fanout.dedup.hits"));

        f.advance(Duration.ofHours(25)); // 48 h after the first sighting: outside the 24 h window
        f.sendDurable("ord-1", "42");
        assertEquals(List.of(2L), f.streamLog().stream().map(kv -> kv.value.seq()).toList());
    }

    private static RecordHeaders producer(String name) {
        RecordHeaders h = new RecordHeaders();
        h.add(ProducerScope.HEADER, name.getBytes(StandardCharsets.UTF_8));
        return h;
    }

    @Test
    void equalIdsOfTwoProducersAreTwoEvents_andAReusedIdGoesToTheDlqNotSilentlyAway() {
        byte[] key = "ord-7".getBytes(StandardCharsets.UTF_8);
        byte[] first = durable("ord-7", "42").getBytes(StandardCharsets.UTF_8);
        f.send(key, first, producer("orders"));
        f.send(key, first, producer("billing")); // another producer's ord-7: its own event
        f.send(key, first, producer("orders")); // a retry: dropped as a duplicate
        byte[] other = durable("ord-7", "43").getBytes(StandardCharsets.UTF_8);
        f.advance(Duration.ofHours(2));
        f.send(key, other, producer("orders")); // the same id for another event, within the window

        assertEquals(List.of(1L, 2L), f.streamLog().stream().map(kv -> kv.value.seq()).toList(),
                "orders' and billing's ord-7, each once");
        assertEquals(1.0, f.metrics.count("notify.fanout.dedup.hits"));
        TestRecord<byte[], byte[]> dead = f.dlq().readRecord();
        assertArrayEquals(key, dead.key());
        assertArrayEquals(other, dead.value(), "the reused id's event, byte for byte");
        DlqFailure failure = DlqFailure.readFrom(dead.headers()).orElseThrow();
        assertEquals(DedupProcessor.KIND_DUPLICATE_ID, failure.kind());
        assertTrue(failure.error().contains("'ord-7'"), failure.error());
        assertEquals(3L, failure.sourceOffset());
        assertEquals(1.0, f.metrics.count("notify.fanout.dlq", "kind", DedupProcessor.KIND_DUPLICATE_ID));
        assertTrue(f.dlq().isEmpty());
    }

    @Test
    void anIdRememberedBeforeDigestsCountsAsTheSameEvent() {
        // a value written by the previous version: the first-seen timestamp, 8 bytes
        f.driver.<String, byte[]>getWindowStore(DedupProcessor.STORE)
                .put(ProducerScope.key(ProducerScope.DIRECT, "old-1"), new byte[8], FanoutFixture.START.toEpochMilli());
        f.sendDurable("old-1", "42");
        assertTrue(f.streamLog().isEmpty());
        assertTrue(f.dlq().isEmpty());
        assertEquals(1.0, f.metrics.count("notify.fanout.dedup.hits"));
    }

    @Test
    void anInvalidRecordGoesToTheDlqByteForByteWithReasonHeadersAndTheStreamKeepsGoing() {
        byte[] key = "k-1".getBytes(StandardCharsets.UTF_8);
        byte[] value = "{\"id\":\"bad-1\",\"to\":{\"users\":[\"42\"]}}".getBytes(StandardCharsets.UTF_8);
        RecordHeaders headers = new RecordHeaders();
        headers.add("traceparent", "00-abc".getBytes(StandardCharsets.UTF_8));
        f.send(key, value, headers);
        f.sendDurable("ok-1", "42");

        TestRecord<byte[], byte[]> dead = f.dlq().readRecord();
        assertArrayEquals(key, dead.key());
        assertArrayEquals(value, dead.value());
        DlqFailure failure = DlqFailure.readFrom(dead.headers()).orElseThrow();
        assertEquals(DlqHeaders.KIND_SCHEMA, failure.kind());
        assertEquals("invalid event: /type: is required", failure.error());
        assertEquals("t.notify.events", failure.sourceTopic());
        assertEquals(0, failure.sourcePartition());
        assertEquals(0L, failure.sourceOffset());
        assertEquals(FanoutFixture.START, failure.failedAt());
        assertArrayEquals("00-abc".getBytes(StandardCharsets.UTF_8), dead.headers().lastHeader("traceparent").value());

        assertEquals(List.of("ok-1"), f.streamLog().stream().map(kv -> kv.value.id()).toList());
        assertEquals(1.0, f.metrics.count("notify.fanout.dlq", "kind", "schema"));
        assertEquals(2.0, f.metrics.count("notify.fanout.records.in"));
    }

    @Test
    void anEventValidatedAtTheEdgeSkipsTheSchemaPassButStillHasToBind() {
        RecordHeaders validated = new RecordHeaders();
        validated.add(EventValidator.VALIDATED_HEADER, EventValidator.VALIDATED_VALUE.getBytes(StandardCharsets.UTF_8));
        // Over the 64 KiB data bound only the schema pass enforces: trusted from the edge that set the header.
        String big = "{\"id\":\"big-1\",\"type\":\"t\",\"to\":{\"users\":[\"42\"]},\"data\":{\"x\":\""
                + "y".repeat(EventEnvelope.MAX_DATA_BYTES) + "\"}}";
        f.send("u:42".getBytes(StandardCharsets.UTF_8), big.getBytes(StandardCharsets.UTF_8), validated);
        // A field the envelope does not have still fails binding, header or not.
        byte[] unknown = "{\"id\":\"odd-1\",\"type\":\"t\",\"to\":{\"users\":[\"42\"]},\"color\":\"red\"}"
                .getBytes(StandardCharsets.UTF_8);
        f.send("u:42".getBytes(StandardCharsets.UTF_8), unknown, validated);
        // Without the header the same oversized event is refused by the schema pass.
        f.send("u:42".getBytes(StandardCharsets.UTF_8), big.replace("big-1", "big-2").getBytes(StandardCharsets.UTF_8));

        assertEquals(List.of("big-1"), f.streamLog().stream().map(kv -> kv.value.id()).toList());
        List<TestRecord<byte[], byte[]>> dead = f.dlq().readRecordsToList();
        assertEquals(2, dead.size());
        assertArrayEquals(unknown, dead.get(0).value());
        assertEquals(DlqHeaders.KIND_SCHEMA, DlqFailure.readFrom(dead.get(1).headers()).orElseThrow().kind());
    }

    @Test
    void undeserializableBytesGoToTheDlqAsDeserializationFailures() {
        byte[] notUtf8 = {(byte) 0xff, (byte) 0xfe, 'x'};
        byte[] notAnObject = "[1,2]".getBytes(StandardCharsets.UTF_8);
        f.send(null, notUtf8);
        f.send("k".getBytes(StandardCharsets.UTF_8), notAnObject);
        f.send("k2".getBytes(StandardCharsets.UTF_8), null);
        f.sendDurable("ok-2", "42");

        List<TestRecord<byte[], byte[]>> dead = f.dlq().readRecordsToList();
        assertEquals(3, dead.size());
        assertNull(dead.get(0).key());
        assertArrayEquals(notUtf8, dead.get(0).value());
        assertArrayEquals(notAnObject, dead.get(1).value());
        assertNull(dead.get(2).value());
        for (int i = 0; i < 3; i++) {
            DlqFailure failure = DlqFailure.readFrom(dead.get(i).headers()).orElseThrow();
            assertEquals(DlqHeaders.KIND_DESERIALIZATION, failure.kind());
            assertEquals(i, failure.sourceOffset());
        }
        assertTrue(DlqFailure.readFrom(dead.get(1).headers()).orElseThrow().error().contains("expected a JSON object, got array"));
        assertEquals(List.of("ok-2"), f.streamLog().stream().map(kv -> kv.value.id()).toList());
        assertEquals(3.0, f.metrics.count("notify.fanout.dlq", "kind", "deserialization"));
    }

    @Test
    void aValueWithoutIdTakesTheRecordKeyWhenItIsAValidEventId() {
        f.send("ord-7", durable(null, "42"));
        List<KeyValue<StreamId, SequencedEvent>> log = f.streamLog();
        assertEquals(1, log.size());
        assertEquals("ord-7", log.get(0).value.id());

        f.send("ord-7", durable(null, "42")); // the same key again is a duplicate of that id
        assertEquals(0, f.streamLog().size());
    }

    @Test
    void aValueWithoutIdAndWithoutAUsableKeyIsRejected() {
        f.send("not a valid id", durable(null, "42"));
        f.send((String) null, durable(null, "42"));

        List<TestRecord<byte[], byte[]>> dead = f.dlq().readRecordsToList();
        assertEquals(2, dead.size());
        for (TestRecord<byte[], byte[]> r : dead) {
            DlqFailure failure = DlqFailure.readFrom(r.headers()).orElseThrow();
            assertEquals(DlqHeaders.KIND_SCHEMA, failure.kind());
            assertEquals("invalid event: /id: is required when the record key is not a valid event id", failure.error());
        }
        assertEquals(0, f.streamLog().size());
    }
}
