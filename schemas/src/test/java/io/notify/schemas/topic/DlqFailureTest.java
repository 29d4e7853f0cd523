package io.notify.schemas.topic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Optional;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;

class DlqFailureTest {

    static final DlqFailure FAILURE = new DlqFailure("/to/users: is required", DlqHeaders.KIND_SCHEMA, "notify.events", 3, 1234,
            Instant.parse("2026-11-29T09:15:30.123Z"));

    @Test
    void headersAreReadableTextAndRoundTrip() {
        Headers h = FAILURE.writeTo(new RecordHeaders());
        assertEquals("/to/users: is required", text(h, DlqHeaders.ERROR));
        assertEquals("schema", text(h, DlqHeaders.ERROR_KIND));
        assertEquals("notify.events", text(h, DlqHeaders.SOURCE_TOPIC));
        assertEquals("3", text(h, DlqHeaders.SOURCE_PARTITION));
        assertEquals("1234", text(h, DlqHeaders.SOURCE_OFFSET));
        assertEquals("2026-11-29T09:15:30.123Z", text(h, DlqHeaders.FAILED_AT));
        assertEquals(Optional.of(FAILURE), DlqFailure.readFrom(h));
    }

    @Test
    void headerNames() {
        assertEquals("notify.error", DlqHeaders.ERROR);
        assertEquals("notify.error.kind", DlqHeaders.ERROR_KIND);
        assertEquals("notify.source.topic", DlqHeaders.SOURCE_TOPIC);
        assertEquals("notify.source.partition", DlqHeaders.SOURCE_PARTITION);
        assertEquals("notify.source.offset", DlqHeaders.SOURCE_OFFSET);
        assertEquals("notify.failed.at", DlqHeaders.FAILED_AT);
    }

    @Test
    void originalHeadersAreKeptAndOldReasonsReplaced() {
        Headers original = new RecordHeaders();
        original.add("traceparent", "00-abc".getBytes(StandardCharsets.UTF_8));
        original.add(DlqHeaders.ERROR, "stale".getBytes(StandardCharsets.UTF_8));
        Headers h = FAILURE.toHeaders(original);
        assertEquals("00-abc", text(h, "traceparent"));
        assertEquals(1, countOf(h, DlqHeaders.ERROR));
        assertEquals("/to/users: is required", text(h, DlqHeaders.ERROR));
        assertEquals("stale", text(original, DlqHeaders.ERROR), "the original headers are not modified");
    }

    @Test
    void absentAndMalformedHeaders() {
        assertEquals(Optional.empty(), DlqFailure.readFrom(new RecordHeaders()));
        Headers h = FAILURE.writeTo(new RecordHeaders());
        h.remove(DlqHeaders.SOURCE_OFFSET);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> DlqFailure.readFrom(h));
        assertTrue(e.getMessage().contains(DlqHeaders.SOURCE_OFFSET), e.getMessage());
        h.add(DlqHeaders.SOURCE_OFFSET, "x".getBytes(StandardCharsets.UTF_8));
        e = assertThrows(IllegalArgumentException.class, () -> DlqFailure.readFrom(h));
        assertTrue(e.getMessage().contains(DlqHeaders.SOURCE_OFFSET), e.getMessage());
    }

    @Test
    void errorTextIsBoundedAndKindChecked() {
        DlqFailure f = new DlqFailure("x".repeat(5000), DlqHeaders.KIND_DESERIALIZATION, "t", 0, 0, Instant.EPOCH);
        assertEquals(DlqHeaders.MAX_ERROR_LENGTH, f.error().length());
        assertThrows(IllegalArgumentException.class, () -> new DlqFailure("e", "Not A Kind", "t", 0, 0, Instant.EPOCH));
        assertThrows(IllegalArgumentException.class, () -> new DlqFailure(" ", "schema", "t", 0, 0, Instant.EPOCH));
        assertThrows(IllegalArgumentException.class, () -> new DlqFailure("e", "schema", "t", -1, 0, Instant.EPOCH));
    }

    private static String text(Headers h, String name) {
        return new String(h.lastHeader(name).value(), StandardCharsets.UTF_8);
    }

    private static int countOf(Headers h, String name) {
        int n = 0;
        for (var ignored : h.headers(name)) {
            n++;
        }
        return n;
    }
}
