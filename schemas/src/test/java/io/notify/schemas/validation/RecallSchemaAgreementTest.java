package io.notify.schemas.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.notify.protocol.NotifyJson;
import io.notify.protocol.event.EventEnvelope;
import io.notify.protocol.event.EventIds;
import io.notify.protocol.event.Recall;
import io.notify.protocol.event.Recipients;
import io.notify.schemas.JsonNames;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Keeps Recall (and its parts) and recall-v1.schema.json saying the same thing, and its {@code to} the same as an event's. */
class RecallSchemaAgreementTest {

    private final JsonNode schema = JsonNames.resource(RecallValidator.SCHEMA_RESOURCE);
    private final JsonNode props = schema.get("properties");

    @Test
    void propertyNamesEqualTheRecordsJsonNames() {
        assertEquals(JsonNames.fieldNames(props), JsonNames.of(Recall.class));
        assertEquals(JsonNames.fieldNames(props.get("recall").get("properties")), JsonNames.of(Recall.Target.class));
        assertEquals(JsonNames.fieldNames(props.get("to").get("properties")), JsonNames.of(Recipients.class));
    }

    @Test
    void javaRulesEqualSchemaRules() {
        assertEquals(props.get("id").get("pattern").asText(), EventIds.ID.pattern());
        JsonNode target = props.get("recall").get("properties");
        assertEquals(target.get("id").get("pattern").asText(), EventIds.ID.pattern());
        assertEquals(target.get("cancellationKey").get("pattern").asText(), EventEnvelope.TYPE.pattern());
        assertEquals(Set.of("recall", "to"), JsonNames.texts(schema.get("required")));
    }

    /** The schema repeats event-v1's {@code to} (a recall names streams as an event does): the two must not drift apart. */
    @Test
    void theToBlockIsAnEventsTo() {
        JsonNode eventTo = JsonNames.resource(EventValidator.SCHEMA_RESOURCE).get("properties").get("to");
        assertEquals(withoutDescriptions(eventTo), withoutDescriptions(props.get("to")));
    }

    @Test
    void samplesWrittenFromRecordsAreValidAndRoundTrip() {
        for (Recall sample : List.of(
                new Recall("r-1", Recall.Target.event("ord-1:shipped"), Recipients.users("42", "43")),
                new Recall("r-2", Recall.Target.key("order.ord-1"), Recipients.users("42")))) {
            JsonNode json = NotifyJson.mapper().valueToTree(sample);
            assertEquals(sample, RecallValidator.toRecall(json), json.toString());
        }
    }

    private static JsonNode withoutDescriptions(JsonNode node) {
        JsonNode copy = node.deepCopy();
        strip(copy);
        return copy;
    }

    private static void strip(JsonNode node) {
        if (node instanceof ObjectNode object) {
            object.remove("description");
        }
        node.forEach(RecallSchemaAgreementTest::strip);
    }
}
