package io.notify.cli.replay;

import io.notify.protocol.event.EventClass;
import io.notify.protocol.event.EventEnvelope;
import io.notify.protocol.event.Recipients;
import io.notify.protocol.stream.LiveEvent;
import io.notify.protocol.stream.SequencedEvent;
import io.notify.protocol.stream.StreamEvent;
import io.notify.protocol.stream.UndeliveredEvent;
import io.notify.schemas.serde.NotifySerdes;
import io.notify.schemas.topic.DlqHeaders;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeaders;

/**
 * {@code --republish-to}: re-produces selected rows with an idempotent {@code acks=all} producer,
 * asynchronously (the producer's bounded buffer throttles the read), in replay order.
 *
 * <p>Into another topic the record is copied: key, value and headers byte for byte. Into
 * {@code notify.events} each row becomes an {@link EventEnvelope} with an id from
 * {@link RepublishIds}, keyed by its first recipient as every producer is: a DLQ or events record is the envelope
 * itself; a stream-log, undelivered or fallback record becomes an envelope to that stream's user alone, with the
 * event's category and critical mark (docs/inbox.md, "Preferences") but without its fallback and digest. A row
 * that cannot become a valid envelope is skipped and counted. Every record written carries
 * {@value #SOURCE_HEADER} = {@code topic:partition:offset} of its origin; envelopes also carry
 * {@value #ORIGINAL_ID_HEADER}, and lose the DLQ's failure headers.
 */
final class Republisher implements AutoCloseable {

    static final String SOURCE_HEADER = "notify.replay.source";
    static final String ORIGINAL_ID_HEADER = "notify.replay.original-id";
    private static final Set<String> DLQ_HEADERS = Set.of(DlqHeaders.ERROR, DlqHeaders.ERROR_KIND, DlqHeaders.SOURCE_TOPIC,
            DlqHeaders.SOURCE_PARTITION, DlqHeaders.SOURCE_OFFSET, DlqHeaders.FAILED_AT);

    /** Counts: {@code sent} handed to the producer, of which {@code acked} and {@code failed}; {@code skipped} never sent. */
    record Result(long sent, long acked, long failed, long skipped, String firstProblem) {
    }

    private final Producer<byte[], byte[]> producer;
    private final RepublishTarget target;
    private final SourceTopic source;
    private final int round;
    private final AtomicLong acked = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();
    private final AtomicReference<String> firstProblem = new AtomicReference<>();
    private long sent;
    private long skipped;

    Republisher(Producer<byte[], byte[]> producer, RepublishTarget target, SourceTopic source, int round) {
        this.producer = producer;
        this.target = target;
        this.source = source;
        this.round = round;
    }

    /** Value paths the conversion reads (the old id, to derive the new one). */
    Set<String> paths() {
        return source.idPath == null ? Set.of("id") : Set.copyOf(List.of("id", source.idPath));
    }

    void send(Row row) {
        String origin = row.topic + ":" + row.partition + ":" + row.offset;
        RecordHeaders headers = new RecordHeaders();
        byte[] key;
        byte[] value;
        if (!target.intoEvents()) {
            row.headers.forEach(headers::add);
            key = row.key;
            value = row.value.bytes();
        } else {
            EventEnvelope envelope;
            try {
                envelope = envelope(row, origin);
            } catch (RuntimeException e) {
                skipped++;
                firstProblem.compareAndSet(null, origin + " is not a valid event: " + e.getMessage());
                return;
            }
            for (Header h : row.headers) {
                if (!DLQ_HEADERS.contains(h.key())) {
                    headers.add(h);
                }
            }
            headers.add(ORIGINAL_ID_HEADER, originalId(row, envelope).getBytes(StandardCharsets.UTF_8));
            key = envelope.recordKey().getBytes(StandardCharsets.UTF_8);
            value = NotifySerdes.eventEnvelope().serializer().serialize(target.topic(), envelope);
        }
        headers.add(SOURCE_HEADER, origin.getBytes(StandardCharsets.UTF_8));
        sent++;
        producer.send(new ProducerRecord<>(target.topic(), null, key, value, headers), (md, e) -> {
            if (e == null) {
                acked.incrementAndGet();
            } else {
                failed.incrementAndGet();
                firstProblem.compareAndSet(null, "write to " + target.topic() + " failed: " + e);
            }
        });
    }

    private EventEnvelope envelope(Row row, String origin) {
        byte[] bytes = row.value.bytes();
        return switch (source) {
            case EVENTS, DLQ -> {
                EventEnvelope e = NotifySerdes.eventEnvelope().deserializer().deserialize(row.topic, bytes);
                // A value without id got a random one from the reader; derive from where it was instead.
                String old = row.value.text("id") != null ? e.id() : origin.replace(':', '-');
                yield e.withId(RepublishIds.derive(old, null, round));
            }
            case STREAM_LOG -> toItsUser(NotifySerdes.sequencedEvent().deserializer().deserialize(row.topic, bytes));
            case FALLBACK -> toItsUser(NotifySerdes.fallbackRecord().deserializer().deserialize(row.topic, bytes).event());
            case UNDELIVERED -> {
                UndeliveredEvent u = NotifySerdes.undeliveredEvent().deserializer().deserialize(row.topic, bytes);
                StreamEvent e = u.event();
                EventEnvelope again = new EventEnvelope(RepublishIds.derive(e.id(), u.stream().value(), round), e.type(),
                        Recipients.users(u.userId()), e.eventClass(), e.data(), e.occurredAt(),
                        e instanceof LiveEvent live ? live.collapseKey() : null, e.source());
                yield e instanceof SequencedEvent s ? withItsPolicy(again, s) : again;
            }
            // refused before reading (ReplayCommand): these records are not events
            case RECEIPTS, INBOX_STATE, PUSH_CHANGES, PUSH_REGISTRATIONS, PUSH_OUTCOMES, PUSH_DLQ, PREFERENCES ->
                    throw new IllegalArgumentException(source.shortName + " records are not events");
        };
    }

    /** A sequenced event again, addressed to its stream's user alone (without its fallback: that one was decided). */
    private EventEnvelope toItsUser(SequencedEvent s) {
        return withItsPolicy(new EventEnvelope(RepublishIds.derive(s.id(), s.stream().value(), round), s.type(),
                Recipients.users(s.stream().userId()), EventClass.DURABLE, s.data(), s.occurredAt(), null, s.source()), s);
    }

    /**
     * The event's category and critical mark, so the user's preferences treat it as they did the first time; not its
     * digest, which folds fallbacks and goes with the fallback.
     */
    private static EventEnvelope withItsPolicy(EventEnvelope envelope, SequencedEvent s) {
        return envelope.withPolicy(s.category(), s.critical(), null);
    }

    private String originalId(Row row, EventEnvelope envelope) {
        String id = row.value.text(source.idPath);
        return id != null ? id : envelope.id();
    }

    /** Waits for every send to be acknowledged or failed. */
    Result finish() {
        producer.flush();
        return new Result(sent, acked.get(), failed.get(), skipped, firstProblem.get());
    }

    @Override
    public void close() {
        producer.close(Duration.ofSeconds(10));
    }
}
