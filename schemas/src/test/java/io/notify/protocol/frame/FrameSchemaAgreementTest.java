package io.notify.protocol.frame;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.Schema;
import io.notify.protocol.NotifyJson;
import io.notify.protocol.event.EventClass;
import io.notify.protocol.event.EventEnvelope;
import io.notify.protocol.event.EventIds;
import io.notify.protocol.stream.Endpoints;
import io.notify.protocol.stream.Position;
import io.notify.protocol.stream.StreamId;
import io.notify.schemas.JsonNames;
import io.notify.schemas.validation.FrameSchema;
import io.notify.schemas.validation.JsonSchemas;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** Keeps the frame records and protocol/frames-v1.schema.json saying the same thing. */
class FrameSchemaAgreementTest {

    private final JsonNode schemaDoc = JsonNames.resource(FrameSchema.RESOURCE);
    private final JsonNode defs = schemaDoc.get("$defs");
    private final Schema schema = JsonSchemas.load(FrameSchema.RESOURCE);

    @Test
    void everyFrameTypeHasADefWithTheRecordsFieldNames() {
        Set<String> wireNames = Arrays.stream(FrameType.values()).map(FrameType::wireName).collect(Collectors.toCollection(TreeSet::new));
        assertEquals(wireNames, strings(schemaDoc.get("properties").get("t").get("enum")));
        for (FrameType type : FrameType.values()) {
            JsonNode def = defs.get(type.wireName());
            Set<String> expected = new TreeSet<>(JsonNames.of(type.recordClass()));
            expected.add("t");
            assertEquals(expected, JsonNames.fieldNames(def.get("properties")), type.wireName());
            assertEquals(type.wireName(), def.get("properties").get("t").get("const").asText());
            assertFalse(def.get("additionalProperties").asBoolean(), type.wireName());
        }
        assertEquals(JsonNames.of(Position.class), JsonNames.fieldNames(defs.get("position").get("properties")));
        assertEquals(JsonNames.of(ResumePoint.class), JsonNames.fieldNames(defs.get("resumePoint").get("properties")));
    }

    @Test
    void javaRulesEqualSchemaRules() {
        assertEquals(StreamId.PATTERN.pattern(), defs.get("stream").get("pattern").asText());
        assertEquals(Position.EPOCH.pattern(), defs.get("epoch").get("pattern").asText());
        assertEquals(Position.MAX_SEQ, defs.get("seq").get("maximum").asLong());
        assertEquals(Position.MAX_SEQ, defs.get("reset").get("properties").get("firstSeq").get("maximum").asLong());
        JsonNode welcome = defs.get("welcome").get("properties");
        assertEquals(WelcomeFrame.PROTOCOL.pattern(), welcome.get("protocol").get("pattern").asText());
        assertEquals(Endpoints.NODE_ID.pattern(), welcome.get("nodeId").get("pattern").asText());
        assertEquals(Endpoints.CONNECTION_ID.pattern(), welcome.get("connectionId").get("pattern").asText());
        assertEquals(ResumeFrame.MAX_STREAMS, welcome.get("streams").get("maxItems").asInt());
        assertEquals(WelcomeFrame.MIN_PING_INTERVAL_MS, welcome.get("pingIntervalMs").get("minimum").asLong());
        assertEquals(WelcomeFrame.MAX_PING_INTERVAL_MS, welcome.get("pingIntervalMs").get("maximum").asLong());
        assertEquals(ResumeFrame.MAX_STREAMS, defs.get("resume").get("properties").get("streams").get("maxItems").asInt());
        JsonNode event = defs.get("event").get("properties");
        assertEquals(EventIds.ID.pattern(), event.get("id").get("pattern").asText());
        assertEquals(EventEnvelope.TYPE.pattern(), event.get("type").get("pattern").asText());
        assertEquals(Arrays.stream(EventClass.values()).map(EventClass::wireName).collect(Collectors.toCollection(TreeSet::new)),
                strings(event.get("class").get("enum")));
        assertEquals(Arrays.stream(ResetReason.values()).map(ResetReason::wireName).collect(Collectors.toCollection(TreeSet::new)),
                strings(defs.get("reset").get("properties").get("reason").get("enum")));
        assertEquals(Arrays.stream(SubscribeRefusedFrame.Reason.values()).map(SubscribeRefusedFrame.Reason::wireName)
                        .collect(Collectors.toCollection(TreeSet::new)),
                strings(defs.get("subscribe_refused").get("properties").get("reason").get("enum")));
        assertEquals(SubscribeFrame.MAX_STREAM_CHARS, defs.get("streamText").get("maxLength").asInt());
        assertEquals(Arrays.stream(CollapsedFrame.Reason.values()).map(CollapsedFrame.Reason::wireName)
                        .collect(Collectors.toCollection(TreeSet::new)),
                strings(defs.get("collapsed").get("properties").get("reason").get("enum")));
        assertEquals(EventIds.ID.pattern(), defs.get("recalled").get("properties").get("id").get("pattern").asText());
    }

