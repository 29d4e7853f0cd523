package io.notify.schemas.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.notify.protocol.NotifyJson;
import io.notify.protocol.event.EventClass;
import io.notify.protocol.event.EventEnvelope;
import io.notify.protocol.event.EventIds;
import io.notify.protocol.event.Fallback;
import io.notify.protocol.event.Recipients;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class EventValidatorTest {

    private final EventValidator validator = EventValidator.v1();

    private static JsonNode json(String s) {
        return EventValidator.readTree(s.getBytes(StandardCharsets.UTF_8));
    }

    private List<Violation> violations(String s) {
        return validator.validate(json(s));
    }

    @Test
    void minimalEventIsValidAndGetsDefaults() {
        EventEnvelope e = validator.parse("{\"type\":\"order.shipped\",\"to\":{\"users\":[\"42\"]}}"
                .getBytes(StandardCharsets.UTF_8));
        assertTrue(EventIds.isValid(e.id()));
        assertEquals(EventClass.DURABLE, e.eventClass());
        assertEquals(List.of("42"), e.to().users());
        assertTrue(e.data().isEmpty());
    }

    @Test
    void aCategoryACriticalMarkAndADigestBindAndADigestNeedsAFallback() {
        EventEnvelope e = validator.parse(("{\"type\":\"comment.added\",\"to\":{\"users\":[\"42\"]},\"category\":\"social\","
                + "\"critical\":true,\"fallback\":{\"after\":\"1m\",\"channel\":\"push\"},"
                + "\"digest\":{\"key\":\"comments:p-9\",\"window\":\"15m\"}}").getBytes(StandardCharsets.UTF_8));
        assertEquals("social", e.category());
        assertTrue(e.critical());
        assertEquals(java.time.Duration.ofMinutes(15), e.digest().length());
        assertFalse(violations("{\"type\":\"t\",\"to\":{\"users\":[\"1\"]},\"digest\":{\"key\":\"k\",\"window\":\"1m\"}}").isEmpty(),
                "a digest without a fallback");
        assertFalse(violations("{\"type\":\"t\",\"to\":{\"users\":[\"1\"]},\"category\":\".x\"}").isEmpty());
        assertFalse(violations("{\"type\":\"t\",\"to\":{\"users\":[\"1\"]},\"critical\":\"yes\"}").isEmpty());
        assertThrows(InvalidEventException.class, () -> validator.parse(("{\"type\":\"t\",\"to\":{\"users\":[\"1\"]},"
                + "\"fallback\":{\"after\":\"1m\",\"channel\":\"push\"},\"digest\":{\"key\":\"k\",\"window\":\"2d\"}}")
                .getBytes(StandardCharsets.UTF_8)), "a window past 1 day");
    }

    @Test
    void numbersOutOfTheRangeOfADoubleAreViolationsNamingTheirPointer() {
        String doc = "{\"id\":\"a\",\"type\":\"t\",\"to\":{\"users\":[\"1\"]},\"data\":{\"n\":1e999,\"deep\":[{\"x~/y\":-1E400}],"
                + "\"big\":1" + "0".repeat(400) + ",\"ok\":[1e308,-1e-999,12345678901234567890123]}}";
        List<Violation> found = violations(doc);
        assertEquals(List.of("/data/n", "/data/deep/0/x~0~1y", "/data/big"), found.stream().map(Violation::pointer).toList());
        assertTrue(found.stream().allMatch(v -> Violation.NUMBER_RANGE.equals(v.rule())));
        assertThrows(InvalidEventException.class, () -> validator.encode(json(doc)));
        // a record bound without the schema pass (validated at the edge) is checked too
        var bind = assertThrows(InvalidEventException.class, () -> validator.bind((com.fasterxml.jackson.databind.node.ObjectNode) json(doc)));
        assertEquals("/data/n", bind.violations().get(0).pointer());
        String many = "{\"type\":\"t\",\"to\":{\"users\":[\"1\"]},\"data\":{\"n\":[" + "1e999,".repeat(50) + "1]}}";
        assertEquals(EventValidator.MAX_NUMBER_VIOLATIONS, violations(many).size());
        assertTrue(violations("{\"type\":\"t\",\"to\":{\"users\":[\"1\"]},\"data\":{\"ok\":[1e308,-1e-999]}}").isEmpty());
    }

    @Test
    void bindingStraightFromTheBytesGivesBindsEnvelopeOrLeavesTheDecisionToTheTreePath() {
        String full = "{\"id\":\"ord-1:shipped\",\"type\":\"order.shipped\",\"to\":{\"users\":[\"42\",\"43\"],\"rooms\":[\"r\"]},"
                + "\"class\":\"durable\",\"data\":{\"n\":1.5,\"deep\":[{\"x\":[1e308,-1e-999,12345678901234567890123]}]},"
                + "\"occurredAt\":\"2026-11-29T10:15:30.123+01:00\",\"collapseKey\":\"progress\",\"source\":\"orders\","
                + "\"fallback\":{\"after\":\"30s\",\"channel\":\"push\"}}";
        assertEquals(validator.bind((com.fasterxml.jackson.databind.node.ObjectNode) json(full)), EventValidator.bindIfClean(bytes(full)));
        // what only the tree path can answer, with its pointer: null here
        for (String undecided : List.of(
                "{\"type\":\"t\",\"to\":{\"users\":[\"1\"]}}", // no id: the record key's rule
                "{\"id\":\"a\",\"type\":\"t\",\"to\":{\"users\":[\"1\"]},\"data\":{\"deep\":[{\"n\":-1E400}]}}",
                "{\"id\":\"a\",\"type\":\"t\",\"to\":{\"users\":[\"1\"]},\"fallback\":{\"after\":1e999}}",
                "{\"id\":\"a\",\"type\":\"t\",\"to\":{\"users\":[\"1\"]},\"extra\":1}",
                "{\"id\":\"a\",\"type\":\"notify.inbox.state\",\"to\":{\"users\":[\"1\"]}}",
                "{\"id\":\"a\",\"type\":",
                "[1]",
                "null",
                "")) {
            assertNull(EventValidator.bindIfClean(bytes(undecided)), undecided);
        }
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void theReservedTypesOfNotifysOwnEventsAreRefused_theInboxStateFramesAmongThem() {
        List<Violation> found = violations("{\"type\":\"notify.inbox.state\",\"to\":{\"users\":[\"1\"]},\"class\":\"ephemeral\"}");
        assertEquals(List.of("/type"), found.stream().map(Violation::pointer).toList());
        // a record bound without the schema pass still meets the envelope's own rule
        assertThrows(InvalidEventException.class, () -> validator.bind((com.fasterxml.jackson.databind.node.ObjectNode)
                json("{\"id\":\"x\",\"type\":\"notify.inbox.state\",\"to\":{\"users\":[\"1\"]}}")));
    }

    @Test
    void fullEventBindsEveryField() {
        EventEnvelope e = validator.parse(("{\"id\":\"ord-1:shipped\",\"type\":\"order.shipped\",\"to\":{\"users\":[\"42\",\"43\"]},"
                + "\"class\":\"ephemeral\",\"data\":{\"n\":1},\"occurredAt\":\"2026-11-29T10:15:30.123+01:00\","
                + "\"collapseKey\":\"progress\",\"source\":\"orders\"}").getBytes(StandardCharsets.UTF_8));
        assertEquals("ord-1:shipped", e.id());
        assertEquals(EventClass.EPHEMERAL, e.eventClass());
        assertEquals(1, e.data().get("n").asInt());
        assertEquals("2026-11-29T09:15:30.123Z", e.occurredAt().toInstant().toString());
        assertEquals("progress", e.collapseKey());
        assertEquals("orders", e.source());
    }

    @Test
    void roomsAndBroadcastAddressTheirStreams() {
        EventEnvelope e = validator.parse("{\"type\":\"chat.message\",\"to\":{\"rooms\":[\"chat-1\",\"org-7.ops\"],\"broadcast\":true}}"
                .getBytes(java.nio.charset.StandardCharsets.UTF_8));
        assertEquals(List.of(), e.to().users());
        assertEquals(List.of("r:chat-1", "r:org-7.ops", "b:all"), io.notify.protocol.stream.StreamId.addressedBy(e.to()).stream().map(Object::toString).toList());
        assertEquals("r:chat-1", e.recordKey());
        assertEquals("b:all", validator.parse("{\"type\":\"banner\",\"to\":{\"broadcast\":true}}"
                .getBytes(java.nio.charset.StandardCharsets.UTF_8)).recordKey());
        assertEquals("u:42", validator.parse("{\"type\":\"a\",\"to\":{\"users\":[\"42\"],\"rooms\":[\"r1\"]}}"
                .getBytes(java.nio.charset.StandardCharsets.UTF_8)).recordKey());
        // nobody addressed (no users, no rooms, broadcast absent or false): each way of addressing is named
        List<String> nobody = List.of("/to/users", "/to/rooms", "/to/broadcast");
        assertEquals(nobody, pointers(violations("{\"type\":\"a\",\"to\":{}}")));
        assertEquals(nobody, pointers(violations("{\"type\":\"a\",\"to\":{\"broadcast\":false}}")));
        String rooms101 = String.join(",", java.util.stream.IntStream.range(0, 101).mapToObj(i -> "\"r" + i + "\"").toList());
        assertEquals(List.of("/to/rooms"), pointers(violations("{\"type\":\"a\",\"to\":{\"rooms\":[" + rooms101 + "]}}")));
    }

    @Test
    void violationsNameThePointerOfTheBadField() {
        assertEquals(List.of("/type"), pointers(violations("{\"to\":{\"users\":[\"1\"]}}")));
        assertEquals(List.of("/to/users/1"), pointers(violations("{\"type\":\"a\",\"to\":{\"users\":[\"1\",\"bad|id\"]}}")));
        assertEquals(List.of("/to/users"), pointers(violations("{\"type\":\"a\",\"to\":{\"users\":[]}}")));
        assertEquals(List.of("/to/rooms/0"), pointers(violations("{\"type\":\"a\",\"to\":{\"users\":[\"1\"],\"rooms\":[\"a@b\"]}}")));
        assertEquals(List.of("/to/rooms"), pointers(violations("{\"type\":\"a\",\"to\":{\"rooms\":[\"x\",\"x\"]}}")));
        assertEquals(List.of("/to/everyone"), pointers(violations("{\"type\":\"a\",\"to\":{\"users\":[\"1\"],\"everyone\":true}}")));
        assertEquals(List.of("/colour"), pointers(violations("{\"type\":\"a\",\"to\":{\"users\":[\"1\"]},\"colour\":1}")));
        assertEquals(List.of("/class"), pointers(violations("{\"type\":\"a\",\"to\":{\"users\":[\"1\"]},\"class\":\"urgent\"}")));
        assertEquals(List.of("/id"), pointers(violations("{\"id\":\"has space\",\"type\":\"a\",\"to\":{\"users\":[\"1\"]}}")));
        assertEquals(List.of("/data"), pointers(violations("{\"type\":\"a\",\"to\":{\"users\":[\"1\"]},\"data\":[1]}")));
        assertEquals(List.of("/occurredAt"), pointers(violations("{\"type\":\"a\",\"to\":{\"users\":[\"1\"]},\"occurredAt\":\"yesterday\"}")));
        assertEquals(List.of("/to/users"), pointers(violations("{\"type\":\"a\",\"to\":{\"users\":[\"1\",\"1\"]}}")));
    }

    @Test
    void dataOver64KiBIsRejected() {
        String big = "x".repeat(EventEnvelope.MAX_DATA_BYTES);
        List<Violation> v = violations("{\"type\":\"a\",\"to\":{\"users\":[\"1\"]},\"data\":{\"s\":\"" + big + "\"}}");
        assertEquals(List.of("/data"), pointers(v));
        assertTrue(v.get(0).message().contains("65536"), v.get(0).message());
        String fits = "x".repeat(EventEnvelope.MAX_DATA_BYTES - 8);
        assertEquals(List.of(), violations("{\"type\":\"a\",\"to\":{\"users\":[\"1\"]},\"data\":{\"s\":\"" + fits + "\"}}"));
    }

    @Test
    void encodeMeasuresDataOnTheWrittenValueAsValidateDoes() throws Exception {
        // {"s":"..."} is 8 bytes around the string; "é" is 2 bytes of UTF-8 and a newline 2 escaped bytes.
        for (String unit : List.of("x", "\u00e9", "\\n")) {
            int unitBytes = unit.equals("x") ? 1 : 2;
            int fitting = (EventEnvelope.MAX_DATA_BYTES - 8) / unitBytes;
            for (int n : new int[] {fitting, fitting + 1}) {
                String doc = "{\"id\":\"e-1\",\"type\":\"a\",\"to\":{\"users\":[\"1\"]},\"source\":\"s\","
                        + "\"data\":{\"s\":\"" + unit.repeat(n) + "\"}}";
                boolean fits = 8 + n * unitBytes <= EventEnvelope.MAX_DATA_BYTES;
                assertEquals(fits, violations(doc).isEmpty(), unit + " x " + n);
                if (fits) {
                    EventValidator.Encoded encoded = validator.encode(json(doc));
                    assertEquals(new String(NotifyJson.mapper().writeValueAsBytes(encoded.event()), StandardCharsets.UTF_8),
                            new String(encoded.json(), StandardCharsets.UTF_8));
                } else {
                    InvalidEventException e = assertThrows(InvalidEventException.class, () -> validator.encode(json(doc)));
                    assertEquals(violations(doc), e.violations());
                }
            }
        }
        assertEquals(List.of("/type"), pointers(assertThrows(InvalidEventException.class,
                () -> validator.encode(json("{\"to\":{\"users\":[\"1\"]}}"))).violations()));
    }

    @Test
    void tooManyRecipientsIsRejected() {
        StringBuilder sb = new StringBuilder("{\"type\":\"a\",\"to\":{\"users\":[");
        for (int i = 0; i <= Recipients.MAX_USERS; i++) {
            sb.append(i == 0 ? "" : ",").append('"').append(i).append('"');
        }
        sb.append("]}}");
        assertEquals(List.of("/to/users"), pointers(violations(sb.toString())));
    }

    @Test
    void malformedJsonIsAViolationAtTheRoot() {
        InvalidEventException e = assertThrows(InvalidEventException.class,
                () -> validator.parse("{\"type\":".getBytes(StandardCharsets.UTF_8)));
        assertEquals("", e.violations().get(0).pointer());
        assertTrue(e.getMessage().contains("malformed JSON"), e.getMessage());
    }

    @Test
    void impossibleDateIsReportedAtItsField() {
        InvalidEventException e = assertThrows(InvalidEventException.class, () -> validator.parse(
                "{\"type\":\"a\",\"to\":{\"users\":[\"1\"]},\"occurredAt\":\"2026-02-30T00:00:00Z\"}".getBytes(StandardCharsets.UTF_8)));
        assertEquals("/occurredAt", e.violations().get(0).pointer());
    }

    private static List<String> pointers(List<Violation> v) {
        return v.stream().map(Violation::pointer).distinct().toList();
    }

    @Test
    void aFallbackIsAcceptedAndWhatIsWrongWithItNamed() {
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
