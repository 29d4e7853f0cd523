package io.notify.e2e.observability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.notify.devstack.Await;
import io.notify.devstack.Infra;
import io.notify.devstack.NotifyInfraExtension;
import io.notify.gateway.GatewayServer;
import io.notify.gateway.support.WsClient;
import io.notify.platform.Platform;
import io.notify.protocol.NotifyJson;
import io.notify.protocol.event.Fallback;
import io.notify.protocol.frame.EventFrame;
import io.notify.protocol.frame.WelcomeFrame;
import io.notify.protocol.inbox.FallbackRecord;
import io.notify.protocol.push.PushRegistration;
import io.notify.protocol.stream.SequencedEvent;
import io.notify.protocol.stream.StreamId;
import io.notify.push.fake.WebPushFake;
import io.notify.schemas.topic.Topic;
import io.notify.schemas.topic.TopicCatalog;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The dashboard and the alerts read metrics the services really export: a platform (ingest,
 * fanout-streams, one gateway) carries the traffic each panel and alert is about — deliveries, a
 * resume from a cursor, a refused handshake, a protocol violation and its close, an event to an
 * offline user with a fallback, a record that goes to the DLQ, a push registration and a push — then
 * ingest's, fanout's, the push sender's and the gateway's {@code /metrics} are linted by {@code promtool check metrics} and every metric name in
 * ops/grafana/notify.json and ops/prometheus/alerts.yml must be in one of them.
 */
@ExtendWith(NotifyInfraExtension.class)
@Timeout(120)
class MetricsContractIT {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @Test
    void everyMetricTheDashboardAndTheAlertsReadIsExported(Infra infra, @TempDir Path dir) throws Exception {
        try (Platform stack = Platform.forTest(infra, dir).start()) {
            GatewayServer gw = stack.startGateway("gw-obs");
            traffic(stack, infra, gw);
            Set<String> wanted = referencedNames();
            Map<String, Integer> scrapes = new LinkedHashMap<>();
            scrapes.put("ingest", stack.ingestManagementPort());
            scrapes.put("fanout-streams", stack.fanoutManagementPort());
            scrapes.put("gateway", gw.managementPort());
            scrapes.put("push", stack.pushManagementPort());
            // the Kafka clients' meters appear once their first fetch / metrics refresh has run
            Map<String, String> bodies = new LinkedHashMap<>();
            // the lag the alerts and the dashboard read, per partition: each gateway's of its node topic, fanout's of notify.events
            String nodeLag = "kafka_consumer_fetch_manager_records_lag{client_id=\"notify-gateway-" + infra.prefix() + "notify.node.gw-obs\"";
            String eventsLag = "-StreamThread-1-consumer\",kafka_version=";
            Await.until(() -> "every referenced metric exported; missing: " + missing(wanted, bodies)
                    + (bodies.getOrDefault("gateway", "").contains(nodeLag) ? "" : ", the gateway's node-topic lag")
                    + (bodies.getOrDefault("fanout-streams", "").contains(eventsLag) ? "" : ", fanout's notify.events lag"), WAIT, () -> {
                scrapes.forEach((service, port) -> bodies.put(service, scrape(port)));
                return missing(wanted, bodies).isEmpty() && bodies.get("gateway").contains(nodeLag)
                        && bodies.get("fanout-streams").lines().anyMatch(l -> l.contains(eventsLag)
                                && l.contains("topic=\"" + infra.prefix() + "notify.events\""));
            });
            for (Map.Entry<String, String> e : bodies.entrySet()) {
                Files.writeString(Files.createDirectories(Path.of("target")).resolve(e.getKey() + ".prom"), e.getValue()); // to read after a run
                System.out.printf("%s /metrics: %d bytes, %d series%n", e.getKey(), e.getValue().length(),
                        e.getValue().lines().filter(l -> !l.startsWith("#") && !l.isBlank()).count());
                Promtool.Result lint = Promtool.run(dir, e.getValue(), "check", "metrics");
                assertEquals(List.of(), fatalLint(lint), e.getKey() + ": promtool check metrics:\n" + lint.output());
            }
        }
    }

