package io.notify.e2e.stack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.notify.devstack.Await;
import io.notify.devstack.Infra;
import io.notify.devstack.NotifyInfraExtension;
import io.notify.gateway.GatewayServer;
import io.notify.gateway.support.SseClient;
import io.notify.gateway.support.WsClient;
import io.notify.platform.Platform;
import io.notify.protocol.NotifyJson;
import io.notify.protocol.event.EventClass;
import io.notify.protocol.event.EventEnvelope;
import io.notify.protocol.event.Recipients;
import io.notify.protocol.frame.EventFrame;
import io.notify.protocol.frame.ServerFrame;
import io.notify.protocol.frame.WelcomeFrame;
import io.notify.protocol.stream.DeliveryMessage;
import io.notify.protocol.stream.StreamId;
import io.notify.schemas.publish.NotifyPublisher;
import io.notify.schemas.publish.PublishResult;
import io.notify.schemas.serde.NotifySerdes;
import io.notify.schemas.topic.TopicCatalog;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import java.util.stream.LongStream;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whole platform end to end — ingest → Kafka → fanout-streams → Redis routing → two gateway
 * nodes → WebSocket and SSE clients — with every event checked by id and seq at the client.
 */
@ExtendWith(NotifyInfraExtension.class)
@Timeout(240)
class TwoNodeStackIT {

    static final Duration WAIT = Duration.ofSeconds(30);
    static Platform stack;
    static GatewayServer a;
    static GatewayServer b;

    @BeforeAll
    static void start(Infra infra, @TempDir Path dir) throws Exception {
        stack = Platform.forTest(infra, dir).start();
        a = stack.startGateway("gw-a");
        b = stack.startGateway("gw-b");
    }

    @AfterAll
    static void stop() throws Exception {
        if (stack != null) {
            stack.close();
        }
    }

    private static List<String> ids(List<EventFrame> events) {
        return events.stream().map(EventFrame::id).toList();
    }

    private static List<String> ids(String prefix, int from, int to) {
        return IntStream.range(from, to).mapToObj(i -> prefix + i).toList();
    }

    private static WsClient live(int port, String user) {
        WsClient c = WsClient.connect(Platform.ws(port), stack.token(user));
        c.resumeLive();
        return c;
    }

    /** Waits until the welcome frame arrived, i.e. the connection is registered and live. */
    private static void awaitWelcome(WsClient c) {
        ServerFrame f = c.next(WAIT);
        assertTrue(f instanceof WelcomeFrame, "first frame is welcome, got " + f);
    }

    /** Skips data-less messages (the initial {@code retry:} hint) and checks the first frame is welcome. */
    private static void awaitWelcome(SseClient c) {
        SseClient.Message m = c.next(WAIT);
        while (m.data() == null) {
            m = c.next(WAIT);
        }
        assertTrue(m.frame() instanceof WelcomeFrame, "first frame is welcome, got " + m);
    }

    @Test
    void phoneOnOneNodeAndLaptopOnTheOtherEachGetEveryEventOnce() {
        String user = "two-devices";
        try (WsClient phone = WsClient.connect(Platform.ws(a.port()), stack.token(user));
             SseClient laptop = SseClient.connect(Platform.sse(b.port()), headers(stack.token(user)))) {
            awaitWelcome(phone);
            phone.resumeLive();
            awaitWelcome(laptop);
            for (int i = 0; i < 5; i++) {
                stack.publish(user, "td-" + i);
            }
            List<EventFrame> onPhone = phone.events(5, WAIT);
            assertEquals(ids("td-", 0, 5), ids(onPhone), "sequenced in the order they were published");
            assertEquals(List.of(1L, 2L, 3L, 4L, 5L), onPhone.stream().map(e -> e.seq()).toList());
            List<SseClient.Message> onLaptop = laptop.events(5, WAIT);
            assertEquals(ids(onPhone), onLaptop.stream().map(m -> ((EventFrame) m.frame()).id()).toList(),
                    "the laptop sees the same events in the same order");
            assertTrue(phone.quiet(Duration.ofSeconds(1)), "no duplicate reaches the phone");
        }
    }

    /**
     * 1,000 events to one user, back to back: NDJSON batches, then single requests on one
     * connection, then straight to Kafka through NotifyPublisher without waiting for acks. The
     * client must see them with seqs 1..1000 in exactly that order (notify.events is keyed by the
     * first recipient, so one user's events stay in one partition in send order).
     */
    @Test
    void eventsToOneUserAreSequencedInTheOrderTheyWereSent() throws Exception {
        String user = "in-order";
        List<String> sent = new ArrayList<>();
        try (WsClient c = WsClient.connect(Platform.ws(a.port()), stack.token(user))) {
            awaitWelcome(c);
            c.resumeLive();
            for (int b = 0; b < 4; b++) {
                List<String> batch = ids("ob-" + b + "-", 0, 100);
                stack.publishing().publishBatch(user, batch);
                sent.addAll(batch);
            }
            for (int i = 0; i < 300; i++) {
                stack.publish(user, "os-" + i);
                sent.add("os-" + i);
            }
            try (NotifyPublisher publisher = stack.publisher()) {
                List<CompletableFuture<PublishResult>> acks = new ArrayList<>();
                for (int i = 0; i < 300; i++) {
                    ObjectNode data = NotifyJson.mapper().createObjectNode().put("n", i);
                    acks.add(publisher.publish(new EventEnvelope("ok-" + i, "stack.test", Recipients.users(user),
                            EventClass.DURABLE, data, null, null, null)));
                    sent.add("ok-" + i);
                }
                CompletableFuture.allOf(acks.toArray(CompletableFuture[]::new)).get(30, TimeUnit.SECONDS);
            }
            List<EventFrame> got = c.events(sent.size(), Duration.ofSeconds(60));
            assertEquals(sent, ids(got), "the client sees the send order");
            assertEquals(LongStream.rangeClosed(1, sent.size()).boxed().toList(), got.stream().map(EventFrame::seq).toList());
        }
    }

