package io.notify.schemas.trace;

import java.nio.ByteBuffer;
import java.time.Clock;
import java.time.Instant;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;

/**
 * The per-hop trace an event carries through the pipeline: each hop stamps its wall-clock time
 * (epoch microseconds, 8 bytes big-endian) in a record header, and the gateway turns the stamps
 * into per-hop latencies ({@code notify_gateway_hop_latency_seconds{hop}}, docs/topics.md). The
 * record timestamp itself (the producer's CreateTime, which Kafka Streams carries to every output)
 * is the "produced" stamp between {@link #ACCEPT} and {@link #INTAKE}.
 *
 * <p>Stamps are wall clock, so a hop that crosses machines includes their clock offset; on one
 * machine (or NTP-synced hosts) the figures are the hop's real duration. A missing or malformed
 * stamp (a producer that skipped ingest, an older record) yields {@link #NONE}, never an error.
 */
public final class HopTrace {

    /** Ingest received the request (before parse and validation). */
    public static final String ACCEPT = "nf-hop-accept";
    /** fanout-streams read the record from notify.events (intake). */
    public static final String INTAKE = "nf-hop-intake";
    /** fanout-streams sequenced the event for one stream (after the by-stream repartition). */
    public static final String SEQUENCE = "nf-hop-sequence";
    /** fanout-streams handed the delivery message for one node to its producer (after the registry lookup). */
    public static final String ROUTE = "nf-hop-route";

    /** What {@link #read} answers for a missing or unreadable stamp. */
    public static final long NONE = -1;

    private HopTrace() {
    }

    /** Epoch microseconds of {@code clock} now. */
    public static long nowMicros(Clock clock) {
        Instant now = clock.instant();
        return now.getEpochSecond() * 1_000_000L + now.getNano() / 1_000;
    }

    /**
     * A copy of {@code headers} with {@code hop} set to {@code epochMicros} (an earlier stamp of the
     * same hop, from a reprocessed record, is replaced). A copy, not an edit: a producer makes the
     * headers it sent read-only, and Kafka Streams hands the same headers to every sink of a record.
     */
    public static Headers stamped(Headers headers, String hop, long epochMicros) {
        RecordHeaders copy = new RecordHeaders(headers.toArray());
        copy.remove(hop);
        copy.add(hop, encode(epochMicros));
        return copy;
    }

    public static byte[] encode(long epochMicros) {
        return ByteBuffer.allocate(Long.BYTES).putLong(epochMicros).array();
    }

    /** The stamp of {@code hop} in epoch microseconds, or {@link #NONE}. */
    public static long read(Headers headers, String hop) {
        Header h = headers.lastHeader(hop);
        if (h == null || h.value() == null || h.value().length != Long.BYTES) {
            return NONE;
        }
        return ByteBuffer.wrap(h.value()).getLong();
    }
}
