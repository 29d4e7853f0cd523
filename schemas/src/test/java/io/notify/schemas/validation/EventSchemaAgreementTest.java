package io.notify.schemas.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.notify.protocol.NotifyJson;
import io.notify.protocol.event.EventClass;
import io.notify.protocol.event.EventEnvelope;
import io.notify.protocol.event.EventIds;
import io.notify.protocol.event.Recipients;
import io.notify.schemas.JsonNames;
import java.time.OffsetDateTime;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** Keeps EventEnvelope (and its parts) and event-v1.schema.json saying the same thing. */
class EventSchemaAgreementTest {

    private final JsonNode schema = JsonNames.resource(EventValidator.SCHEMA_RESOURCE);
    private final JsonNode props = schema.get("properties");

    @Test
    void propertyNamesEqualTheRecordsJsonNames() {
        assertEquals(JsonNames.fieldNames(props), JsonNames.of(EventEnvelope.class));
        assertEquals(JsonNames.fieldNames(props.get("to").get("properties")), JsonNames.of(Recipients.class));
    }

    @Test
    void javaRulesEqualSchemaRules() {
        assertEquals(props.get("id").get("pattern").asText(), EventIds.ID.pattern());
        assertEquals(props.get("type").get("pattern").asText(), EventEnvelope.TYPE.pattern());
        JsonNode users = props.get("to").get("properties").get("users");
        assertEquals(users.get("items").get("pattern").asText(), Recipients.USER_ID.pattern());
        assertEquals(users.get("maxItems").asInt(), Recipients.MAX_USERS);
        assertEquals(users.get("minItems").asInt(), 1);
        for (String text : List.of("collapseKey", "source")) {
            assertEquals(props.get(text).get("maxLength").asInt(), EventEnvelope.MAX_TEXT_LENGTH, text);
        }
        assertEquals(JsonNames.texts(props.get("class").get("enum")),
                Arrays.stream(EventClass.values()).map(EventClass::wireName).collect(Collectors.toCollection(TreeSet::new)));
        assertEquals(EventClass.DURABLE.wireName(), props.get("class").get("default").asText());
        assertEquals(Set.of("type", "to"), JsonNames.texts(schema.get("required")));
    }

    @Test
    void samplesWrittenFromRecordsAreValidAndRoundTrip() throws Exception {
        for (EventEnvelope sample : samples()) {
            JsonNode json = NotifyJson.mapper().valueToTree(sample);
            assertEquals(List.of(), EventValidator.v1().validate(json), json.toString());
            byte[] bytes = NotifyJson.mapper().writeValueAsBytes(sample);
            assertEquals(sample, NotifyJson.mapper().readValue(bytes, EventEnvelope.class));
            assertEquals(sample, EventValidator.v1().parse(bytes));
        }
    }

    @Test
    void exactJsonOfAFullEnvelope() throws Exception {
        assertEquals("{\"id\":\"ord-1:shipped\",\"type\":\"order.shipped\",\"to\":{\"users\":[\"42\",\"43\"]},"
                        + "\"class\":\"durable\",\"data\":{\"orderId\":\"ord-1\"},\"occurredAt\":\"2026-11-29T10:15:30.123+01:00\","
                        + "\"source\":\"orders\"}",
                NotifyJson.mapper().writeValueAsString(samples().get(1)));
    }

    static List<EventEnvelope> samples() {
        ObjectNode data = JsonNodeFactory.instance.objectNode().put("orderId", "ord-1");
        return List.of(
                EventEnvelope.durable("order.shipped", null, "42"),
                new EventEnvelope("ord-1:shipped", "order.shipped", Recipients.users("42", "43"), EventClass.DURABLE, data,
                        OffsetDateTime.parse("2026-11-29T10:15:30.123+01:00"), null, "orders"),
                new EventEnvelope("typing-7", "chat.typing", Recipients.users("a@b.c"), EventClass.EPHEMERAL,
                        JsonNodeFactory.instance.objectNode().set("nested", JsonNodeFactory.instance.arrayNode().add(1)),
                        OffsetDateTime.parse("2026-01-01T00:00:00Z"), "typing:r1", "chat"));
    }
}
