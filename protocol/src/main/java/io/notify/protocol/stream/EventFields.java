package io.notify.protocol.stream;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.notify.protocol.event.EventEnvelope;
import io.notify.protocol.event.EventIds;

/** The envelope rules shared by the per-stream event records, in one place. */
final class EventFields {

    private EventFields() {
    }

    static void check(StreamId stream, String id, String type, String source, long ingestedAt) {
        if (stream == null) {
            throw new IllegalArgumentException("stream is required");
        }
        if (!EventIds.isValid(id)) {
            throw new IllegalArgumentException("id must be 1..128 chars of [A-Za-z0-9._:-], got '" + Texts.clip(id) + "'");
        }
        if (!EventEnvelope.isType(type)) {
            throw new IllegalArgumentException("type must match " + EventEnvelope.TYPE.pattern() + ", got '" + Texts.clip(type) + "'");
        }
        checkText("source", source);
        checkMillis("ingestedAt", ingestedAt);
    }

    static void checkText(String field, String value) {
        if (value != null && (value.isEmpty() || value.length() > EventEnvelope.MAX_TEXT_LENGTH)) {
            throw new IllegalArgumentException(field + " must be 1.." + EventEnvelope.MAX_TEXT_LENGTH + " characters");
        }
    }

    static void checkMillis(String field, long millis) {
        if (millis < 0) {
            throw new IllegalArgumentException(field + " must be epoch milliseconds >= 0, got " + millis);
        }
    }

    static ObjectNode dataOrEmpty(ObjectNode data) {
        return data == null ? JsonNodeFactory.instance.objectNode() : data;
    }
}
