package io.notify.schemas.publish;

import io.notify.schemas.validation.InvalidEventException;
import org.apache.kafka.common.errors.RetriableException;

/**
 * Why a publish failed, classified so the caller knows what to do:
 * <ul>
 *   <li>{@link #isInvalidEvent()}: the event breaks the v1 contract (cause: {@link InvalidEventException}
 *       with every violation); fix the event, never retry it as is;</li>
 *   <li>{@link #isRetriable()}: a transient Kafka condition outlasted the producer's own retries
 *       ({@code delivery.timeout.ms}) or its {@code max.block.ms}; publishing the same event again is
 *       safe, as Notify drops duplicates by event id;</li>
 *   <li>otherwise terminal (authorization, record too large, publisher closed...): retrying will
 *       fail the same way.</li>
 * </ul>
 * The Kafka exception is the cause.
 */
public final class PublishException extends RuntimeException {

    private final String eventId;
    private final String topic;
    private final boolean retriable;
    private final boolean invalidEvent;

    private PublishException(String eventId, String topic, boolean retriable, boolean invalidEvent, Throwable cause) {
        super((invalidEvent ? "invalid event " : retriable ? "retriable failure publishing event " : "failed to publish event ")
                + eventId + " to " + topic + ": " + (cause.getMessage() == null ? cause.getClass().getName() : cause.getMessage()), cause);
        this.eventId = eventId;
        this.topic = topic;
        this.retriable = retriable;
        this.invalidEvent = invalidEvent;
    }

    static PublishException invalid(String eventId, String topic, RuntimeException cause) {
        return new PublishException(eventId, topic, false, true, cause);
    }

    /** Classifies a failure reported by the producer (thrown by {@code send} or passed to its callback). */
    static PublishException classify(String eventId, String topic, Throwable cause) {
        return new PublishException(eventId, topic, cause instanceof RetriableException, false, cause);
    }

    public String eventId() {
        return eventId;
    }

    public String topic() {
        return topic;
    }

    public boolean isRetriable() {
        return retriable;
    }

    public boolean isInvalidEvent() {
        return invalidEvent;
    }
}
