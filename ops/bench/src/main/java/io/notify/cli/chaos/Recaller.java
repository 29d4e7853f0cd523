package io.notify.cli.chaos;

import io.notify.protocol.NotifyJson;
import io.notify.protocol.event.EventEnvelope;
import io.notify.protocol.event.Recall;
import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Takes back events of the {@link SteadyProducer} as a direct producer does (docs/protocol.md,
 * "Recall"): a recall record by id, {@code {"id":"rc-<id>","recall":{"id":"<id>"},"to":<the event's>}},
 * on {@code notify.events} with the event's record key (so it is sequenced after the event), without
 * a {@code notify.producer} header (the producer scope of a {@code NotifyPublisher} built without a
 * producer name). Each recall is sent {@code after} the event's acknowledgment, on the producer's
 * timer; a retriable failure is sent again (a second recall finds nothing left to take) until
 * {@code retryForNanos} after the first try. Tells the {@link Verifier} of each acknowledged recall.
 */
final class Recaller implements AutoCloseable {

    private static final long RETRY_DELAY_MS = 250;

    private final KafkaProducer<String, byte[]> producer;
    private final String topic;
    private final Verifier verifier;
    private final ScheduledExecutorService timer;
    private final Duration after;
    private final long retryForNanos;
    private final AtomicLong pending = new AtomicLong();

    Recaller(String bootstrap, String topic, Verifier verifier, ScheduledExecutorService timer, Duration after,
             long retryForNanos) {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ProducerConfig.CLIENT_ID_CONFIG, "chaos-recaller");
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 5_000);
        p.put(ProducerConfig.LINGER_MS_CONFIG, 5);
        this.producer = new KafkaProducer<>(p, new StringSerializer(), new ByteArraySerializer());
        this.topic = topic;
        this.verifier = verifier;
        this.timer = timer;
        this.after = after;
        this.retryForNanos = retryForNanos;
    }

    /** Recalls the acknowledged event {@code e} {@code after} from now. */
    void recallLater(EventEnvelope e) {
        byte[] value;
        try {
            value = NotifyJson.mapper().writeValueAsBytes(new Recall("rc-" + e.id(), Recall.Target.event(e.id()), e.to()));
        } catch (Exception ex) {
            throw new IllegalStateException("cannot write the recall of " + e.id(), ex);
        }
        ProducerRecord<String, byte[]> record = new ProducerRecord<>(topic, e.recordKey(), value);
        pending.incrementAndGet(); // a refused schedule takes it back: nothing left pending for the settle wait
        try {
            timer.schedule(() -> send(e.id(), record, System.nanoTime()), after.toMillis(), TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException closed) {
            pending.decrementAndGet();
            verifier.publishFailed();
        }
    }

    private void send(String eventId, ProducerRecord<String, byte[]> record, long firstNanos) {
        try {
            producer.send(record, (metadata, failure) -> {
                if (failure == null) {
                    verifier.recallSent(eventId);
                    pending.decrementAndGet();
                } else {
                    failed(eventId, record, firstNanos, failure);
                }
            });
        } catch (RuntimeException ex) { // not queued (metadata not within max.block.ms, closed)
            failed(eventId, record, firstNanos, ex);
        }
    }

    private void failed(String eventId, ProducerRecord<String, byte[]> record, long firstNanos, Exception failure) {
        if (failure instanceof RetriableException && System.nanoTime() - firstNanos < retryForNanos) {
            try {
                timer.schedule(() -> send(eventId, record, firstNanos), RETRY_DELAY_MS, TimeUnit.MILLISECONDS);
                return;
            } catch (RejectedExecutionException closed) {
                // the run is over: given up
            }
        }
        verifier.publishFailed();
        pending.decrementAndGet();
    }

    /** Recalls scheduled or sent and not acknowledged yet. */
    long pending() {
        return pending.get();
    }

    @Override
    public void close() {
        producer.close(Duration.ofSeconds(5));
    }
}
