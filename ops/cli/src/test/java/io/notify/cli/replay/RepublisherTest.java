package io.notify.cli.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.notify.protocol.event.Channel;
import io.notify.protocol.event.Digest;
import io.notify.protocol.event.EventEnvelope;
import io.notify.protocol.event.Fallback;
import io.notify.protocol.stream.SequencedEvent;
import io.notify.protocol.stream.StreamId;
import io.notify.schemas.serde.NotifySerdes;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;

/** The conversion of a row into an envelope for {@code --republish-to events}, without a broker. */
class RepublisherTest {

    @Test
    void aSequencedEventBecomesAnEnvelopeWithItsCategoryAndCriticalMarkButNoFallbackOrDigest() {
        SequencedEvent s = new SequencedEvent(StreamId.forUser("42"), "ep1", 17, "c-1", "comment.added", null, null, "orders",
                1795946130100L, 1795946130123L, new Fallback("2m", "push"), null, "security", true,
                new Digest("comments:p-9", "15m"), List.of(Channel.PUSH));
        String value = new String(NotifySerdes.sequencedEvent().serializer().serialize("t", s), StandardCharsets.UTF_8);
        MockProducer<byte[], byte[]> producer = new MockProducer<>(true, null, new ByteArraySerializer(), new ByteArraySerializer());
        try (Republisher r = new Republisher(producer, new RepublishTarget("notify.events", true), SourceTopic.STREAM_LOG, 1)) {
            r.send(Records.row("notify.stream-log", 0, 3, 1795946130100L, "u:42", value, r.paths()));
            Republisher.Result result = r.finish();
            assertEquals(1, result.acked(), String.valueOf(result.firstProblem()));
        }
        EventEnvelope e = NotifySerdes.eventEnvelope().deserializer().deserialize("notify.events", producer.history().get(0).value());
        assertEquals(List.of("42"), e.to().users());
        assertEquals("security", e.category(), "the user's preferences apply to it as they did the first time");
        assertTrue(e.critical());
        assertNull(e.fallback(), "the fallback was decided");
        assertNull(e.digest(), "a digest folds fallbacks: none without one");
    }
}
