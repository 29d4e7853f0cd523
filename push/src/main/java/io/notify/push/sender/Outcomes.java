package io.notify.push.sender;

import io.notify.protocol.inbox.FallbackRecord;
import io.notify.protocol.push.PushChange;
import io.notify.protocol.push.PushOutcome;
import io.notify.protocol.stream.StreamId;
import io.notify.schemas.serde.NotifySerdes;
import io.notify.schemas.topic.DlqFailure;
import io.notify.schemas.topic.TopicCatalog;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.header.internals.RecordHeaders;

/**
 * Where the sender writes what it did, through one idempotent {@code acks=all} producer
 * (docs/push.md, "Outcomes"): one {@link PushOutcome} per attempt on {@code notify.push-outcomes};
 * a {@code gone} {@link PushChange} on {@code notify.push-changes} when a provider says a
 * registration no longer exists (fanout-streams removes it); and for what cannot be sent, the
 * fallback record narrowed to the one registration on {@code notify.push.dlq}, with
 * {@link DlqFailure} headers (kind: the outcome) and {@value #REGISTRATION_HEADER}. Every record is
 * keyed by the user's stream. Each stage completes when the broker acknowledged the record. Thread-safe.
 */
final class Outcomes {

    static final String REGISTRATION_HEADER = "notify.push.registration";

    private final Producer<byte[], byte[]> producer;
    private final TopicCatalog topics;

    Outcomes(Producer<byte[], byte[]> producer, TopicCatalog topics) {
        this.producer = producer;
        this.topics = topics;
    }

    CompletableFuture<Void> outcome(PushOutcome o) {
        return send(new ProducerRecord<>(topics.pushOutcomes().name(), key(o.stream()),
                NotifySerdes.pushOutcome().serializer().serialize(null, o)));
    }

    CompletableFuture<Void> gone(PushChange change) {
        return send(new ProducerRecord<>(topics.pushChanges().name(), key(change.stream()),
                NotifySerdes.pushChange().serializer().serialize(null, change)));
    }

    /** {@code narrowed}: the fallback record with only the registration that failed (null for an unreadable record). */
    CompletableFuture<Void> dlq(byte[] key, byte[] value, DlqFailure failure, String registrationId) {
        RecordHeaders headers = new RecordHeaders();
        failure.writeTo(headers);
        if (registrationId != null) {
            headers.add(REGISTRATION_HEADER, registrationId.getBytes(StandardCharsets.UTF_8));
        }
        return send(new ProducerRecord<>(topics.pushDlq().name(), null, key, value, headers));
    }

    static byte[] narrowed(FallbackRecord r, io.notify.protocol.push.PushRegistration only) {
        return NotifySerdes.fallbackRecord().serializer().serialize(null, new FallbackRecord(r.stream(), r.userId(), r.channel(),
                r.reason(), r.event(), r.devices(), r.dueAt(), r.at(), java.util.List.of(only)));
    }

    private static byte[] key(StreamId stream) {
        return NotifySerdes.streamId().serializer().serialize(null, stream);
    }

    private CompletableFuture<Void> send(ProducerRecord<byte[], byte[]> record) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        try {
            producer.send(record, (metadata, error) -> {
                if (error == null) {
                    done.complete(null);
                } else {
                    done.completeExceptionally(error);
                }
            });
        } catch (KafkaException | IllegalStateException e) {
            done.completeExceptionally(e);
        }
        return done;
    }
}
