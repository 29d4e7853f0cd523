package io.notify.schemas.asyncapi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.Schema;
import io.notify.protocol.NotifyJson;
import io.notify.protocol.frame.Frame;
import io.notify.protocol.frame.FrameCodec;
import io.notify.protocol.frame.FrameType;
import io.notify.protocol.frame.Frames;
import io.notify.protocol.frame.WelcomeFrame;
import io.notify.protocol.push.PushRegistration;
import io.notify.protocol.stream.Endpoints;
import io.notify.schemas.JsonNames;
import io.notify.schemas.topic.DlqFailure;
import io.notify.schemas.topic.DlqHeaders;
import io.notify.schemas.topic.Topic;
import io.notify.schemas.topic.TopicCatalog;
import io.notify.schemas.trace.HopTrace;
import io.notify.schemas.validation.EventValidator;
import io.notify.schemas.validation.JsonSchemas;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;

/**
 * Keeps docs/asyncapi.yaml and the Java code saying the same thing: one channel per topic of
 * {@link TopicCatalog} and no other (but fanout-streams' internal repartition topic), one message
 * per {@link FrameType} on the WebSocket channel with the operations' directions of
 * {@link FrameType#sentByClient()}/{@link FrameType#sentByServer()}, header names equal to the
 * constants that write them, every {@code $ref} resolving, and records written by the project's
 * serdes ({@link TopicSamples}) and frames written by {@link FrameCodec} valid against the
 * schema the document points their channel at.
 */
class AsyncApiAgreementTest {

    private static final String FRAMES = "../schemas/src/main/resources/io/notify/schemas/protocol/frames-v1.schema.json";
    /** The frames that only answer a client frame, which SSE cannot send (docs/protocol.md, sections 1 and 8). */
    private static final Set<String> NOT_ON_SSE = Set.of("pong", "unsubscribed", "presence_result");
    private static final String NODE_ID_PARAMETER = "{nodeId}";
    /** The header the push sender adds on notify.push.dlq: the registration that failed. */
    private static final String PUSH_REGISTRATION_HEADER = "notify.push.registration";

    private final AsyncApiDocument doc = AsyncApiDocument.load();
    private final TopicCatalog catalog = TopicCatalog.production();

    @Test
    void everyTopicOfTheCatalogHasAChannelAndEveryKafkaChannelIsATopic() {
        // every topic constant of the catalog, a node topic with its parameter
        Set<String> expected = stringConstants(TopicCatalog.class, "notify.").stream()
                .map(name -> name.equals(TopicCatalog.NODE_PREFIX) ? name + NODE_ID_PARAMETER : name)
                .collect(Collectors.toCollection(TreeSet::new));
        assertEquals(expected, new TreeSet<>(kafkaChannels().keySet()));
        Set<String> built = catalog.fixedTopics().stream().map(Topic::name).collect(Collectors.toCollection(TreeSet::new));
        built.add(catalog.allNodes().name());
        built.add(TopicCatalog.NODE_PREFIX + NODE_ID_PARAMETER);
        assertEquals(expected, built, "the catalog builds a topic of every constant");

        kafkaChannels().forEach((address, id) -> {
            JsonNode kafka = doc.channel(id).path("bindings").path("kafka");
            assertTrue(kafka.path("partitions").asInt() >= 1, id + ": the kafka binding names its partitions");
            assertTrue(kafka.path("topicConfiguration").path("cleanup.policy").isArray(), id + ": cleanup.policy");
            if (!address.contains("{")) {
                assertEquals(address, kafka.path("topic").asText(), id + ": binding topic = address");
            }
        });
        assertEquals("[\"compact\"]", doc.channel("inboxState").at("/bindings/kafka/topicConfiguration/cleanup.policy").toString());
        assertEquals("[\"compact\"]", doc.channel("pushRegistrations").at("/bindings/kafka/topicConfiguration/cleanup.policy").toString());
        // applied where the user's stream lives, as receipts: the same (production) partition count
        assertEquals(doc.channel("receipts").at("/bindings/kafka/partitions").asInt(),
                doc.channel("pushChanges").at("/bindings/kafka/partitions").asInt());

        String nodeChannel = kafkaChannels().get(TopicCatalog.NODE_PREFIX + NODE_ID_PARAMETER);
        assertEquals(Set.of("nodeId"), JsonNames.fieldNames(doc.channel(nodeChannel).path("parameters")));
        String example = doc.channel(nodeChannel).at("/parameters/nodeId/examples/0").asText();
        assertEquals(catalog.node(example).name(), (TopicCatalog.NODE_PREFIX + NODE_ID_PARAMETER).replace(NODE_ID_PARAMETER, example));
        assertTrue(catalog.nodeIdOf(catalog.node(example).name()).isPresent());
    }

