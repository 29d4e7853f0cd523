package io.notify.schemas.topic;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import io.notify.protocol.event.EventEnvelope;
import io.notify.protocol.event.EventIds;
import io.notify.protocol.event.Fallback;
import io.notify.protocol.event.Recipients;
import io.notify.protocol.inbox.FallbackRecord;
import io.notify.protocol.inbox.InboxState;
import io.notify.protocol.inbox.Marks;
import io.notify.protocol.inbox.Receipt;
import io.notify.protocol.inbox.ReceiptKind;
import io.notify.protocol.push.PushChange;
import io.notify.protocol.push.PushOutcome;
import io.notify.protocol.push.PushRegistration;
import io.notify.protocol.push.PushRegistrations;
import io.notify.protocol.stream.DeliveryMessage;
import io.notify.protocol.stream.Endpoints;
import io.notify.protocol.stream.LiveEvent;
import io.notify.protocol.stream.Position;
import io.notify.protocol.stream.SequencedEvent;
import io.notify.protocol.stream.StreamId;
import io.notify.protocol.stream.UndeliveredEvent;
import io.notify.protocol.stream.UndeliveredReason;
import io.notify.schemas.JsonNames;
import java.util.Arrays;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Keeps the records of the internal topics and topic-values-v1.schema.json saying the same thing:
 * property names equal the JSON names Jackson writes, patterns and bounds equal the Java rules.
 * (AsyncApiAgreementTest validates records written by the serdes against it.)
 */
class TopicValuesSchemaAgreementTest {

    static final String RESOURCE = "/io/notify/schemas/topic-values-v1.schema.json";

    private final JsonNode defs = JsonNames.resource(RESOURCE).get("$defs");

    @Test
    void everyDefinitionHasTheRecordsFieldNames() {
        Map<String, Class<?>> records = Map.ofEntries(
                Map.entry("sequencedEvent", SequencedEvent.class),
                Map.entry("liveEvent", LiveEvent.class),
                Map.entry("deliveryMessage", DeliveryMessage.class),
                Map.entry("undeliveredEvent", UndeliveredEvent.class),
                Map.entry("receipt", Receipt.class),
                Map.entry("marks", Marks.class),
                Map.entry("inboxState", InboxState.class),
                Map.entry("fallbackRecord", FallbackRecord.class),
                Map.entry("fallback", Fallback.class),
                Map.entry("pushRegistration", PushRegistration.class),
                Map.entry("pushChange", PushChange.class),
                Map.entry("pushRegistrations", PushRegistrations.class),
                Map.entry("pushOutcome", PushOutcome.class));
        records.forEach((def, type) -> assertEquals(JsonNames.of(type), JsonNames.fieldNames(defs.get(def).get("properties")), def));
        assertEquals(JsonNames.of(InboxState.DeviceReceipt.class),
                JsonNames.fieldNames(defs.at("/inboxState/properties/devices/additionalProperties/properties")));
        assertEquals(JsonNames.of(FallbackRecord.Device.class),
                JsonNames.fieldNames(defs.at("/fallbackRecord/properties/devices/items/properties")));
        Map<String, Class<?>> registration = Map.of(
                "webpush", PushRegistration.WebPush.class,
                "fcm", PushRegistration.Fcm.class,
                "apns", PushRegistration.Apns.class);
        registration.forEach((member, type) -> assertEquals(JsonNames.of(type),
                JsonNames.fieldNames(defs.at("/pushRegistration/properties/" + member + "/properties")), "pushRegistration." + member));
        assertEquals(JsonNames.of(PushRegistration.Keys.class),
                JsonNames.fieldNames(defs.at("/pushRegistration/properties/webpush/properties/keys/properties")));
    }