    @Test
    void samplesOfEveryFrameValidate() throws Exception {
        List<Frame> all = new ArrayList<>(Frames.SERVER);
        all.addAll(Frames.CLIENT);
        Set<FrameType> covered = new TreeSet<>();
        for (Frame f : all) {
            JsonNode json = NotifyJson.mapper().readTree(FrameCodec.v1().encode(f));
            assertEquals(List.of(), schema.validate(json), json.toString());
            covered.add(f.frameType());
        }
        assertEquals(Set.of(FrameType.values()), covered);
    }

    @Test
    void schemaRejectsWhatTheRecordsCannotHold() throws Exception {
        for (String invalid : List.of(
                "{\"t\":\"event\",\"stream\":\"u:42\",\"id\":\"x\",\"type\":\"a\",\"class\":\"durable\",\"data\":{}}",
                "{\"t\":\"event\",\"stream\":\"u:42\",\"seq\":3,\"id\":\"x\",\"type\":\"a\",\"class\":\"ephemeral\",\"data\":{}}",
                "{\"t\":\"reset\",\"stream\":\"u:42\",\"reason\":\"unknown_stream\",\"firstSeq\":1}",
                "{\"t\":\"reset\",\"stream\":\"u:42\",\"reason\":\"epoch_mismatch\"}",
                "{\"t\":\"welcome\",\"protocol\":\"notify.v1\",\"nodeId\":\"n\",\"connectionId\":\"c\",\"streams\":[],"
                        + "\"pingIntervalMs\":25000,\"serverTime\":1}",
                "{\"t\":\"ack\",\"stream\":\"r:lob by\",\"seq\":1}",
                "{\"t\":\"subscribe\",\"stream\":\"r:lobby\",\"epoch\":\"e1\"}",
                "{\"t\":\"subscribe\",\"stream\":\"\"}",
                "{\"t\":\"subscribed\",\"stream\":\"u:42\",\"extra\":1}",
                "{\"t\":\"subscribe_refused\",\"stream\":\"r:x\",\"reason\":\"busy\",\"detail\":\"d\"}",
                "{\"t\":\"recalled\",\"stream\":\"u:42\",\"epoch\":\"e1\",\"seq\":7}",
                "{\"t\":\"recalled\",\"stream\":\"u:42\",\"epoch\":\"e1\",\"seq\":0,\"id\":\"ord-1\"}",
                "{\"t\":\"collapsed\",\"stream\":\"u:42\",\"epoch\":\"e1\",\"from\":7,\"to\":7,\"reason\":\"deleted\"}")) {
            assertFalse(schema.validate(NotifyJson.mapper().readTree(invalid)).isEmpty(), invalid);
        }
    }

    private static Set<String> strings(JsonNode array) {
        Set<String> out = new TreeSet<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }
}
