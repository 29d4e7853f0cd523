package io.notify.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.notify.common.config.Settings;
import io.notify.devstack.Infra;
import io.notify.devstack.NotifyInfraExtension;
import io.notify.schemas.topic.TopicCatalog;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.SequenceInputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/** The ingest API against the real broker: the 202 contract, idempotency and every error answer. */
@ExtendWith(NotifyInfraExtension.class)
@Timeout(120)
class IngestApiIT {

    static final String KEY = "Bearer it-orders-key-0123456789";
    static final String OTHER_PRODUCER = "Bearer it-billing-key-0123456789";
    static final ObjectMapper JSON = new ObjectMapper();
    static final long HEADER_TIMEOUT_MS = 1_000;
    static final OpenApiContract CONTRACT = OpenApiContract.fromRepository();

    static IngestServer server;
    static IngestClient client;
    static String topic;
    static String bootstrap;
    static String prefix;

    @BeforeAll
    static void start(Infra infra) {
        topic = infra.createTopic(TopicCatalog.of(infra.prefix()).events().name(), 3);
        bootstrap = infra.bootstrapServers();
        prefix = infra.prefix();
        // the default header timeout (10 s): it also closes a keep-alive connection idle that long, and a
        // shorter one raced the tests' pooled connections (a POST on a connection the server was closing)
        server = startServer(Map.of());
        client = new IngestClient(server.port(), CONTRACT);
    }

