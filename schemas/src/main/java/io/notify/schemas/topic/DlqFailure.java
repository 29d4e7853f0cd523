package io.notify.schemas.topic;

import java.time.Instant;
import java.util.Optional;
import java.util.regex.Pattern;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;

/**
 * Why and where from a record went to the DLQ, as one value: written to and read from the
 * {@link DlqHeaders} of a DLQ record. Guarantees: the error text is non-empty and cut to
 * {@link DlqHeaders#MAX_ERROR_LENGTH}; the kind is a short snake_case word; partition and offset
 * are non-negative.
 */
public record DlqFailure(String error, String kind, String sourceTopic, int sourcePartition, long sourceOffset,
                         Instant failedAt) {

    public static final Pattern KIND = Pattern.compile("^[a-z][a-z0-9_]{0,31}$");

    public DlqFailure {
        if (error == null || error.isBlank()) {
            throw new IllegalArgumentException("error is required");
        }
        if (error.length() > DlqHeaders.MAX_ERROR_LENGTH) {
            error = error.substring(0, DlqHeaders.MAX_ERROR_LENGTH - 1) + "…";
        }
        if (kind == null || !KIND.matcher(kind).matches()) {
            throw new IllegalArgumentException("kind must be a snake_case word such as 'schema', got '" + kind + "'");
        }
        if (sourceTopic == null || !Topic.LEGAL_NAME.matcher(sourceTopic).matches()) {
            throw new IllegalArgumentException("sourceTopic must be a Kafka topic name, got '" + sourceTopic + "'");
        }
        if (sourcePartition < 0 || sourceOffset < 0) {
            throw new IllegalArgumentException("sourcePartition and sourceOffset must be >= 0");
        }
        if (failedAt == null) {
            throw new IllegalArgumentException("failedAt is required");
        }
    }

    /** Writes every header, replacing any of the same name already there; returns {@code headers}. */
    public Headers writeTo(Headers headers) {
        DlqHeaders.put(headers, DlqHeaders.ERROR, error);
        DlqHeaders.put(headers, DlqHeaders.ERROR_KIND, kind);
        DlqHeaders.put(headers, DlqHeaders.SOURCE_TOPIC, sourceTopic);
        DlqHeaders.put(headers, DlqHeaders.SOURCE_PARTITION, Integer.toString(sourcePartition));
        DlqHeaders.put(headers, DlqHeaders.SOURCE_OFFSET, Long.toString(sourceOffset));
        DlqHeaders.put(headers, DlqHeaders.FAILED_AT, failedAt.toString());
        return headers;
    }

    /**
     * The original headers of the failed record plus the DLQ headers. Keeping the originals
     * (tracing ids, producer metadata) helps whoever investigates.
     */
    public Headers toHeaders(Headers original) {
        return writeTo(original == null ? new RecordHeaders() : new RecordHeaders(original.toArray()));
    }

    /**
     * Reads the DLQ headers; empty when the record carries no {@code notify.error} header.
     *
     * @throws IllegalArgumentException naming the header when one is missing or malformed
     */
    public static Optional<DlqFailure> readFrom(Headers headers) {
        Optional<String> error = DlqHeaders.get(headers, DlqHeaders.ERROR);
        if (error.isEmpty()) {
            return Optional.empty();
        }
        long partition = DlqHeaders.parseLong(DlqHeaders.SOURCE_PARTITION, DlqHeaders.require(headers, DlqHeaders.SOURCE_PARTITION));
        if (partition > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("DLQ header " + DlqHeaders.SOURCE_PARTITION + " is out of range: " + partition);
        }
        return Optional.of(new DlqFailure(
                error.get(),
                DlqHeaders.require(headers, DlqHeaders.ERROR_KIND),
                DlqHeaders.require(headers, DlqHeaders.SOURCE_TOPIC),
                (int) partition,
                DlqHeaders.parseLong(DlqHeaders.SOURCE_OFFSET, DlqHeaders.require(headers, DlqHeaders.SOURCE_OFFSET)),
                DlqHeaders.parseInstant(DlqHeaders.FAILED_AT, DlqHeaders.require(headers, DlqHeaders.FAILED_AT))));
    }
}
