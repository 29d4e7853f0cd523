package io.notify.ingest.produce;

/** Where Kafka stored an accepted event: the proof behind a {@code 202}. */
public record Accepted(String id, String topic, int partition, long offset, long timestamp) {
}