    static IngestServer startServer(Map<String, String> overrides) {
        Map<String, String> settings = new HashMap<>(Map.of(
                "notify.ingest.port", "0",
                "notify.ingest.host", "127.0.0.1",
                "notify.kafka.bootstrap-servers", bootstrap,
                "notify.topic-prefix", prefix,
                "notify.ingest.api-keys", "orders:it-orders-key-0123456789,billing:it-billing-key-0123456789",
                "notify.ingest.max-batch-items", "5",
                "notify.ingest.io-threads", "1",
                "notify.ingest.worker-threads", "4"));
        settings.putAll(overrides);
        return new IngestServer(IngestConfig.load(Settings.of(settings))).start();
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.stop();
        }
        assertTrue(CONTRACT.checked() > 0);
    }

    static String event(String id, String user) {
        return "{\"id\":\"" + id + "\",\"type\":\"order.shipped\",\"to\":{\"users\":[\"" + user + "\"]},"
                + "\"data\":{\"orderId\":\"" + id + "\"}}";
    }

    static String uniqueId() {
        return "ev-" + UUID.randomUUID();
    }

    static JsonNode body(HttpResponse<String> r) throws Exception {
        return JSON.readTree(r.body());
    }

    private static String idOf(byte[] value) {
        try {
            return JSON.readTree(value).path("id").asText(null);
        } catch (IOException e) {
            return null;
        }
    }

    /** Every record on the events topic whose event id is {@code id}, read_committed from the start of every partition. */
    static List<ConsumerRecord<String, byte[]>> recordsWithId(String id, int atLeast) {
        Map<String, Object> props = Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        try (var consumer = new KafkaConsumer<>(props, new StringDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> parts = consumer.partitionsFor(topic).stream()
                    .map(p -> new TopicPartition(topic, p.partition())).toList();
            consumer.assign(parts);
            consumer.seekToBeginning(parts);
            Map<TopicPartition, Long> end = consumer.endOffsets(parts);
            List<ConsumerRecord<String, byte[]>> out = new ArrayList<>();
            long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
            while (System.nanoTime() < deadline) {
                for (var rec : consumer.poll(Duration.ofMillis(200))) {
                    if (id.equals(idOf(rec.value()))) {
                        out.add(rec);
                    }
                }
                boolean atEnd = parts.stream().allMatch(p -> consumer.position(p) >= end.get(p));
                if (atEnd && out.size() >= atLeast) {
                    return out;
                }
            }
            return out;
        }
    }

    @Test
    void acceptedEventIsInKafkaUnderItsIdWhereTheAnswerSays() throws Exception {
        String id = uniqueId();
        HttpResponse<String> r = client.post(KEY, "application/json", event(id, "42"));
        assertEquals(202, r.statusCode(), r.body());
        JsonNode b = body(r);
        assertEquals(id, b.get("id").asText());
        assertEquals(topic, b.get("topic").asText());
        assertFalse(b.get("duplicate").asBoolean());

        var records = recordsWithId(id, 1);
        assertEquals(1, records.size());
        var rec = records.get(0);
        assertEquals(b.get("partition").asInt(), rec.partition());
        assertEquals(b.get("offset").asLong(), rec.offset());
        assertEquals("u:42", rec.key(), "keyed by the first recipient, so one user's events keep their order");
        JsonNode stored = JSON.readTree(rec.value());
        assertEquals("order.shipped", stored.get("type").asText());
        assertEquals("durable", stored.get("class").asText());
        assertEquals("orders", new String(rec.headers().lastHeader("notify.producer").value(), StandardCharsets.UTF_8));
    }

    @Test
    void sameIdTwiceYieldsOneRecordAndTheOriginalAnswer() throws Exception {
        String id = uniqueId();
        JsonNode first = body(client.post(KEY, "application/json", event(id, "7")));
        HttpResponse<String> again = client.post(KEY, "application/json",
                "{\"to\":{\"users\":[\"7\"]},\"data\":{\"orderId\":\"" + id + "\"},\"type\":\"order.shipped\",\"id\":\"" + id + "\"}");
        assertEquals(202, again.statusCode());
        JsonNode second = body(again);
        assertTrue(second.get("duplicate").asBoolean());
        assertEquals(first.get("offset"), second.get("offset"));
        assertEquals(first.get("partition"), second.get("partition"));
        assertEquals(1, recordsWithId(id, 1).size());
    }

    @Test
    void anIdIsTheProducersOwn_anotherProducersEqualIdIsAnotherEventAndLearnsNothing() throws Exception {
        String id = uniqueId();
        HttpResponse<String> a = client.post(KEY, "application/json", event(id, "1"));
        assertEquals(202, a.statusCode(), a.body());
        HttpResponse<String> b = client.post(OTHER_PRODUCER, "application/json", event(id, "2")); // another body: no 409 either
        assertEquals(202, b.statusCode(), b.body());
        assertFalse(body(b).get("duplicate").asBoolean(), "nothing of the other producer's event is told");
        assertFalse(body(a).get("offset").equals(body(b).get("offset")) && body(a).get("partition").equals(body(b).get("partition")));
        HttpResponse<String> same = client.post(OTHER_PRODUCER, "application/json", event(id, "1")); // a's body, from b
        assertEquals(409, same.statusCode(), "within b's own scope its id is taken by its own first event");
        assertEquals(2, recordsWithId(id, 2).size());
    }

    @Test
    void sameIdWithAnotherBodyIsAConflict() throws Exception {
        String id = uniqueId();
        assertEquals(202, client.post(KEY, "application/json", event(id, "1")).statusCode());
        HttpResponse<String> r = client.post(KEY, "application/json", event(id, "2"));
        assertEquals(409, r.statusCode());
        assertEquals("urn:notify:problem:idempotency-conflict", body(r).get("type").asText());
        assertEquals(1, recordsWithId(id, 1).size());
    }

    @Test
    void eventWithoutIdGetsAGeneratedOne() throws Exception {
        HttpResponse<String> r = client.post(KEY, "application/json", "{\"type\":\"a.b\",\"to\":{\"users\":[\"9\"]}}");
        assertEquals(202, r.statusCode());
        String id = body(r).get("id").asText();
        assertTrue(id.matches("[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}"), id);
        assertEquals(1, recordsWithId(id, 1).size());
    }

    @Test
    void missingOrWrongKeyIs401() throws Exception {
        HttpResponse<String> none = client.post(null, "application/json", event(uniqueId(), "1"));
        assertEquals(401, none.statusCode());
        assertEquals("Bearer", none.headers().firstValue("WWW-Authenticate").orElse(""));
        assertEquals(401, client.post("Bearer nope-nope-nope-nope-nope", "application/json", event(uniqueId(), "1")).statusCode());
    }

    @Test
    void schemaViolationsAre400NamingTheField() throws Exception {
        HttpResponse<String> r = client.post(KEY, "application/json",
                "{\"type\":\"a\",\"to\":{\"users\":[\"ok\",\"no|pipes\"]},\"class\":\"loud\"}");
        assertEquals(400, r.statusCode());
        JsonNode p = body(r);
        assertEquals("urn:notify:problem:invalid-event", p.get("type").asText());
        List<String> pointers = new ArrayList<>();
        p.get("errors").forEach(e -> pointers.add(e.get("pointer").asText()));
        assertTrue(pointers.contains("/to/users/1"), pointers.toString());
        assertTrue(pointers.contains("/class"), pointers.toString());
    }

    @Test
    void anEventAlreadyExpiredIs400ExpiredAndNothingIsWritten() throws Exception {
        String id = uniqueId();
        HttpResponse<String> r = client.post(KEY, "application/json", "{\"id\":\"" + id + "\",\"type\":\"flash.sale\","
                + "\"to\":{\"users\":[\"9\"]},\"expiresAt\":\"2020-01-01T00:00:00Z\"}");
        assertEquals(400, r.statusCode(), r.body());
        assertEquals("urn:notify:problem:expired", body(r).get("type").asText());
        assertTrue(body(r).get("detail").asText().contains("2020-01-01T00:00Z"), body(r).toString());
        String later = uniqueId();
        assertEquals(202, client.post(KEY, "application/json", "{\"id\":\"" + later + "\",\"type\":\"flash.sale\","
                + "\"to\":{\"users\":[\"9\"]},\"ttl\":\"10m\"}").statusCode(), "a ttl counts from acceptance");
        assertEquals(1, recordsWithId(later, 1).size());
        assertEquals(0, recordsWithId(id, 0).size(), "the expired one was not written");
        HttpResponse<String> both = client.post(KEY, "application/json", "{\"type\":\"a\",\"to\":{\"users\":[\"9\"]},"
                + "\"ttl\":\"1m\",\"expiresAt\":\"2030-01-01T00:00:00Z\"}");
        assertEquals(400, both.statusCode(), "expiresAt or ttl, not both");
    }

    @Test
    void malformedJsonIs400() throws Exception {
        HttpResponse<String> r = client.post(KEY, "application/json", "{\"type\":");
        assertEquals(400, r.statusCode());
        assertTrue(body(r).get("detail").asText().contains("malformed JSON"));
    }

    @Test
    void tooLargeIs413() throws Exception {
        String big = "{\"type\":\"a\",\"to\":{\"users\":[\"1\"]},\"data\":{\"s\":\"" + "x".repeat(70_000) + "\"}}";
        HttpResponse<String> r = client.post(KEY, "application/json", big);
        assertEquals(413, r.statusCode(), r.body());
        String huge = "[" + (event(uniqueId(), "1") + ",").repeat(6).replaceAll(",$", "") + "]";
        assertEquals(413, client.post(KEY, "application/json", huge).statusCode());
        String overBody = "x".repeat(4 * 1024 * 1024 + 1);
        HttpResponse<String> body = client.post(KEY, "application/json", overBody);
        assertEquals(413, body.statusCode());
        assertEquals("urn:notify:problem:body-too-large", body(body).get("type").asText());
    }

    /**
     * A client still sending a body the server refused by its Content-Length must read the 413, not a
     * reset: closing the socket with the body unread made TCP drop the answer (a full build's
     * tooLargeIs413 once failed so). Repeated, since one try can be lucky.
     */
    @Test
    void aBodyDeclaredOverTheBoundIs413NotAReset() {
        String overBody = "x".repeat(4 * 1024 * 1024 + 1);
        for (int i = 0; i < 20; i++) {
            HttpResponse<String> r = client.post(KEY, "application/json", overBody);
            assertEquals(413, r.statusCode(), "try " + i);
        }
    }

    @Test
    void aChunkedBodyOverTheBoundIs413NotAReset() throws Exception {
        byte[] chunk = "x".repeat(64 * 1024).getBytes(StandardCharsets.US_ASCII);
        int chunks = 4 * 1024 * 1024 / chunk.length + 2; // just over max-batch-bytes (4 MiB), in 64 KiB pieces
        // no Content-Length: the JDK client sends a body of unknown length chunked
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/v1/events"))
                .header("Authorization", KEY).header("Content-Type", "application/json")
                .timeout(Duration.ofSeconds(30))
                .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new SequenceInputStream(Collections.enumeration(
                        Collections.nCopies(chunks, chunk).stream().map(ByteArrayInputStream::new).toList()))))
                .build();
        HttpResponse<String> r = HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString());
        assertEquals(413, r.statusCode(), r.body());
        assertEquals("urn:notify:problem:body-too-large", body(r).get("type").asText());
    }

    @Test
    void aConnectionThatSendsNothingIsClosedAfterTheHeaderTimeout() throws Exception {
        try (IngestServer strict = startServer(Map.of("notify.ingest.request-header-timeout", HEADER_TIMEOUT_MS + "ms"));
             Socket idle = new Socket("127.0.0.1", strict.port())) {
            idle.setSoTimeout(15_000);
            long opened = System.nanoTime();
            assertEquals(-1, idle.getInputStream().read(), "the server closes it without a word");
            long heldMs = (System.nanoTime() - opened) / 1_000_000;
            assertTrue(heldMs < HEADER_TIMEOUT_MS + 2_000, "held " + heldMs + " ms; the header timeout is " + HEADER_TIMEOUT_MS + " ms");
        }
    }

    @Test
    void wrongContentTypeIs415() {
        assertEquals(415, client.post(KEY, "text/plain", event(uniqueId(), "1")).statusCode());
        assertEquals(415, client.post(KEY, null, event(uniqueId(), "1")).statusCode());
    }

    @Test
    void batchesAnswerPerItemAndABadItemLosesNothingElse() throws Exception {
        String a = uniqueId();
        String c = uniqueId();
        String ndjson = event(a, "1") + "\n{broken\n" + event(c, "3") + "\n"
                + "{\"type\":\"x\",\"to\":{\"users\":[]}}\n";
        HttpResponse<String> r = client.post(KEY, "application/x-ndjson", ndjson);
        assertEquals(207, r.statusCode(), r.body());
        JsonNode b = body(r);
        assertEquals(2, b.get("accepted").asInt());
        assertEquals(2, b.get("rejected").asInt());
        assertEquals(List.of(202, 400, 202, 400), statuses(b));
        assertEquals(1, recordsWithId(a, 1).size());
        assertEquals(1, recordsWithId(c, 1).size());

        String d = uniqueId();
        HttpResponse<String> all = client.post(KEY, "application/json", "[" + event(d, "4") + "," + event(d, "4") + "]");
        assertEquals(202, all.statusCode(), all.body());
        JsonNode ab = body(all);
        assertEquals(ab.get("results").get(0).get("offset"), ab.get("results").get(1).get("offset"));
        assertEquals(1, recordsWithId(d, 1).size());
    }

    @Test
    void aNumberOutOfRangeIs400NamingItAndSpoilsNoBatchMate() throws Exception {
        String bad = "{\"id\":\"" + uniqueId() + "\",\"type\":\"a\",\"to\":{\"users\":[\"1\"]},\"data\":{\"n\":[1,-1e999]}}";
        HttpResponse<String> single = client.post(KEY, "application/json", bad);
        assertEquals(400, single.statusCode(), single.body());
        assertEquals("/data/n/1", body(single).get("errors").get(0).get("pointer").asText());
        HttpResponse<String> noId = client.post(KEY, "application/json",
                "{\"type\":\"a\",\"to\":{\"users\":[\"1\"]},\"data\":{\"n\":1e999}}");
        assertEquals(400, noId.statusCode(), "never delivered as the string \"Infinity\": " + noId.body());

        String a = uniqueId();
        String c = uniqueId();
        String batch = "[" + event(a, "1") + "," + bad + "," + event(c, "3") + "]";
        HttpResponse<String> r = client.post(KEY, "application/json", batch);
        assertEquals(207, r.statusCode(), r.body());
        assertEquals(List.of(202, 400, 202), statuses(body(r)));
        // the batch-mates were written, and a retry of one answers at once as the duplicate it is
        HttpResponse<String> retry = client.post(KEY, "application/json", event(a, "1"));
        assertEquals(202, retry.statusCode(), retry.body());
        assertTrue(body(retry).get("duplicate").asBoolean(), retry.body());
        assertEquals(1, recordsWithId(a, 1).size());
        assertEquals(1, recordsWithId(c, 1).size());
    }

    @Test
    void probesAnswerOnTheApiPortAndMetricsOnlyOnTheManagementPort() throws Exception {
        assertEquals(200, client.get("/healthz").statusCode());
        assertEquals(200, client.get("/readyz").statusCode());
        client.post(KEY, "application/json", event(uniqueId(), "1"));
        HttpClient http = HttpClient.newHttpClient();
        assertEquals(404, http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/metrics")).build(),
                HttpResponse.BodyHandlers.ofString()).statusCode(), "the producers' port does not show /metrics");
        HttpResponse<String> scrape = http.send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + server.managementPort() + "/metrics")).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, scrape.statusCode());
        String metrics = scrape.body();
        for (String name : List.of("notify_ingest_requests_total{status=\"202\"}", "notify_ingest_events_accepted_total",
                "notify_ingest_produce_latency_seconds_bucket", "notify_ingest_inflight ", "notify_ingest_inflight_limit",
                "notify_ingest_dedup_entries")) {
            assertTrue(metrics.contains(name), name + " missing from /metrics");
        }
    }

    private static List<Integer> statuses(JsonNode batch) {
        List<Integer> out = new ArrayList<>();
        batch.get("results").forEach(r -> out.add(r.get("status").asInt()));
        return out;
    }
}
