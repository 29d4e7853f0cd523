package io.notify.fanout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.notify.common.config.Settings;
import io.notify.devstack.Await;
import io.notify.devstack.Infra;
import io.notify.devstack.NotifyInfraExtension;
import io.notify.protocol.NotifyJson;
import io.notify.protocol.event.EventEnvelope;
import io.notify.schemas.publish.NotifyPublisher;
import io.notify.schemas.topic.TopicCatalog;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.streams.KafkaStreams;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two instances split the partitions; the query API answers for any stream from either instance
 * (forwarding to the owner, with the caller's credential), single and batch, with resets instead of
 * gaps — and only to a caller with a service token.
 */
@ExtendWith(NotifyInfraExtension.class)
@Timeout(180)
class FanoutQueryIT {

    static final int USERS = 12;
    static final int PER_USER = 5;
    /** Both instances accept both tokens, as during a rotation: gateways may send either. */
    static final String OLD_TOKEN = "it-query-token-old-0123456789";
    static final String NEW_TOKEN = "it-query-token-new-0123456789";
    final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @TempDir
    Path dir;

    FanoutConfig config(Infra infra, String name) {
        Map<String, String> v = new HashMap<>(Map.of(
                "notify.kafka.bootstrap-servers", infra.bootstrapServers(),
                "notify.topic-prefix", infra.prefix(),
                "notify.redis.uri", infra.redisUri(),
                "notify.fanout.state-dir", dir.resolve(name).toString(),
                "notify.fanout.query.port", "0",
                "notify.fanout.query.host", "127.0.0.1",
                "notify.fanout.query.tokens", OLD_TOKEN + "," + NEW_TOKEN));
        return FanoutConfig.load(Settings.of(v));
    }

    JsonNode get(int port, String path) throws Exception {
        HttpResponse<String> r = send(port, path, "Bearer " + NEW_TOKEN);
        assertEquals(200, r.statusCode(), path + " -> " + r.body());
        return NotifyJson.mapper().readTree(r.body());
    }

    /** GET {@code path} with {@code authorization} (null: no Authorization header). */
    HttpResponse<String> send(int port, String path, String authorization) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).timeout(Duration.ofSeconds(10));
        if (authorization != null) {
            b.header("Authorization", authorization);
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    HttpResponse<String> postBatch(int port, String body, String authorization) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/v1/streams:events"))
                .header("Content-Type", "application/json").timeout(Duration.ofSeconds(10))
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (authorization != null) {
            b.header("Authorization", authorization);
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void eitherInstanceAnswersForEveryStream(Infra infra) throws Exception {
        TopicCatalog topics = TopicCatalog.of(infra.prefix());
        FanoutStreamsIT.createTopics(infra, topics);
        try (FanoutService a = new FanoutService(config(infra, "a")).start();
             FanoutService b = new FanoutService(config(infra, "b")).start();
             NotifyPublisher publisher = NotifyPublisher.builder().bootstrapServers(infra.bootstrapServers())
                     .topicPrefix(infra.prefix()).build()) {
            Await.until("both RUNNING", Duration.ofSeconds(90), () ->
                    a.app().streams().state() == KafkaStreams.State.RUNNING
                            && b.app().streams().state() == KafkaStreams.State.RUNNING);
            for (int i = 0; i < USERS * PER_USER; i++) {
                publisher.publish(EventEnvelope.durable("q.test", null, "user-" + (i % USERS)).withId("q-" + i))
                        .get(30, TimeUnit.SECONDS);
            }
            FanoutCrashIT.readLog(infra, topics, USERS * PER_USER, Duration.ofSeconds(60));
            Await.until("both RUNNING after the writes", Duration.ofSeconds(60), () ->
                    a.app().streams().state() == KafkaStreams.State.RUNNING
                            && b.app().streams().state() == KafkaStreams.State.RUNNING);
            // the consumers' assigned-partitions metric TaskWatch counts: notify.events, the by-stream topic,
            // notify.receipts, notify.push-changes and notify.preferences (the last three created by the instances with the
            // by-stream count), split in two
            assertEquals(5 * FanoutStreamsIT.EVENTS_PARTITIONS, a.app().heldWork() + b.app().heldWork());
            for (FanoutService s : List.of(a, b)) { // each holds tasks, so its readiness is Kafka Streams' own
                HttpResponse<String> ready = http.send(HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + s.queryPort() + "/readyz")).build(), HttpResponse.BodyHandlers.ofString());
                assertEquals(200, ready.statusCode(), ready.body());
                assertEquals(0.0, s.meters().get("notify.fanout.unassigned.seconds").gauge().value());
            }

            for (int u = 0; u < USERS; u++) {
                String stream = "u:user-" + u;
                JsonNode fromA = get(a.queryPort(), "/v1/streams/" + stream + "/events?after=0&limit=100");
                JsonNode fromB = get(b.queryPort(), "/v1/streams/" + stream + "/events?after=0&limit=100");
                assertEquals(fromA, fromB, "both instances give the same answer for " + stream);
                assertEquals(List.of(1L, 2L, 3L, 4L, 5L), seqs(fromA.get("events")));
                String epoch = fromA.get("head").get("epoch").asText();
                JsonNode page = get(b.queryPort(), "/v1/streams/" + stream + "/events?after=2&epoch=" + epoch + "&limit=2");
                assertEquals(List.of(3L, 4L), seqs(page.get("events")));
                assertTrue(page.get("more").asBoolean());
                JsonNode head = get(a.queryPort(), "/v1/streams/" + stream);
                assertEquals(5, head.get("head").get("seq").asLong());
                JsonNode reset = get(a.queryPort(), "/v1/streams/" + stream + "/events?after=2&epoch=otherEpoch");
                assertEquals("epoch_mismatch", reset.get("reset").get("reason").asText());
                // the read-state endpoints are forwarded to the owner like the others
                JsonNode inboxA = get(a.queryPort(), "/v1/streams/" + stream + "/inbox?limit=2");
                assertEquals(inboxA, get(b.queryPort(), "/v1/streams/" + stream + "/inbox?limit=2"));
                assertEquals(List.of(5L, 4L), inboxA.get("events").findValues("event").stream().map(e -> e.get("seq").asLong()).toList());
                assertEquals(4, inboxA.get("next").asLong());
                assertEquals(5, get(b.queryPort(), "/v1/streams/" + stream + "/state").get("unread").asLong());
                assertEquals(400, send(a.queryPort(), "/v1/streams/r:room/state", "Bearer " + NEW_TOKEN).statusCode(),
                        "rooms have no read state");
            }

            StringBuilder batch = new StringBuilder("{\"requests\":[");
            for (int u = 0; u < USERS; u++) {
                batch.append(u == 0 ? "" : ",").append("{\"stream\":\"u:user-").append(u).append("\",\"after\":0}");
            }
            batch.append(",{\"stream\":\"not a stream\"}]}");
            for (int port : new int[] {a.queryPort(), b.queryPort()}) {
                HttpResponse<String> r = postBatch(port, batch.toString(), "Bearer " + OLD_TOKEN);
                assertEquals(200, r.statusCode(), r.body());
                JsonNode results = NotifyJson.mapper().readTree(r.body()).get("results");
                assertEquals(USERS + 1, results.size());
                for (int u = 0; u < USERS; u++) {
                    assertEquals("u:user-" + u, results.get(u).get("stream").asText());
                    assertEquals(List.of(1L, 2L, 3L, 4L, 5L), seqs(results.get(u).get("events")), r.body());
                }
                assertEquals(400, results.get(USERS).get("error").get("status").asInt());
            }
            // Events carrying java.time values (occurredAt) come back intact, single and batch.
            publisher.publish(new EventEnvelope("q-when", "q.when", io.notify.protocol.event.Recipients.users("user-when"),
                    null, null, java.time.OffsetDateTime.parse("2026-11-29T10:15:30.123+01:00"), null, "orders"))
                    .get(30, TimeUnit.SECONDS);
            FanoutCrashIT.readLog(infra, topics, USERS * PER_USER + 1, Duration.ofSeconds(60));
            for (int port : new int[] {a.queryPort(), b.queryPort()}) {
                JsonNode when = get(port, "/v1/streams/u:user-when/events?after=0");
                assertEquals("2026-11-29T10:15:30.123+01:00", when.get("events").get(0).get("occurredAt").asText());
                assertEquals("orders", when.get("events").get(0).get("source").asText());
                HttpResponse<String> r = postBatch(port, "{\"requests\":[{\"stream\":\"u:user-when\"}]}", "Bearer " + NEW_TOKEN);
                assertEquals(200, r.statusCode(), r.body());
                assertEquals("2026-11-29T10:15:30.123+01:00", NotifyJson.mapper().readTree(r.body())
                        .get("results").get(0).get("events").get(0).get("occurredAt").asText());
            }
            HttpResponse<String> bad = send(a.queryPort(), "/v1/streams/u:x/events?after=abc", "Bearer " + NEW_TOKEN);
            assertEquals(400, bad.statusCode());

            // Only a caller with a service token reads an inbox: issue 14 finding 1.
            for (int port : new int[] {a.queryPort(), b.queryPort()}) {
                for (String authorization : new String[] {null, "Bearer not-a-query-token-0123456789", "Basic Zm9vOmJhcg==",
                        "Bearer ", OLD_TOKEN}) {
                    for (String path : List.of("/v1/streams/u:user-0/events?after=0", "/v1/streams/u:user-0")) {
                        assertRefused(send(port, path, authorization), path + " with " + authorization);
                    }
                    assertRefused(postBatch(port, batch.toString(), authorization), "batch with " + authorization);
                }
                assertEquals(200, send(port, "/v1/streams/u:user-0/events?after=0", "bearer " + OLD_TOKEN).statusCode(),
                        "the scheme is case-insensitive (RFC 7235)");
                assertEquals(200, send(port, "/healthz", null).statusCode(), "health stays open");
                assertEquals(200, send(port, "/readyz", null).statusCode(), "readiness stays open");
                assertEquals(404, send(port, "/metrics", null).statusCode(), "metrics are on the management port only");
            }
            assertEquals(200, send(a.managementPort(), "/metrics", null).statusCode(), "metrics need no token there");
            double refused = a.meters().get("notify.fanout.query.requests").tag("outcome", "unauthorized").timers().stream()
                    .mapToLong(t -> t.count()).sum();
            assertEquals(15, refused, "every refusal of instance a is counted");
        }
    }

    private static void assertRefused(HttpResponse<String> r, String what) throws Exception {
        assertEquals(401, r.statusCode(), what + " -> " + r.body());
        assertEquals("Bearer", r.headers().firstValue("WWW-Authenticate").orElse(null), what);
        assertEquals("application/problem+json", r.headers().firstValue("Content-Type").orElse(null), what);
        JsonNode problem = NotifyJson.mapper().readTree(r.body());
        assertEquals("urn:notify:problem:unauthorized", problem.get("type").asText(), what);
        assertEquals(401, problem.get("status").asInt(), what);
        assertFalse(r.body().contains("user-0\""), what + " leaks nothing of the inbox: " + r.body());
    }

    private static List<Long> seqs(JsonNode events) {
        List<Long> out = new ArrayList<>();
        events.forEach(e -> out.add(e.get("seq").asLong()));
        return out;
    }
}