    @Test
    void clientThatMissed50ResumesOnTheOtherNodeWithExactlyThose50ThenLive() {
        String user = "missed-fifty";
        EventFrame last;
        try (WsClient first = WsClient.connect(Platform.ws(a.port()), stack.token(user))) {
            awaitWelcome(first);
            first.resumeLive();
            stack.publish(user, "mf-first");
            last = first.events(1, WAIT).get(0);
        }
        List<String> missed = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            stack.publish(user, "mf-" + i);
            missed.add("mf-" + i);
        }
        try (WsClient again = WsClient.connect(Platform.ws(b.port()), stack.token(user))) {
            awaitWelcome(again);
            again.resume(last.stream().value(), last.epoch(), last.seq());
            List<EventFrame> replayed = again.events(50, WAIT);
            assertEquals(missed.stream().sorted().toList(), ids(replayed).stream().sorted().toList());
            assertEquals(IntStream.rangeClosed(2, 51).mapToObj(Long::valueOf).toList(),
                    replayed.stream().map(EventFrame::seq).toList(), "exactly the 50 missed, in seq order");
            stack.publish(user, "mf-live");
            assertEquals(List.of("mf-live"), ids(again.events(1, WAIT)));
            assertTrue(again.quiet(Duration.ofSeconds(1)));
        }
        // The replay came through the query API with the platform's service token: the gateway sent it.
        assertTrue(stack.fanout().meters().get("notify.fanout.query.token.uses").tag("token", "1").counter().count() > 0);
        assertEquals(0.0, b.meterRegistry().find("notify.gateway.query.requests").tag("outcome", "unauthorized").counters()
                .stream().mapToDouble(c -> c.count()).sum(), "no query API request of the gateway was refused");
    }

    @Test
    void theQueryApiAnswersServicesWithTheTokenAndNobodyElse() throws Exception {
        String user = "query-auth";
        stack.publish(user, "qa-1");
        String path = "/v1/streams/u:" + user + "/events?after=0";
        Await.until("qa-1 in the inbox", WAIT, () -> {
            try {
                return stack.queryApi().get(path, WAIT).body().contains("\"qa-1\"");
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        HttpResponse<String> anonymous = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                Platform.http(stack.queryPort()).resolve(path)).timeout(WAIT).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(401, anonymous.statusCode(), anonymous.body());
        assertFalse(anonymous.body().contains("qa-1"), anonymous.body());
        HttpResponse<String> clientToken = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                Platform.http(stack.queryPort()).resolve(path)).header("Authorization", "Bearer " + stack.token(user))
                .timeout(WAIT).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(401, clientToken.statusCode(), "an end user's own JWT does not open the query API: " + clientToken.body());
    }

    @Test
    void sseResumesWithLastEventIdOnTheOtherNode() {
        String user = "sse-resume";
        String lastId;
        try (SseClient first = SseClient.connect(Platform.sse(a.port()), headers(stack.token(user)))) {
            awaitWelcome(first);
            stack.publish(user, "sr-0");
            lastId = first.events(1, WAIT).get(0).id();
        }
        for (int i = 1; i <= 10; i++) {
            stack.publish(user, "sr-" + i);
        }
        Map<String, String> headers = headers(stack.token(user));
        headers.put("Last-Event-ID", lastId);
        try (SseClient again = SseClient.connect(Platform.sse(b.port()), headers)) {
            awaitWelcome(again);
            List<SseClient.Message> replayed = again.events(10, WAIT);
            assertEquals(IntStream.rangeClosed(2, 11).mapToObj(Long::valueOf).toList(),
                    replayed.stream().map(m -> ((EventFrame) m.frame()).seq()).toList());
            assertEquals(ids("sr-", 1, 11).stream().sorted().toList(),
                    replayed.stream().map(m -> ((EventFrame) m.frame()).id()).sorted().toList());
            assertTrue(replayed.get(9).id().endsWith(":11"), "the SSE id carries the position");
        }
    }

    private static Map<String, String> headers(String token) {
        Map<String, String> h = new HashMap<>();
        h.put("Authorization", "Bearer " + token);
        return h;
    }

    /** DeliveryMessages on a node's topic (read_committed) for one stream. */
    static List<DeliveryMessage> deliveries(String nodeId, StreamId stream, Duration wait, int atLeast) {
        String topic = TopicCatalog.of(stack.config().prefix()).node(nodeId).name();
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, stack.config().bootstrapServers());
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        List<DeliveryMessage> out = new ArrayList<>();
        try (var consumer = new KafkaConsumer<>(p, NotifySerdes.streamId().deserializer(),
                NotifySerdes.deliveryMessage().deserializer())) {
            List<TopicPartition> tps = consumer.partitionsFor(topic).stream()
                    .map(i -> new TopicPartition(topic, i.partition())).toList();
            consumer.assign(tps);
            consumer.seekToBeginning(tps);
            long deadline = System.nanoTime() + wait.toNanos();
            while (System.nanoTime() < deadline && out.size() < atLeast) {
                for (ConsumerRecord<StreamId, DeliveryMessage> r : consumer.poll(Duration.ofMillis(200))) {
                    if (r.key().equals(stream)) {
                        out.add(r.value());
                    }
                }
            }
        }
        return out;
    }
}
