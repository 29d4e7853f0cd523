package io.notify.schemas.topic;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Optional;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;

/**
 * Header names on {@code notify.events.dlq} records. The record's key and value are the original
 * bytes unchanged; these headers say why and where from. Every value is UTF-8 text: numbers in
 * decimal, {@code notify.failed.at} as an ISO-8601 UTC instant, so {@code kcat -J} shows them as is.
 * Use {@link DlqFailure} to write and read them as one value.
 */
public final class DlqHeaders {

    /** Human-readable reason, at most {@link #MAX_ERROR_LENGTH} chars. */
    public static final String ERROR = "notify.error";
    /** Machine-readable class of failure: {@link #KIND_DESERIALIZATION}, {@link #KIND_SCHEMA}, … */
    public static final String ERROR_KIND = "notify.error.kind";
    public static final String SOURCE_TOPIC = "notify.source.topic";
    public static final String SOURCE_PARTITION = "notify.source.partition";
    public static final String SOURCE_OFFSET = "notify.source.offset";
    public static final String FAILED_AT = "notify.failed.at";

    /** Not JSON, not UTF-8, or not an object. */
    public static final String KIND_DESERIALIZATION = "deserialization";
    /** Well-formed JSON that breaks the v1 event schema (includes the 64 KiB data bound). */
    public static final String KIND_SCHEMA = "schema";

    public static final int MAX_ERROR_LENGTH = 1000;

    private DlqHeaders() {
    }

    static void put(Headers headers, String name, String value) {
        headers.remove(name);
        headers.add(name, value.getBytes(StandardCharsets.UTF_8));
    }

    static Optional<String> get(Headers headers, String name) {
        Header h = headers.lastHeader(name);
        return h == null || h.value() == null ? Optional.empty() : Optional.of(new String(h.value(), StandardCharsets.UTF_8));
    }

    static String require(Headers headers, String name) {
        return get(headers, name).orElseThrow(() -> new IllegalArgumentException("DLQ header " + name + " is missing"));
    }

    static Instant parseInstant(String name, String value) {
        try {
            return Instant.parse(value);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("DLQ header " + name + " is not an ISO-8601 instant: '" + value + "'", e);
        }
    }

    static long parseLong(String name, String value) {
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("DLQ header " + name + " is not a decimal integer: '" + value + "'", e);
        }
    }
}
