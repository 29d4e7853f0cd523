package io.notify.fanout.intake;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.notify.fanout.commit.CatchUpCommit;
import io.notify.fanout.metrics.FanoutMetrics;
import io.notify.protocol.event.EventEnvelope;
import io.notify.protocol.event.EventIds;
import io.notify.protocol.event.Recall;
import io.notify.schemas.topic.DlqFailure;
import io.notify.schemas.topic.DlqHeaders;
import io.notify.schemas.topic.ProducerScope;
import io.notify.schemas.trace.HopTrace;
import io.notify.schemas.validation.EventValidator;
import io.notify.schemas.validation.RecallValidator;
import io.notify.schemas.validation.InvalidEventException;
import io.notify.schemas.validation.Violation;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;

/**
 * Step 1: turns raw {@code notify.events} bytes into valid envelopes. Guarantees: every input
 * record yields exactly one output — {@link Intake.Accepted} keyed by the event id in its producer's
 * scope ({@link ProducerScope#key}), or
 * {@link Intake.Rejected} keyed null whose headers are the original headers plus
 * {@link DlqFailure} headers; no input, however malformed, throws out of {@link #process}, so a
 * poison pill never stops the stream thread. A value without {@code id} takes the record key
 * when that key is a valid event id; otherwise it is rejected (a generated id could never be
 * deduplicated against the producer's retry). A record carrying
 * {@link EventValidator#VALIDATED_HEADER} (ingest and NotifyPublisher validated it) is bound
 * without a second schema pass; the envelope's own checks still apply. An event whose expiresAt (or
 * ttl after its record timestamp) has passed when it is read is rejected with kind
 * {@value #KIND_EXPIRED}: accepted by Kafka, never delivered, and visible in the DLQ. A record with a
 * {@code recall} field is a producer's recall ({@link RecallValidator}): {@link Intake.Recalled}, or
 * rejected like a bad event.
 */
public final class IntakeProcessor implements Processor<byte[], byte[], String, Intake> {

    /** DLQ kind of an event that had expired before fanout-streams read it. */
    public static final String KIND_EXPIRED = "expired";

    private static final byte[] VALIDATED = EventValidator.VALIDATED_VALUE.getBytes(StandardCharsets.UTF_8);
    private final EventValidator validator = EventValidator.v1();
    private final Clock clock;
    private final FanoutMetrics metrics;
    private ProcessorContext<String, Intake> context;

    public IntakeProcessor(Clock clock, FanoutMetrics metrics) {
        this.clock = clock;
        this.metrics = metrics;
    }

    @Override
    public void init(ProcessorContext<String, Intake> context) {
        this.context = context;
    }

    @Override
    public void process(Record<byte[], byte[]> record) {
        metrics.catchUpCommit(CatchUpCommit.processed(context));
        metrics.recordIn();
        try {
            long ingestedAt = record.timestamp() >= 0 ? record.timestamp() : clock.millis();
            Object parsed = parse(record.key(), record.value(), validatedAtEdge(record.headers()));
            if (parsed instanceof Recall recall) {
                metrics.recall("accepted");
                context.forward(record.withKey(ProducerScope.key(ProducerScope.of(record.headers()), recall.id()))
                        .withValue((Intake) new Intake.Recalled(recall, ingestedAt)));
                return;
            }
            EventEnvelope envelope = (EventEnvelope) parsed;
            Long expiry = envelope.expiryMillis(ingestedAt);
            if (expiry != null && expiry <= clock.millis()) {
                reject(record, KIND_EXPIRED, "event '" + envelope.id() + "' expired at " + Instant.ofEpochMilli(expiry)
                        + ", before it was sequenced: not delivered");
                return;
            }
            // keyed by the id in its producer's scope: what dedup remembers (ProducerScope)
            String scopedId = ProducerScope.key(ProducerScope.of(record.headers()), envelope.id());
            context.forward(record.withKey(scopedId).withValue(new Intake.Accepted(envelope, ingestedAt, record.key(), record.value()))
                    .withHeaders(HopTrace.stamped(record.headers(), HopTrace.INTAKE, HopTrace.nowMicros(clock))));
        } catch (InvalidEventException e) {
            reject(record, kindOf(e.violations()), e.getMessage());
        } catch (RuntimeException e) {
            // A bug in validation must not turn one bad record into a dead stream thread: park it, visibly.
            reject(record, "internal", e.getClass().getSimpleName() + ": " + e.getMessage());
        }
    }

    private static boolean validatedAtEdge(Headers headers) {
        Header h = headers.lastHeader(EventValidator.VALIDATED_HEADER);
        return h != null && Arrays.equals(h.value(), VALIDATED);
    }

    /** The record's envelope, or its {@link Recall} when it has a {@code recall} field. */
    private Object parse(byte[] key, byte[] value, boolean validated) {
        if (value == null) {
            throw invalid("", "record value is null; expected a v1 event JSON object", Violation.SYNTAX);
        }
        if (validated) {
            EventEnvelope clean = EventValidator.bindIfClean(value);
            if (clean != null) {
                return clean;
            }
        }
        JsonNode document = EventValidator.readTree(value);
        if (!document.isObject()) {
            throw invalid("", "expected a JSON object, got " + document.getNodeType().name().toLowerCase(java.util.Locale.ROOT), Violation.SYNTAX);
        }
        ObjectNode event = (ObjectNode) document;
        if (RecallValidator.isRecall(event)) {
            return RecallValidator.toRecall(event);
        }
        if (!event.has("id")) {
            String keyText = key == null ? null : new String(key, StandardCharsets.UTF_8);
            if (!EventIds.isValid(keyText)) {
                throw invalid("/id", "is required when the record key is not a valid event id", "required");
            }
            event = event.deepCopy().put("id", keyText);
        }
        return validated ? validator.bind(event) : validator.toEnvelope(event);
    }

    private void reject(Record<byte[], byte[]> record, String kind, String error) {
        RecordMetadata source = context.recordMetadata().orElseThrow(
                () -> new IllegalStateException("intake runs on source records, which always have metadata"));
        DlqFailure failure = new DlqFailure(error, kind, source.topic(), Math.max(0, source.partition()),
                Math.max(0, source.offset()), clock.instant());
        metrics.dlq(kind);
        context.forward(new Record<String, Intake>(null, new Intake.Rejected(record.key(), record.value()),
                record.timestamp(), failure.toHeaders(record.headers())));
    }

    private static String kindOf(List<Violation> violations) {
        boolean syntax = violations.stream().anyMatch(v -> Violation.SYNTAX.equals(v.rule()));
        return syntax ? DlqHeaders.KIND_DESERIALIZATION : DlqHeaders.KIND_SCHEMA;
    }

    private static InvalidEventException invalid(String pointer, String message, String rule) {
        return new InvalidEventException(List.of(new Violation(pointer, message, rule)));
    }
}