    @Test
    void theOnlyKafkaChannelOutsideTheCatalogIsFanoutsRepartitionTopic() {
        Map<String, String> internal = new HashMap<>();
        doc.root().path("channels").fields().forEachRemaining(e -> {
            if (isKafka(e.getValue()) && e.getValue().path("x-internal").asBoolean()) {
                internal.put(e.getKey(), e.getValue().path("address").asText());
            }
        });
        // fanout-streams' FanoutConfigTest checks the address against FanoutTopology.byStreamTopic
        assertEquals(Map.of("byStream", "{applicationId}-by-stream-repartition"), internal);
    }

    @Test
    void everyFrameTypeHasAMessageOnTheWebSocketAndTheOperationsSendItTheRightWay() {
        Map<String, JsonNode> ws = doc.messages("webSocket");
        assertEquals(wireNames(t -> true), new TreeSet<>(ws.keySet()));
        ws.forEach((t, message) -> {
            assertEquals(t, message.path("name").asText(), "message name");
            assertEquals(FRAMES + "#/$defs/" + t, message.path("payload").path("$ref").asText(), t + ": payload");
        });

        Set<String> byClient = wireNames(FrameType::sentByClient);
        Set<String> byServer = wireNames(FrameType::sentByServer);
        assertEquals(byClient, doc.operationMessages("webSocket", "send"), "the client sends exactly the client frames");
        assertEquals(byServer, doc.operationMessages("webSocket", "receive"), "the client receives exactly the server frames");
        assertTrue(byServer.containsAll(doc.replyMessages("webSocket")), "replies are server frames");

        Set<String> sse = new TreeSet<>(byServer);
        sse.removeAll(NOT_ON_SSE);
        assertEquals(sse, new TreeSet<>(doc.messages("sse").keySet()));
        assertEquals(sse, doc.operationMessages("sse", "receive"));
        doc.messages("sse").forEach((t, message) -> assertEquals(ws.get(t), message, t + ": the same message as on the WebSocket"));

        JsonNode handshake = doc.channel("webSocket").path("bindings").path("ws");
        assertEquals(WelcomeFrame.PROTOCOL_V1, handshake.at("/headers/properties/Sec-WebSocket-Protocol/const").asText());
        assertEquals(Endpoints.CONNECTION_ID.pattern(), doc.deref(handshake.path("query")).at("/properties/device/pattern").asText(),
                "?device= follows the rule Receipt applies to device");
    }

    @Test
    void framesWrittenByTheCodecAreValidAgainstTheirMessagesPayload() throws Exception {
        Map<String, JsonNode> ws = doc.messages("webSocket");
        List<Frame> frames = new ArrayList<>(Frames.SERVER);
        frames.addAll(Frames.CLIENT);
        Set<String> covered = new TreeSet<>();
        for (Frame frame : frames) {
            String t = frame.frameType().wireName();
            JsonNode json = NotifyJson.mapper().readTree(FrameCodec.v1().encode(frame));
            Schema payload = doc.schema(ws.get(t).path("payload").path("$ref").asText());
            assertEquals(List.of(), payload.validate(json), json.toString());
            covered.add(t);
        }
        assertEquals(ws.keySet(), covered);
        Schema welcome = doc.schema(ws.get("welcome").path("payload").path("$ref").asText());
        assertFalse(welcome.validate(NotifyJson.mapper().readTree("{\"t\":\"welcome\"}")).isEmpty(), "a payload schema that accepts anything");
    }

