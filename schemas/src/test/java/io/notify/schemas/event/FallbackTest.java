package io.notify.schemas.event;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.notify.schemas.NotifyJson;
import java.nio.charset.StandardCharsets;
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

    @Test
    void theValidatorAcceptsItAndNamesWhatIsWrong() {
        EventEnvelope ok = EventValidator.v1().parse(("{\"id\":\"o-1\",\"type\":\"order.shipped\",\"to\":{\"users\":[\"42\"]},"
                + "\"fallback\":{\"after\":\"2m\",\"channel\":\"push\"}}").getBytes(StandardCharsets.UTF_8));
        assertEquals(new Fallback("2m", "push"), ok.fallback());
        InvalidEventException tooSoon = assertThrows(InvalidEventException.class, () -> EventValidator.v1().parse(
                ("{\"type\":\"order.shipped\",\"to\":{\"users\":[\"42\"]},\"fallback\":{\"after\":\"5s\",\"channel\":\"push\"}}")
                        .getBytes(StandardCharsets.UTF_8)));
        assertTrue(tooSoon.getMessage().contains("10s"), tooSoon.getMessage());
        assertFalse(EventValidator.v1().validate(NotifyJson.mapper().valueToTree(java.util.Map.of("type", "t",
                "to", java.util.Map.of("rooms", java.util.List.of("r")), "fallback", java.util.Map.of("after", "2m", "channel", "push"))))
                .isEmpty(), "the schema says fallback needs users");
    }
}
