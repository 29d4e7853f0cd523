package io.notify.schemas.topic;

import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;

/**
 * Event ids are scoped to their producer: ingest's idempotency store and fanout-streams' dedup key
 * an id by the producer that sent it, so two producers' equal ids never collide and never answer for
 * each other. The producer is named by the {@value #HEADER} record header of {@code notify.events}:
 * ingest sets it to the name its API key maps to, {@code NotifyPublisher} to the name it was built
 * with; a record without it (another direct producer) is in the shared scope {@value #DIRECT}.
 */
public final class ProducerScope {

    /** Record header naming the producer that sent the event (its API key's name at ingest). */
    public static final String HEADER = "notify.producer";
    /** The scope of records without {@link #HEADER}: direct producers that name none. */
    public static final String DIRECT = "-";

    private ProducerScope() {
    }

    /** The producer a record's headers name, or {@link #DIRECT}. */
    public static String of(Headers headers) {
        Header h = headers == null ? null : headers.lastHeader(HEADER);
        return h == null || h.value() == null || h.value().length == 0 ? DIRECT : new String(h.value(), StandardCharsets.UTF_8);
    }

    /**
     * The key of an event id within its producer's scope. An id never contains {@code '|'} (ids are
     * {@code [A-Za-z0-9._:-]}), so the key is unambiguous whatever the producer's name holds.
     */
    public static String key(String producer, String eventId) {
        return producer + '|' + eventId;
    }
}
