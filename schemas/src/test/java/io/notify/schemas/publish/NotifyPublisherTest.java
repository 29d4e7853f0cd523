package io.notify.schemas.publish;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.notify.protocol.event.EventEnvelope;
import io.notify.schemas.topic.ProducerScope;
import io.notify.schemas.topic.Topic;
import io.notify.schemas.topic.TopicCatalog;
import io.notify.schemas.validation.InvalidEventException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Map;
import java.util.Queue;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.NotEnoughReplicasException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.junit.jupiter.api.Test;

class NotifyPublisherTest {

    private final TopicCatalog catalog = TopicCatalog.of("t-" + UUID.randomUUID().toString().substring(0, 8) + ".");
    private final Topic<String, EventEnvelope> topic = catalog.events();

    private MockProducer<String, EventEnvelope> mock(boolean autoComplete) {
        return new MockProducer<>(autoComplete, null, topic.keySerde().serializer(), topic.valueSerde().serializer());
    }

    private NotifyPublisher publisher(MockProducer<String, EventEnvelope> producer, Executor completions) {
        return new NotifyPublisher(producer, topic, completions, null, Duration.ofSeconds(1));
    }

    @Test
    void sendsValidEventsKeyedByTheFirstRecipientAndReportsWhereTheyLanded() throws Exception {
        MockProducer<String, EventEnvelope> producer = mock(true);
        try (NotifyPublisher publisher = publisher(producer, Runnable::run)) {
            EventEnvelope event = EventEnvelope.durable("order.shipped", JsonNodeFactory.instance.objectNode().put("n", 1), "42");
            PublishResult result = publisher.publish(event).get(5, TimeUnit.SECONDS);
            assertEquals(1, producer.history().size());
            ProducerRecord<String, EventEnvelope> sent = producer.history().get(0);
            assertEquals(topic.name(), sent.topic());
            assertEquals("u:42", sent.key(), "keyed by the first recipient, so one user's events keep their order");
            assertEquals(event, sent.value());
            assertEquals(event.id(), result.id());
            assertEquals(topic.name(), result.topic());
            assertEquals(0, result.offset());
            assertEquals(1, publisher.publish(event.withId("second")).get(5, TimeUnit.SECONDS).offset());
        }
        assertTrue(producer.closed());
    }

    @Test
    void aNamedPublisherScopesItsIdsByTheProducerHeader_anUnnamedOneSendsNone() throws Exception {
        MockProducer<String, EventEnvelope> producer = mock(true);
        EventEnvelope event = EventEnvelope.durable("order.shipped", null, "42");
        try (NotifyPublisher named = new NotifyPublisher(producer, topic, Runnable::run, null, Duration.ofSeconds(1), "orders");
             NotifyPublisher unnamed = publisher(producer, Runnable::run)) {
            named.publish(event).get(5, TimeUnit.SECONDS);
            unnamed.publish(event).get(5, TimeUnit.SECONDS);
        }
        assertEquals("orders", ProducerScope.of(producer.history().get(0).headers()));
        assertEquals(ProducerScope.DIRECT, ProducerScope.of(producer.history().get(1).headers()));
        assertNotNull(producer.history().get(1).headers().lastHeader(io.notify.schemas.validation.EventValidator.VALIDATED_HEADER));
    }

    @Test
    void invalidEventsAreRejectedBeforeSending() {
        MockProducer<String, EventEnvelope> producer = mock(true);
        NotifyPublisher publisher = publisher(producer, Runnable::run);
        String big = "x".repeat(EventEnvelope.MAX_DATA_BYTES);
        EventEnvelope tooBig = EventEnvelope.durable("a", JsonNodeFactory.instance.objectNode().put("s", big), "1");
        PublishException e = failure(publisher.publish(tooBig));
        assertTrue(e.isInvalidEvent());
        assertFalse(e.isRetriable());
        assertEquals(tooBig.id(), e.eventId());
        InvalidEventException cause = assertInstanceOf(InvalidEventException.class, e.getCause());
        assertEquals("/data", cause.violations().get(0).pointer());
        assertTrue(failure(publisher.publish(null)).isInvalidEvent());
        assertEquals(0, producer.history().size());
    }

