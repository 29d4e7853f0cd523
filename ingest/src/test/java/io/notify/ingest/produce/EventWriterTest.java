package io.notify.ingest.produce;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.notify.common.http.OpsEndpoints.Readiness;
import io.notify.ingest.metrics.IngestMetrics;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.common.errors.NotEnoughReplicasException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

class EventWriterTest {

    private final MockProducer<String, byte[]> producer =
            new MockProducer<>(false, null, new StringSerializer(), new ByteArraySerializer());
    private final AtomicReference<Readiness> kafka = new AtomicReference<>(Readiness.up());
    private final EventWriter writer = new EventWriter(producer, "t.events", 2, kafka::get,
            new IngestMetrics(new SimpleMeterRegistry()));

    private static WriteFailedException failure(CompletableFuture<?> f) {
        try {
            f.join();
            throw new AssertionError("expected a failure");
        } catch (CompletionException e) {
            return assertInstanceOf(WriteFailedException.class, e.getCause());
        }
    }

    @Test
    void completesOnlyWhenKafkaAcknowledgesAndKeysByTheGivenKey() {
        CompletableFuture<Accepted> f = writer.write("ev-1", "u:1", new byte[] {1}, List.of());
        assertFalse(f.isDone());
        assertEquals(1, writer.inFlight());
        producer.completeNext();
        Accepted a = f.join();
        assertEquals("ev-1", a.id());
        assertEquals("t.events", a.topic());
        assertEquals("u:1", producer.history().get(0).key());
        assertEquals(0, writer.inFlight());
    }

    @Test
    void inFlightBoundRejectsWithOverloadedAndFreesOnCompletion() {
        writer.write("a", "u:1", new byte[0], List.of());
        writer.write("b", "u:1", new byte[0], List.of());
        WriteFailedException e = failure(writer.write("c", "u:1", new byte[0], List.of()));
        assertEquals(WriteFailedException.Kind.OVERLOADED, e.kind());
        assertTrue(e.retriable());
        producer.completeNext();
        CompletableFuture<Accepted> d = writer.write("d", "u:1", new byte[0], List.of());
        producer.completeNext();
        producer.completeNext();
        assertEquals("d", d.join().id());
    }

    @Test
    void failuresAreClassifiedAndReleaseTheirPermit() {
        CompletableFuture<Accepted> retriable = writer.write("a", "u:1", new byte[0], List.of());
        producer.errorNext(new NotEnoughReplicasException("isr"));
        assertEquals(WriteFailedException.Kind.UNAVAILABLE, failure(retriable).kind());
        CompletableFuture<Accepted> terminal = writer.write("b", "u:1", new byte[0], List.of());
        producer.errorNext(new RecordTooLargeException("big"));
        assertEquals(WriteFailedException.Kind.REJECTED, failure(terminal).kind());
        assertEquals(0, writer.inFlight());
    }

    @Test
    void failsFastWhileKafkaIsUnreachable() {
        kafka.set(Readiness.down("broker gone"));
        WriteFailedException e = failure(writer.write("a", "u:1", new byte[0], List.of()));
        assertEquals(WriteFailedException.Kind.UNAVAILABLE, e.kind());
        assertTrue(e.getMessage().contains("broker gone"));
        assertTrue(producer.history().isEmpty());
    }
}
