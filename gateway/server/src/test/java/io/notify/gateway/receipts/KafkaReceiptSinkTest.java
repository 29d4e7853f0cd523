package io.notify.gateway.receipts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.notify.devstack.Await;
import io.notify.gateway.support.TestConfig;
import io.notify.protocol.inbox.Receipt;
import io.notify.protocol.inbox.ReceiptKind;
import io.notify.protocol.stream.StreamId;
import io.notify.schemas.serde.NotifySerdes;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.junit.jupiter.api.Test;

/** The receipts producer: its settings, the hand-over off the caller's thread, and completion from the broker's answer. */
class KafkaReceiptSinkTest {

    private static final StreamId U = StreamId.forUser("42");

    private final MockProducer<StreamId, Receipt> producer = new MockProducer<>(false, null,
            NotifySerdes.streamId().serializer(), NotifySerdes.receipt().serializer());

    @Test
    void theProducerIsIdempotentWithAcksAllAndTheProduceTimeout() {
        Map<String, Object> p = KafkaReceiptSink.producerProps(TestConfig.with(Map.of("notify.gateway.inbox.produce-timeout", "4s")));
        assertEquals(true, p.get(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG));
        assertEquals("all", p.get(ProducerConfig.ACKS_CONFIG));
        assertEquals(4000L, p.get(ProducerConfig.MAX_BLOCK_MS_CONFIG));
        assertEquals(4000, p.get(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG));
        assertEquals("notify-gateway-gw-test-receipts", p.get(ProducerConfig.CLIENT_ID_CONFIG));
        Map<String, Object> shortest = KafkaReceiptSink.producerProps(
                TestConfig.with(Map.of("notify.gateway.inbox.produce-timeout", "100ms")));
        assertTrue((int) shortest.get(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG)
                >= (int) shortest.get(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG) + (int) shortest.get(ProducerConfig.LINGER_MS_CONFIG),
                "Kafka refuses a delivery timeout below linger + request timeout");
    }

    @Test
    void aReceiptIsDoneWhenTheBrokerAcknowledgesItAndFailsWhenItRefuses() throws Exception {
        KafkaReceiptSink sink = new KafkaReceiptSink(() -> producer, "p-notify.receipts", Duration.ofSeconds(1));
        sink.start();
        Receipt read = Receipt.markUpTo(U, ReceiptKind.READ, "ep1", 17, "phone", 1000);
        Receipt seen = Receipt.markIds(U, ReceiptKind.SEEN, null, List.of("ord-1"), null, 1001);
        List<CompletionStage<Void>> sent = sink.sendAll(List.of(read, seen));
        Await.until("both handed to the producer", Duration.ofSeconds(5), () -> producer.history().size() == 2);
        assertEquals("p-notify.receipts", producer.history().get(0).topic());
        assertEquals(U, producer.history().get(0).key(), "keyed by the stream");
        assertEquals(List.of(read, seen), producer.history().stream().map(r -> r.value()).toList(), "in hand-over order");
        assertFalse(sent.get(0).toCompletableFuture().isDone(), "not done before the broker answers");

        producer.completeNext();
        producer.errorNext(new org.apache.kafka.common.errors.TimeoutException("no ack"));
        assertEquals(null, sent.get(0).toCompletableFuture().get(5, TimeUnit.SECONDS));
        ExecutionException failed = org.junit.jupiter.api.Assertions.assertThrows(ExecutionException.class,
                () -> sent.get(1).toCompletableFuture().get(5, TimeUnit.SECONDS));
        assertInstanceOf(org.apache.kafka.common.errors.TimeoutException.class, failed.getCause());
        sink.close();
    }

    @Test
    void noProducerBeforeTheNodeStarts_andAfterCloseASendFailsAtOnce() throws Exception {
        List<MockProducer<StreamId, Receipt>> made = new java.util.ArrayList<>();
        KafkaReceiptSink sink = new KafkaReceiptSink(() -> {
            MockProducer<StreamId, Receipt> p = new MockProducer<>(true, null, NotifySerdes.streamId().serializer(),
                    NotifySerdes.receipt().serializer());
            made.add(p);
            return p;
        }, "t", Duration.ofSeconds(1));
        assertTrue(made.isEmpty(), "a node made and never started makes no producer");
        ExecutionException early = org.junit.jupiter.api.Assertions.assertThrows(ExecutionException.class,
                () -> sink.send(Receipt.ack(U, null, 1, "d", 1)).toCompletableFuture().get(5, TimeUnit.SECONDS));
        assertInstanceOf(IllegalStateException.class, early.getCause());
        sink.start();
        assertEquals(null, sink.send(Receipt.ack(U, null, 2, "d", 2)).toCompletableFuture().get(5, TimeUnit.SECONDS));
        sink.close();
        assertTrue(made.get(0).closed(), "closed with the sink");
        sink.close(); // idempotent
        CompletableFuture<Void> late = sink.send(Receipt.ack(U, null, 1, "d", 1)).toCompletableFuture();
        assertTrue(late.isCompletedExceptionally());
    }
}
