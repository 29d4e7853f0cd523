package io.notify.gateway.inbox;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.notify.protocol.NotifyJson;
import io.notify.protocol.frame.EventFrame;
import io.notify.protocol.stream.SequencedEvent;
import java.io.IOException;

/**
 * The answer of {@code GET /v1/inbox}: the query API's page with each item's {@code event} as the
 * protocol's event frame has it (stream, position, id, type, class, data, occurredAt; docs/protocol.md),
 * never the stored event's internal fields (source, ingest and sequencing times, the fallback,
 * the collapse key), which services see on the query API and clients never do.
 */
final class ClientInboxPage {

    /** Fields a newer fanout-streams adds are dropped here anyway: a rolling upgrade must not fail pages. */
    private static final ObjectReader STORED = NotifyJson.mapper().readerFor(SequencedEvent.class)
            .without(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    private static final String FRAME_TYPE = "t";

    private ClientInboxPage() {
    }

    /** The page a client gets from the query API's {@code /inbox} answer. */
    static byte[] of(byte[] queryApiPage) throws IOException {
        ObjectMapper json = NotifyJson.mapper();
        JsonNode page = json.readTree(queryApiPage);
        if (page == null || !page.path("events").isArray()) {
            throw new IOException("not an inbox page");
        }
        for (JsonNode item : page.get("events")) {
            if (!(item instanceof ObjectNode entry) || !entry.path("event").isObject()) {
                throw new IOException("an inbox page item without an event");
            }
            SequencedEvent stored = STORED.readValue(entry.get("event"));
            ObjectNode frame = json.valueToTree(EventFrame.of(stored));
            frame.remove(FRAME_TYPE); // an item is an event, not a frame on the wire: the frame's fields without its "t"
            entry.set("event", frame);
        }
        return json.writeValueAsBytes(page);
    }
}
