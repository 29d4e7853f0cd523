package io.notify.schemas.validation;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import io.notify.protocol.NotifyJson;
import io.notify.protocol.event.EventIds;
import io.notify.protocol.event.Recall;
import java.util.ArrayList;
import java.util.List;

/**
 * Validates documents against the v1 recall schema ({@value #SCHEMA_RESOURCE}) and binds them to
 * {@link Recall}, with the same violations (pointer, message, rule) as {@link EventValidator}. A
 * {@code notify.events} record is a recall when it has a {@code recall} field ({@link #isRecall}).
 * Thread-safe.
 */
public final class RecallValidator {

    public static final String SCHEMA_RESOURCE = "/io/notify/schemas/recall-v1.schema.json";
    private static final Schema SCHEMA = JsonSchemas.load(SCHEMA_RESOURCE);

    private RecallValidator() {
    }

    /** Whether a {@code notify.events} document is a recall rather than an event. */
    public static boolean isRecall(JsonNode document) {
        return document.isObject() && document.has(Recall.FIELD);
    }

    /**
     * Validates and binds; an absent {@code id} is generated.
     *
     * @throws InvalidEventException with every violation when the document is not a valid recall
     */
    public static Recall toRecall(JsonNode document) {
        List<Violation> violations = new ArrayList<>();
        for (Error e : SCHEMA.validate(document)) {
            violations.add(EventValidator.toViolation(e, "v1 recall"));
        }
        if (!violations.isEmpty()) {
            throw new InvalidEventException(violations);
        }
        ObjectNode doc = (ObjectNode) document;
        try {
            return NotifyJson.mapper().treeToValue(doc.has("id") ? doc : doc.deepCopy().put("id", EventIds.generate()), Recall.class);
        } catch (JsonProcessingException | IllegalArgumentException e) {
            throw new InvalidEventException(List.of(new Violation(EventValidator.pointerOf(e), EventValidator.rootMessage(e))));
        }
    }
}
