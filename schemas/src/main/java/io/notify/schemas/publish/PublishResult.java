package io.notify.schemas.publish;

/**
 * Where an event landed: its id, and the topic, partition, offset and record timestamp (epoch ms)
 * the broker acknowledged with {@code acks=all}.
 */
public record PublishResult(String id, String topic, int partition, long offset, long timestamp) {
}