    /** What each panel and alert is about, once. */
    private static void traffic(Platform stack, Infra infra, GatewayServer gw) throws Exception {
        String user = "obs-user";
        EventFrame last;
        try (WsClient c = WsClient.connect(Platform.ws(gw.port()), stack.token(user))) {
            c.expect(WelcomeFrame.class, WAIT);
            c.resumeLive();
            for (int i = 0; i < 3; i++) {
                stack.publish(user, "obs-" + i);
            }
            last = c.events(3, WAIT).get(2);
        }
        // a resume from a cursor reads the query API (notify_gateway_query_requests_total), then a protocol violation closes it
        try (WsClient c = WsClient.connect(Platform.ws(gw.port()), stack.token(user))) {
            c.expect(WelcomeFrame.class, WAIT);
            c.resume(last.stream().value(), last.epoch(), 1);
            assertEquals(List.of(2L, 3L), c.events(2, WAIT).stream().map(EventFrame::seq).toList(), "caught up from seq 1");
            c.send("not a frame");
            assertEquals(1002, c.closeCode(WAIT));
        }
        assertEquals(401, WsClient.handshakeStatus(Platform.ws(gw.port()), "not-a-token"));
        // a durable event to a user nobody connects: undelivered, and its offline fallback scheduled
        stack.publishing().publishJson("{\"id\":\"obs-offline\",\"type\":\"test.event\",\"to\":{\"users\":[\"obs-nobody\"]},"
                + "\"data\":{},\"fallback\":{\"after\":\"1m\",\"channel\":\"push\"}}");
        // a push registration (notify_fanout_push_changes_total) and a push to it (notify_push_*): a fallback record the
        // sender reads at once, its device a local Web Push service
        try (WebPushFake pushService = WebPushFake.start()) {
            PushRegistration.WebPush browser = pushService.subscribe(stack.config().vapid().publicKeyBase64Url());
            HttpResponse<String> registered = HTTP.send(HttpRequest.newBuilder(URI.create(Platform.http(gw.port()) + "/v1/push/registrations"))
                    .header("Authorization", "Bearer " + stack.token(user)).header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"webpush\":" + NotifyJson.mapper().writeValueAsString(browser) + "}"))
                    .build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(201, registered.statusCode(), registered.body());
            SequencedEvent e = new SequencedEvent(StreamId.forUser(user), "e1", 9, "obs-push", "test.event", null, null, "obs", 1, 2,
                    new Fallback("10s", "push"), null);
            long now = System.currentTimeMillis();
            FallbackRecord fallback = new FallbackRecord(e.stream().value(), user, "push", FallbackRecord.Reason.NO_DEVICE, e, List.of(),
                    now, now, List.of(WebPushFake.registration(browser)));
            Topic<StreamId, FallbackRecord> topic = TopicCatalog.of(infra.prefix()).fallback();
            try (KafkaProducer<StreamId, FallbackRecord> p = new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                    infra.bootstrapServers()), topic.keySerde().serializer(), topic.valueSerde().serializer())) {
                p.send(new ProducerRecord<>(topic.name(), e.stream(), fallback)).get();
            }
            pushService.awaitMessages(WebPushFake.idOf(browser), 1, WAIT);
        }
        // a record that is not an event: notify_fanout_dlq_total
        try (KafkaProducer<byte[], byte[]> p = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, infra.bootstrapServers(),
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName(),
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName()))) {
            p.send(new ProducerRecord<>(TopicCatalog.of(infra.prefix()).events().name(),
                    "obs".getBytes(StandardCharsets.UTF_8), "not json".getBytes(StandardCharsets.UTF_8))).get();
        }
    }

    /** Every metric name the dashboard's targets and the alert rules read. */
    static Set<String> referencedNames() throws Exception {
        Set<String> names = new TreeSet<>();
        for (JsonNode expr : new ObjectMapper().readTree(Promtool.DASHBOARD.toFile()).findValues("expr")) {
            names.addAll(PromQlNames.of(expr.asText()));
        }
        for (JsonNode group : new ObjectMapper(new YAMLFactory()).readTree(Promtool.ALERTS.toFile()).path("groups")) {
            for (JsonNode rule : group.path("rules")) {
                names.addAll(PromQlNames.of(rule.path("expr").asText()));
            }
        }
        assertTrue(names.size() > 10, "names found in the dashboard and the alerts: " + names);
        return names;
    }

    private static Set<String> missing(Set<String> wanted, Map<String, String> bodies) {
        Set<String> exported = bodies.values().stream().flatMap(String::lines)
                .filter(l -> !l.startsWith("#") && !l.isBlank())
                .map(l -> PromQlNames.base(l.split("[{ ]", 2)[0]))
                .collect(Collectors.toSet());
        Set<String> missing = new TreeSet<>(wanted);
        missing.removeAll(exported);
        return missing;
    }

    /**
     * promtool's findings that fail the build: every finding about a {@code notify_*} metric, and
     * any other but the naming advice on the Kafka clients' and the JVM's meters, whose names
     * Micrometer derives from Kafka's and the JVM's own (docs/observability.md, "Lint").
     */
    static List<String> fatalLint(Promtool.Result lint) {
        List<String> fatal = new ArrayList<>();
        for (String line : lint.output().lines().toList()) {
            boolean advice = ADVICE.stream().anyMatch(line::endsWith) && !line.startsWith("notify_");
            if (!line.isBlank() && !advice) {
                fatal.add(line);
            }
        }
        return fatal;
    }

    /** promtool's naming advice (its lint), tolerated on meters Notify does not name. */
    static final List<String> ADVICE = List.of("metric names should not contain abbreviated units",
            "non-histogram and non-summary metrics should not have \"_count\" suffix", "no help text");

    private static String scrape(int port) {
        try {
            HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics"))
                    .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, r.statusCode(), "/metrics on " + port);
            return r.body();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