    @Test
    void kafkaFailuresAreClassified() {
        MockProducer<String, EventEnvelope> producer = mock(false);
        NotifyPublisher publisher = publisher(producer, Runnable::run);
        CompletableFuture<PublishResult> timeout = publisher.publish(EventEnvelope.durable("a", null, "1"));
        CompletableFuture<PublishResult> replicas = publisher.publish(EventEnvelope.durable("a", null, "1"));
        CompletableFuture<PublishResult> tooLarge = publisher.publish(EventEnvelope.durable("a", null, "1"));
        CompletableFuture<PublishResult> denied = publisher.publish(EventEnvelope.durable("a", null, "1"));
        assertFalse(timeout.isDone());
        producer.errorNext(new TimeoutException("expired after delivery.timeout.ms"));
        producer.errorNext(new NotEnoughReplicasException("isr too small"));
        producer.errorNext(new RecordTooLargeException("too large"));
        producer.errorNext(new TopicAuthorizationException("denied"));
        assertRetriable(true, timeout);
        assertRetriable(true, replicas);
        assertRetriable(false, tooLarge);
        assertRetriable(false, denied);
        assertInstanceOf(TimeoutException.class, failure(timeout).getCause());
        assertTrue(failure(timeout).getMessage().contains(topic.name()), failure(timeout).getMessage());
    }

    @Test
    void synchronousSendFailuresCompleteTheFutureInsteadOfThrowing() {
        MockProducer<String, EventEnvelope> producer = mock(true);
        NotifyPublisher publisher = publisher(producer, Runnable::run);
        producer.sendException = new TimeoutException("metadata not available after max.block.ms");
        assertRetriable(true, publisher.publish(EventEnvelope.durable("a", null, "1")));
        producer.sendException = null;
        publisher.close();
        PublishException closed = failure(publisher.publish(EventEnvelope.durable("a", null, "1")));
        assertFalse(closed.isRetriable());
        assertFalse(closed.isInvalidEvent());
    }

    @Test
    void futuresCompleteOnTheCompletionExecutorNotTheKafkaThread() {
        Queue<Runnable> queued = new ArrayDeque<>();
        MockProducer<String, EventEnvelope> producer = mock(true);
        NotifyPublisher publisher = publisher(producer, queued::add);
        CompletableFuture<PublishResult> f = publisher.publish(EventEnvelope.durable("a", null, "1"));
        assertFalse(f.isDone(), "completed on the producer's callback thread");
        assertEquals(1, queued.size());
        queued.poll().run();
        assertTrue(f.isDone() && !f.isCompletedExceptionally());
    }

    @Test
    void idempotenceAndAcksAllAreForced() {
        Map<String, Object> cfg = NotifyPublisher.builder().bootstrapServers("localhost:9092").producerConfig();
        assertEquals(true, cfg.get(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG));
        assertEquals("all", cfg.get(ProducerConfig.ACKS_CONFIG));
        assertEquals(5000L, cfg.get(ProducerConfig.MAX_BLOCK_MS_CONFIG));
        Map<String, Object> same = NotifyPublisher.builder().bootstrapServers("b:1").property("acks", "-1")
                .property("enable.idempotence", "true").maxBlock(Duration.ofMillis(750)).producerConfig();
        assertEquals("all", same.get(ProducerConfig.ACKS_CONFIG));
        assertEquals(750L, same.get(ProducerConfig.MAX_BLOCK_MS_CONFIG));
    }

    @Test
    void contradictoryPropertiesFailNamingTheKey() {
        assertBuildFails("acks", NotifyPublisher.builder().bootstrapServers("b:1").property("acks", "1"));
        assertBuildFails("enable.idempotence", NotifyPublisher.builder().bootstrapServers("b:1").property("enable.idempotence", false));
        assertBuildFails("value.serializer", NotifyPublisher.builder().bootstrapServers("b:1")
                .property("value.serializer", "org.apache.kafka.common.serialization.StringSerializer"));
        assertBuildFails("transactional.id", NotifyPublisher.builder().bootstrapServers("b:1").property("transactional.id", "x"));
        assertBuildFails("bootstrap.servers", NotifyPublisher.builder());
        assertThrows(IllegalArgumentException.class, () -> NotifyPublisher.builder().maxBlock(Duration.ofMillis(-1)));
    }

    @Test
    void builderTakesTheTopicCatalog() {
        assertEquals("p1.notify.events", NotifyPublisher.builder().topicPrefix("p1.").topics().events().name());
        assertEquals("notify.events", NotifyPublisher.builder().topics().events().name());
    }

    private static void assertBuildFails(String key, NotifyPublisherBuilder builder) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, builder::producerConfig);
        assertTrue(e.getMessage().startsWith(key), e.getMessage());
    }

    private static void assertRetriable(boolean retriable, CompletableFuture<PublishResult> f) {
        assertEquals(retriable, failure(f).isRetriable(), failure(f).getMessage());
    }

    private static PublishException failure(CompletableFuture<PublishResult> f) {
        CompletionException e = assertThrows(CompletionException.class, f::join);
        return assertInstanceOf(PublishException.class, e.getCause());
    }
}