    @Test
    void recordsWrittenByTheSerdesAreValidAgainstTheSchemaOfTheirChannel() {
        Map<String, List<TopicSamples.Sample>> samples = TopicSamples.byAddress(catalog);
        Set<String> withSchema = new TreeSet<>();
        kafkaChannels().forEach((address, id) -> {
            for (JsonNode message : doc.messages(id).values()) {
                String ref = message.path("payload").path("$ref").asText();
                if (ref.isEmpty()) {
                    continue; // raw bytes (the DLQ): headers are checked below
                }
                withSchema.add(address);
                Schema payload = doc.schema(ref);
                Schema key = keySchema(message);
                assertFalse(samples.getOrDefault(address, List.of()).isEmpty(), address + ": no sample record in TopicSamples");
                for (TopicSamples.Sample sample : samples.get(address)) {
                    if (!sample.is(message.path("name").asText())) {
                        continue; // another message of the channel (notify.events: an event or a recall)
                    }
                    JsonNode value = readJson(sample.value());
                    assertEquals(List.of(), payload.validate(value), address + " value " + value);
                    JsonNode keyText = NotifyJson.mapper().getNodeFactory().textNode(new String(sample.key(), StandardCharsets.UTF_8));
                    assertEquals(List.of(), key.validate(keyText), address + " key " + keyText);
                }
            }
        });
        assertEquals(samples.keySet(), withSchema, "every sampled topic has a channel with a payload schema, and vice versa");
    }

    @Test
    void theSchemasRejectWhatTheRecordsCannotHold() {
        Schema receipt = doc.schema(doc.payloadRef("receipts"));
        Schema inboxState = doc.schema(doc.payloadRef("inboxState"));
        Schema delivery = doc.schema(doc.payloadRef(kafkaChannels().get(TopicCatalog.NODE_PREFIX + NODE_ID_PARAMETER)));
        for (String invalid : List.of(
                "{\"stream\":\"u:42\",\"kind\":\"read\",\"upTo\":3,\"ids\":[\"a\"],\"at\":1}",
                "{\"stream\":\"u:42\",\"kind\":\"ack\",\"upTo\":3,\"at\":1}",
                "{\"stream\":\"r:chat-1\",\"kind\":\"read\",\"upTo\":3,\"at\":1}")) {
            assertFalse(receipt.validate(AsyncApiDocument.json(invalid)).isEmpty(), invalid);
        }
        assertFalse(inboxState.validate(AsyncApiDocument.json("{\"stream\":\"u:42\",\"epoch\":\"e\"}")).isEmpty());
        assertFalse(delivery.validate(AsyncApiDocument.json("{\"stream\":\"u:42\",\"connections\":[],\"routedAt\":1,"
                + "\"event\":{\"stream\":\"u:42\",\"id\":\"x\",\"type\":\"a\",\"class\":\"durable\",\"data\":{},\"ingestedAt\":1}}")).isEmpty(),
                "a durable event without a position");
    }

    @Test
    void headerNamesAreTheConstantsThatWriteThem() {
        JsonNode dlqHeaders = doc.deref(doc.messages("eventsDlq").get("deadLetter").path("headers"));
        assertEquals(stringConstants(DlqHeaders.class, "notify."), JsonNames.fieldNames(dlqHeaders.path("properties")));
        ObjectNode written = NotifyJson.mapper().createObjectNode();
        for (Header h : new DlqFailure("/to/users: is required", DlqHeaders.KIND_SCHEMA, catalog.events().name(), 3, 1234,
                Instant.parse("2026-11-29T09:15:30.123Z")).writeTo(new RecordHeaders())) {
            written.put(h.key(), new String(h.value(), StandardCharsets.UTF_8));
        }
        assertEquals(List.of(), JsonSchemas.compile(dlqHeaders).validate(written), written.toString());
        assertEquals(DlqHeaders.MAX_ERROR_LENGTH, dlqHeaders.at("/properties/notify.error/maxLength").asInt());
        assertEquals(DlqFailure.KIND.pattern(), dlqHeaders.at("/properties/notify.error.kind/pattern").asText());

        // notify.push.dlq: the same headers, plus the failed registration's id on a narrowed record (the push sender's
        // Outcomes.REGISTRATION_HEADER; the push module is downstream of this one, hence the literal)
        JsonNode pushDeadLetter = doc.deref(doc.messages("pushDlq").get("pushDeadLetter").path("headers"));
        List<Schema> parts = new ArrayList<>();
        Set<String> names = new TreeSet<>();
        for (JsonNode part : pushDeadLetter.path("allOf")) {
            parts.add(JsonSchemas.compile(doc.deref(part)));
            names.addAll(JsonNames.fieldNames(doc.deref(part).path("properties")));
        }
        Set<String> pushNames = new TreeSet<>(stringConstants(DlqHeaders.class, "notify."));
        pushNames.add(PUSH_REGISTRATION_HEADER);
        assertEquals(pushNames, names);
        assertEquals(PushRegistration.ID.pattern(), pushDeadLetter.at("/allOf/1/properties/" + PUSH_REGISTRATION_HEADER + "/pattern").asText());
        ObjectNode narrowed = written.deepCopy().put(PUSH_REGISTRATION_HEADER, TopicSamples.APNS.id());
        for (Schema part : parts) {
            assertEquals(List.of(), part.validate(narrowed), narrowed.toString());
        }
        assertFalse(parts.stream().allMatch(part -> part.validate(written).isEmpty()), "a narrowed record names its registration");
        JsonNode unreadable = doc.deref(doc.messages("pushDlq").get("unreadableFallback").path("headers"));
        assertEquals(List.of(), JsonSchemas.compile(unreadable).validate(written), written.toString());
        assertEquals(dlqHeaders, unreadable);

        JsonNode hops = doc.deref(doc.root().at("/components/schemas/hopTraceHeaders"));
        assertEquals(stringConstants(HopTrace.class, "nf-hop-"), JsonNames.fieldNames(hops.path("properties")));
        JsonNode events = doc.messages("events").get("eventEnvelope").path("headers").path("properties");
        assertEquals(EventValidator.VALIDATED_VALUE, events.path(EventValidator.VALIDATED_HEADER).path("const").asText());
        assertTrue(events.has(HopTrace.ACCEPT));
    }

