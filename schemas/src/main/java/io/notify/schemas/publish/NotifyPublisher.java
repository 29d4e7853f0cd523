package io.notify.schemas.publish;

import io.notify.protocol.NotifyJson;
import io.notify.protocol.event.EventEnvelope;
import io.notify.schemas.topic.ProducerScope;
import io.notify.schemas.topic.Topic;
import io.notify.schemas.validation.EventValidator;
import io.notify.schemas.validation.InvalidEventException;
import io.notify.schemas.validation.Violation;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;

/**
 * Publishes events straight to {@code notify.events} from a business service.
 *
 * <p>Guarantees: every event sent is valid v1 (the envelope's constructor plus
 * {@link EventValidator} for the rules a record cannot hold, such as the 64 KiB data bound); the
 * record key is {@link EventEnvelope#recordKey()} (the first recipient), so events to one user are
 * sequenced in the order they were published and retries of one event land in one partition,
 * where Notify dedups them; the producer is idempotent with {@code acks=all}; {@link #publish} never throws and blocks
 * the caller at most {@code max.block.ms} (metadata, full buffer), and its future completes on the
 * publisher's completion executor, never on the Kafka I/O thread, so slow callbacks cannot stall
 * sending. Thread-safe: share one per process. Build with {@link #builder()}.
 */
public final class NotifyPublisher implements AutoCloseable {

    private final Producer<String, EventEnvelope> producer;
    private final Topic<String, EventEnvelope> topic;
    private final Executor completions;
    private final ExecutorService ownedCompletions;
    private final Duration closeTimeout;
    private final List<Header> headers;
    private final EventValidator validator = EventValidator.v1();

    /** For tests and the builder: the collaborators, explicitly. {@code ownedCompletions} is shut down on close. */
    NotifyPublisher(Producer<String, EventEnvelope> producer, Topic<String, EventEnvelope> topic, Executor completions,
                    ExecutorService ownedCompletions, Duration closeTimeout) {
        this(producer, topic, completions, ownedCompletions, closeTimeout, null);
    }

    /** As above; {@code producerName} (null: none) scopes the events' ids ({@link ProducerScope}). */
    NotifyPublisher(Producer<String, EventEnvelope> producer, Topic<String, EventEnvelope> topic, Executor completions,
                    ExecutorService ownedCompletions, Duration closeTimeout, String producerName) {
        this.headers = producerName == null ? VALIDATED : List.of(VALIDATED.get(0),
                new RecordHeader(ProducerScope.HEADER, producerName.getBytes(StandardCharsets.UTF_8)));
        this.producer = Objects.requireNonNull(producer, "producer");
        this.topic = Objects.requireNonNull(topic, "topic");
        this.completions = Objects.requireNonNull(completions, "completions");
        this.ownedCompletions = ownedCompletions;
        this.closeTimeout = Objects.requireNonNull(closeTimeout, "closeTimeout");
    }

    public static NotifyPublisherBuilder builder() {
        return new NotifyPublisherBuilder();
    }

    /** The topic this publisher writes to. */
    public Topic<String, EventEnvelope> topic() {
        return topic;
    }

    /**
     * Validates and sends one event. The future completes with where it landed, or exceptionally
     * with a {@link PublishException} that says whether a retry can help.
     */
    public CompletableFuture<PublishResult> publish(EventEnvelope event) {
        CompletableFuture<PublishResult> result = new CompletableFuture<>();
        if (event == null) {
            result.completeExceptionally(PublishException.invalid(null, topic.name(),
                    new IllegalArgumentException("event is required")));
            return result;
        }
        List<Violation> violations = validator.validate(NotifyJson.mapper().valueToTree(event));
        if (!violations.isEmpty()) {
            result.completeExceptionally(PublishException.invalid(event.id(), topic.name(), new InvalidEventException(violations)));
            return result;
        }
        try {
            producer.send(new ProducerRecord<>(topic.name(), null, event.recordKey(), event, headers),
                    (metadata, error) -> completeLater(result, event.id(), metadata, error));
        } catch (RuntimeException e) {
            // Thrown before the record was queued (closed producer, serialization, interrupt): report it the same way.
            result.completeExceptionally(PublishException.classify(event.id(), topic.name(), e));
        }
        return result;
    }

    /** Says the event was validated here, so fan-out binds it without a second schema pass (immutable, shared). */
    private static final List<Header> VALIDATED = List.of(new RecordHeader(EventValidator.VALIDATED_HEADER,
            EventValidator.VALIDATED_VALUE.getBytes(StandardCharsets.UTF_8)));

    /** Blocks until every event sent so far is acknowledged or failed. For shutdown paths and tests. */
    public void flush() {
        producer.flush();
    }

    /** Sends what is buffered, waiting at most the close timeout, then stops; pending futures still complete. */
    @Override
    public void close() {
        try {
            producer.close(closeTimeout);
        } finally {
            if (ownedCompletions != null) {
                ownedCompletions.shutdown();
                try {
                    ownedCompletions.awaitTermination(closeTimeout.toMillis(), TimeUnit.MILLISECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }
    }

    private void completeLater(CompletableFuture<PublishResult> result, String id, RecordMetadata metadata, Exception error) {
        Runnable completion = () -> {
            if (error != null) {
                result.completeExceptionally(PublishException.classify(id, topic.name(), error));
            } else {
                result.complete(new PublishResult(id, metadata.topic(), metadata.partition(), metadata.offset(),
                        metadata.timestamp()));
            }
        };
        try {
            completions.execute(completion);
        } catch (RejectedExecutionException e) {
            completion.run(); // executor already shut down: completing here beats never completing
        }
    }
}
