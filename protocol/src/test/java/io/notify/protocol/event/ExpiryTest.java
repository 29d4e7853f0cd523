package io.notify.protocol.event;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.notify.protocol.frame.EventFrame;
import io.notify.protocol.stream.Position;
import io.notify.protocol.stream.SequencedEvent;
import io.notify.protocol.stream.StreamId;
import java.time.OffsetDateTime;
import org.junit.jupiter.api.Test;

/** An event's expiry (docs/protocol.md, "Expiry"): from expiresAt or ttl, carried to the stream records and the client's frame. */
class ExpiryTest {

    static final EventEnvelope SALE = EventEnvelope.durable("flash.sale", null, "42");

    @Test
    void expiresAtIsAbsoluteAndTtlCountsFromAcceptance() {
        assertNull(SALE.expiryMillis(1_000));
        assertEquals(1_767_225_600_000L, SALE.withExpiry(OffsetDateTime.parse("2026-01-01T01:00:00+01:00"), null).expiryMillis(5));
        assertEquals(1_000 + 600_000, SALE.withExpiry(null, "10m").expiryMillis(1_000));
    }

    @Test
    void notBothAndAtMostThirtyDays() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> SALE.withExpiry(OffsetDateTime.parse("2030-01-01T00:00:00Z"), "1m"))
                .getMessage().contains("not both"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> SALE.withExpiry(null, "31d")).getMessage().contains("30d"));
        assertThrows(IllegalArgumentException.class, () -> SALE.withExpiry(null, "10 minutes"));
    }

    @Test
    void theStreamRecordAndTheFrameCarryIt() {
        SequencedEvent e = SequencedEvent.of(StreamId.forUser("42"), Position.of("ep", 3), SALE.withExpiry(null, "1m"), 1_000, 1_001);
        assertEquals(61_000L, e.expiresAt());
        assertFalse(e.expiredAt(60_999));
        assertTrue(e.expiredAt(61_000));
        assertEquals(OffsetDateTime.parse("1970-01-01T00:01:01Z"), EventFrame.of(e).expiresAt());
        assertNull(EventFrame.of(SequencedEvent.of(StreamId.forUser("42"), Position.of("ep", 4), SALE, 1, 2)).expiresAt());
    }
}