    @Test
    void everyReferenceResolves() {
        List<String> refs = doc.allRefs();
        int files = 0;
        for (String ref : refs) {
            if (ref.startsWith("#")) {
                doc.deref(NotifyJson.mapper().createObjectNode().put("$ref", ref));
            } else {
                files++;
                assertFalse(doc.target(ref).isMissingNode(), "the pointer of " + ref + " names nothing in " + doc.fileOf(ref));
            }
        }
        assertTrue(files >= FrameType.values().length + 7, "references into the schema files: " + files);
    }

    /** Kafka channels by address (the catalog's topic names; a node topic with its parameter), excluding internal topics. */
    private Map<String, String> kafkaChannels() {
        Map<String, String> out = new HashMap<>();
        doc.root().path("channels").fields().forEachRemaining(e -> {
            if (isKafka(e.getValue()) && !e.getValue().path("x-internal").asBoolean()) {
                assertTrue(out.put(e.getValue().path("address").asText(), e.getKey()) == null, "two channels for one topic");
            }
        });
        return out;
    }

    private static boolean isKafka(JsonNode channel) {
        for (JsonNode server : channel.path("servers")) {
            if (server.path("$ref").asText().equals("#/servers/kafka")) {
                return true;
            }
        }
        return false;
    }

    /** The message's Kafka key schema, directly or from a trait. */
    private Schema keySchema(JsonNode message) {
        JsonNode key = message.at("/bindings/kafka/key");
        for (JsonNode trait : message.path("traits")) {
            if (key.isMissingNode()) {
                key = doc.deref(trait).at("/bindings/kafka/key");
            }
        }
        assertFalse(key.isMissingNode(), "no kafka key for " + message.path("name"));
        key = doc.deref(key);
        assertTrue(key.has("$ref"), "the key names the stream id schema: " + key);
        return doc.schema(key.get("$ref").asText());
    }

    private static Set<String> wireNames(java.util.function.Predicate<FrameType> p) {
        return Arrays.stream(FrameType.values()).filter(p).map(FrameType::wireName).collect(Collectors.toCollection(TreeSet::new));
    }

    /** The values of the public static String constants of {@code type} that start with {@code prefix}. */
    private static Set<String> stringConstants(Class<?> type, String prefix) {
        Set<String> out = new TreeSet<>();
        for (Field f : type.getFields()) {
            if (Modifier.isStatic(f.getModifiers()) && f.getType() == String.class) {
                try {
                    String v = (String) f.get(null);
                    if (v.startsWith(prefix)) {
                        out.add(v);
                    }
                } catch (IllegalAccessException e) {
                    throw new AssertionError(e);
                }
            }
        }
        return out;
    }

    private static JsonNode readJson(byte[] json) {
        try {
            return NotifyJson.mapper().readTree(json);
        } catch (java.io.IOException e) {
            throw new AssertionError("not JSON: " + new String(json, StandardCharsets.UTF_8), e);
        }
    }
}