    @Test
    void javaRulesEqualSchemaRules() {
        assertEquals(StreamId.PATTERN.pattern(), defs.at("/stream/pattern").asText());
        assertEquals("^u:" + Recipients.USER_ID.pattern().substring(1), defs.at("/userStream/pattern").asText());
        assertEquals(Recipients.USER_ID.pattern(), defs.at("/userId/pattern").asText());
        assertEquals(Position.EPOCH.pattern(), defs.at("/epoch/pattern").asText());
        assertEquals(Position.MAX_SEQ, defs.at("/seq/maximum").asLong());
        assertEquals(Position.MAX_SEQ, defs.at("/marks/properties/upTo/maximum").asLong());
        assertEquals(Endpoints.CONNECTION_ID.pattern(), defs.at("/device/pattern").asText());
        assertEquals(Endpoints.CONNECTION_ID.pattern(), defs.at("/deliveryMessage/properties/connections/items/pattern").asText());
        assertEquals(DeliveryMessage.MAX_CONNECTIONS, defs.at("/deliveryMessage/properties/connections/maxItems").asInt());
        assertEquals(EventIds.ID.pattern(), defs.at("/eventId/pattern").asText());
        assertEquals(EventEnvelope.TYPE.pattern(), defs.at("/eventType/pattern").asText());
        assertEquals(EventEnvelope.MAX_TEXT_LENGTH, defs.at("/text/maxLength").asInt());
        assertEquals(Fallback.AFTER.pattern(), defs.at("/fallback/properties/after/pattern").asText());
        assertEquals(Fallback.CHANNEL.pattern(), defs.at("/fallback/properties/channel/pattern").asText());
        assertEquals(Fallback.CHANNEL.pattern(), defs.at("/fallbackRecord/properties/channel/pattern").asText());
        assertEquals(Receipt.MAX_IDS, defs.at("/receipt/properties/ids/maxItems").asInt());
        assertEquals(Marks.MAX_SEQS, defs.at("/marks/properties/seqs/maxItems").asInt());
        assertEquals(wireNames(ReceiptKind.values(), ReceiptKind::wireName), strings(defs.at("/receipt/properties/kind/enum")));
        assertEquals(wireNames(UndeliveredReason.values(), UndeliveredReason::wireName),
                strings(defs.at("/undeliveredEvent/properties/reason/enum")));
        assertEquals(wireNames(FallbackRecord.Reason.values(), FallbackRecord.Reason::wireName),
                strings(defs.at("/fallbackRecord/properties/reason/enum")));
        assertEquals(FallbackRecord.PUSH_CHANNEL, defs.at("/fallbackRecord/then/properties/channel/const").asText());
        assertEquals("#/$defs/pushRegistration", defs.at("/fallbackRecord/properties/push/items/$ref").asText());
    }

    @Test
    void pushRulesEqualSchemaRules() {
        assertEquals(PushRegistration.ID.pattern(), defs.at("/pushRegistrationId/pattern").asText());
        assertEquals(Set.of(PushRegistration.WEBPUSH, PushRegistration.FCM, PushRegistration.APNS), strings(defs.at("/pushProvider/enum")));
        JsonNode members = defs.at("/pushRegistration/properties");
        assertEquals(PushRegistration.WebPush.MAX_ENDPOINT, members.at("/webpush/properties/endpoint/maxLength").asInt());
        assertEquals(PushRegistration.Fcm.TOKEN.pattern(), members.at("/fcm/properties/token/pattern").asText());
        assertEquals(PushRegistration.Apns.TOKEN.pattern(), members.at("/apns/properties/token/pattern").asText());
        assertEquals(PushRegistration.Apns.TOPIC.pattern(), members.at("/apns/properties/topic/pattern").asText());
        // exactly one provider member, one alternative per provider
        Set<String> alternatives = new TreeSet<>();
        defs.at("/pushRegistration/oneOf").forEach(alt -> alternatives.add(alt.at("/required/0").asText()));
        assertEquals(Set.of(PushRegistration.WEBPUSH, PushRegistration.FCM, PushRegistration.APNS), alternatives);

        assertEquals(PushChange.MAX_REASON, defs.at("/pushReason/maxLength").asInt());
        assertEquals("#/$defs/pushReason", defs.at("/pushChange/properties/reason/$ref").asText());
        assertEquals("#/$defs/pushReason", defs.at("/pushOutcome/properties/reason/$ref").asText());
        assertEquals(wireNames(PushChange.Kind.values(), PushChange.Kind::wireName), strings(defs.at("/pushChange/properties/kind/enum")));
        assertEquals(PushChange.Kind.REGISTER.wireName(), defs.at("/pushChange/if/properties/kind/const").asText());
        assertEquals(wireNames(PushOutcome.Outcome.values(), PushOutcome.Outcome::wireName),
                strings(defs.at("/pushOutcome/properties/outcome/enum")));
        assertEquals(PushOutcome.Outcome.NO_REGISTRATION.wireName(), defs.at("/pushOutcome/if/properties/outcome/const").asText());
    }

    private static <E> Set<String> wireNames(E[] values, Function<E, String> wireName) {
        return Arrays.stream(values).map(wireName).collect(Collectors.toCollection(TreeSet::new));
    }

    private static Set<String> strings(JsonNode array) {
        Set<String> out = new TreeSet<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }
}
