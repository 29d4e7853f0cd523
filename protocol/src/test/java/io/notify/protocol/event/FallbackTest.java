package io.notify.protocol.event;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class FallbackTest {

    @Test
    void afterIsAWholeNumberOfOneUnitWithinTenSecondsAndSevenDays() {
        assertEquals(Duration.ofMinutes(2), new Fallback("2m", "push").delay());
        assertEquals(Duration.ofDays(7), new Fallback("7d", "email").delay());
        assertEquals(Duration.ofSeconds(10), new Fallback("10s", "sms").delay());
        for (String bad : new String[] {"9s", "8d", "169h", "0m", "2", "2 m", "1.5h", "-1m", "", "02m"}) {
            assertThrows(IllegalArgumentException.class, () -> new Fallback(bad, "push"), bad);
        }
        assertThrows(IllegalArgumentException.class, () -> new Fallback("2m", "push notifications"));
        assertThrows(IllegalArgumentException.class, () -> new Fallback("2m", null));
    }

    @Test
    void onlyDurableEventsToUsersCarryOne() {
        EventEnvelope toUser = EventEnvelope.durable("order.shipped", null, "42").withFallback(new Fallback("2m", "push"));
        assertEquals("push", toUser.fallback().channel());
        assertThrows(IllegalArgumentException.class, () -> EventEnvelope.durable("chat.message", null, Recipients.rooms("chat-1"))
                .withFallback(new Fallback("2m", "push")));
        assertThrows(IllegalArgumentException.class, () -> new EventEnvelope("e1", "typing", Recipients.users("42"),
                EventClass.EPHEMERAL, null, null, null, null, new Fallback("2m", "push")));
    }
}
