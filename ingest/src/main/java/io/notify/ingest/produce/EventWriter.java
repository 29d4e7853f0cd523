package io.notify.ingest.produce;

import io.notify.common.http.OpsEndpoints.Readiness;
import io.notify.ingest.metrics.IngestMetrics;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.function.Supplier;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.header.Header;

/**
 * Writes events to {@code notify.events} with an idempotent {@code acks=all} producer and
 * completes each future only from Kafka's acknowledgement, so a caller that answers 202 on
 * completion never acknowledges an unwritten event.
 *
 * <p>Bounds: at most {@code maxInFlight} unacknowledged writes (beyond it: OVERLOADED, counted);
 * while the readiness probe says Kafka is unreachable, writes fail fast as UNAVAILABLE instead of
 * holding requests for the whole delivery timeout. {@link #write} may block for at most the
 * producer's {@code max.block.ms}; call it from a worker thread, never an I/O thread.
 */
public final class EventWriter implements AutoCloseable {

    private final Producer<String, byte[]> producer;
    private final String topic;
    private final int maxInFlight;
    private final Semaphore inFlight;
    private final Supplier<Readiness> kafkaReadiness;
    private final IngestMetrics metrics;

    public EventWriter(Producer<String, byte[]> producer, String topic, int maxInFlight,
                       Supplier<Readiness> kafkaReadiness, IngestMetrics metrics) {
        this.producer = producer;
        this.topic = topic;
        this.maxInFlight = maxInFlight;
        this.inFlight = new Semaphore(maxInFlight);
        this.kafkaReadiness = kafkaReadiness;
        this.metrics = metrics;
        metrics.gauge("notify.ingest.inflight", "Events handed to Kafka and not yet acknowledged", this::inFlight);
        metrics.gauge("notify.ingest.inflight.limit", "Bound on unacknowledged events", () -> maxInFlight);
    }

    public int inFlight() {
        return maxInFlight - inFlight.availablePermits();
    }

    /**
     * Sends one event keyed by {@code key} (its {@link io.notify.protocol.event.EventEnvelope#recordKey()}:
     * one key's events keep their send order); the future completes from Kafka's acknowledgement.
     */
    public CompletableFuture<Accepted> write(String id, String key, byte[] value, Iterable<Header> headers) {
        CompletableFuture<Accepted> result = new CompletableFuture<>();
        Readiness kafka = kafkaReadiness.get();
        if (!kafka.ready()) {
            result.completeExceptionally(new WriteFailedException(WriteFailedException.Kind.UNAVAILABLE,
                    "Kafka is unreachable: " + kafka.reason(), null));
            return result;
        }
        if (!inFlight.tryAcquire()) {
            result.completeExceptionally(new WriteFailedException(WriteFailedException.Kind.OVERLOADED,
                    "in-flight bound of " + maxInFlight + " events reached", null));
            return result;
        }
        long start = System.nanoTime();
        try {
            producer.send(new ProducerRecord<>(topic, null, key, value, headers), (md, error) -> {
                inFlight.release();
                if (error == null) {
                    metrics.produceLatency(System.nanoTime() - start);
                    result.complete(new Accepted(id, md.topic(), md.partition(), md.offset(), md.timestamp()));
                } else {
                    result.completeExceptionally(classify(error));
                }
            });
        } catch (KafkaException | IllegalStateException e) {
            // send() itself failed (metadata not available within max.block.ms, buffer full, closed):
            // the callback will not run, so the permit is ours to give back.
            inFlight.release();
            result.completeExceptionally(classify(e));
        }
        return result;
    }

    static WriteFailedException classify(Throwable error) {
        if (error instanceof RetriableException || error instanceof IllegalStateException
                || error instanceof org.apache.kafka.common.errors.TimeoutException) {
            return new WriteFailedException(WriteFailedException.Kind.UNAVAILABLE,
                    "Kafka did not acknowledge the write: " + error.getMessage(), error);
        }
        return new WriteFailedException(WriteFailedException.Kind.REJECTED,
                "Kafka rejected the write: " + error.getClass().getSimpleName() + ": " + error.getMessage(), error);
    }

    @Override
    public void close() {
        producer.close(java.time.Duration.ofSeconds(5));
    }
}
