package io.notify.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.notify.devstack.Await;
import io.notify.devstack.Infra;
import io.notify.devstack.NotifyInfraExtension;
import io.notify.gateway.support.Events;
import io.notify.gateway.support.GatewayHarness;
import io.notify.gateway.support.QueryApiStub;
import io.notify.gateway.support.SseClient;
import io.notify.gateway.support.Tokens;
import io.notify.gateway.support.WsClient;
import io.notify.protocol.frame.EventFrame;
import io.notify.protocol.frame.ResetFrame;
import io.notify.protocol.frame.ResetReason;
import io.notify.protocol.frame.WelcomeFrame;
import io.notify.protocol.stream.Position;
import io.notify.protocol.stream.StreamId;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Live delivery, resume and gap filling through a real gateway node: real Kafka (its node topic),
 * real Redis (the registry), the query API served by an in-test stub of docs/query-api.md.
 */
@ExtendWith(NotifyInfraExtension.class)
@Timeout(90)
class GatewayDeliveryIT {

    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final String E = "ep1";
    private static Tokens tokens;
    private static QueryApiStub stub;
    private static GatewayHarness gateway;
    private static RedisClient redis;
    private static StatefulRedisConnection<String, String> redisConnection;
    private static String prefix;

    @BeforeAll
    static void start(Infra infra) {
        gateway = new GatewayHarness(infra, "gw-delivery", Map.of("notify.gateway.sse-keepalive", "200ms"));
        tokens = gateway.tokens();
        stub = gateway.stub();
        prefix = infra.prefix();
        redis = RedisClient.create(infra.redisUri());
        redisConnection = redis.connect();
    }

    @AfterAll
    static void stop() {
        if (gateway != null) {
            gateway.close();
        }
        if (redis != null) {
            redisConnection.close();
            redis.shutdown();
        }
    }

    private static List<String> registered(String user) {
        return redisConnection.sync().zrange(prefix + "nf:conns:{u:" + user + "}", 0, -1);
    }

    private static List<Long> seqs(List<EventFrame> events) {
        return events.stream().map(EventFrame::seq).toList();
    }

    private static List<Long> range(long from, long to) {
        return LongStream.rangeClosed(from, to).boxed().toList();
    }

    @Test
    void anEventReachesBothDevicesOfAUserExactlyOnce() {
        StreamId u = StreamId.forUser("alice");
        try (WsClient phone = WsClient.connect(gateway.ws(), tokens.valid("alice"));
             SseClient laptop = SseClient.connect(gateway.http("/v1/sse?access_token=" + tokens.valid("alice")), Map.of())) {
            WelcomeFrame phoneWelcome = assertInstanceOf(WelcomeFrame.class, phone.next(WAIT));
            phone.resumeLive();
            assertEquals(200, laptop.status());
            assertEquals(1000L, laptop.next(WAIT).retry(), "retry hint first");
            WelcomeFrame laptopWelcome = assertInstanceOf(WelcomeFrame.class, laptop.next(WAIT).frame());
            assertEquals(List.of(u), laptopWelcome.streams());
            Await.until("both registered in Redis", WAIT, () -> registered("alice").size() == 2);
            assertTrue(registered("alice").stream().allMatch(m -> m.startsWith("gw-delivery|")), registered("alice").toString());

            gateway.publish(Events.range(u, E, 1, 3));
            assertEquals(range(1, 3), seqs(phone.events(3, WAIT)));
            List<SseClient.Message> sse = laptop.events(3, WAIT);
            assertEquals(List.of(E + ":1", E + ":2", E + ":3"), sse.stream().map(SseClient.Message::id).toList());

            // an ephemeral event for the phone's connection only
            gateway.deliverTo(Events.ephemeral(u, "typing-1", "typing"), List.of(phoneWelcome.connectionId()));
            EventFrame typing = phone.events(1, WAIT).get(0);
            assertNull(typing.seq());
            assertTrue(phone.quiet(Duration.ofMillis(300)), "nothing twice");
            assertTrue(laptopWelcome.connectionId().startsWith("c-"));
        }
        Await.until("both unregistered", WAIT, () -> registered("alice").isEmpty());
    }

    @Test
    void anIdleSseStreamGetsKeepAlivesFromItsTransport() {
        try (SseClient idle = SseClient.connect(gateway.http("/v1/sse?access_token=" + tokens.valid("kai")), Map.of())) {
            assertEquals(1000L, idle.next(WAIT).retry(), "retry hint first");
            assertInstanceOf(WelcomeFrame.class, idle.next(WAIT).frame());
            int before = idle.comments();
            // sse-keepalive is 200ms here: a few arrive while nothing else does
            Await.until("two keep-alive comments", WAIT, () -> idle.comments() >= before + 2);
        }
    }

    @Test
    void probesAnswerOnTheClientPortAndMetricsOnlyOnTheManagementPort() throws Exception {
        assertEquals(200, get(gateway.http("/healthz")).statusCode());
        assertEquals(200, get(gateway.http("/readyz")).statusCode());
        assertEquals(404, get(gateway.http("/metrics")).statusCode(), "the client port does not show /metrics");
        assertEquals(200, get(gateway.management("/readyz")).statusCode());
        assertEquals(404, get(gateway.management("/v1/ws")).statusCode(), "the management port serves no clients");
        var metrics = get(gateway.management("/metrics"));
        assertEquals(200, metrics.statusCode());
        for (String name : List.of("notify_gateway_connections{transport=\"ws\"}", "notify_gateway_ready 1.0",
                "notify_registry_renew_latency_seconds", "notify_gateway_delivery_latency_seconds")) {
            assertTrue(metrics.body().contains(name), name + " missing from /metrics");
        }
    }

    private static java.net.http.HttpResponse<String> get(java.net.URI uri) throws Exception {
        return WsClient.HTTP.send(java.net.http.HttpRequest.newBuilder(uri).GET().build(),
                java.net.http.HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void aClientThatMissed50EventsGetsExactlyThoseInOrderThenLiveOnes() {
        StreamId u = StreamId.forUser("bob");
        try (WsClient first = WsClient.connect(gateway.ws(), tokens.valid("bob"))) {
            first.next(WAIT);
            first.resumeLive();
            gateway.publish(Events.range(u, E, 1, 5));
            assertEquals(range(1, 5), seqs(first.events(5, WAIT)));
        }
        Await.until("bob gone", WAIT, () -> gateway.server().sessions().ofUser("bob").isEmpty());
        stub.append(Events.range(u, E, 6, 55)); // missed while away: in the inbox only
        stub.delay(300);
        double replayedBefore = gateway.count("notify.gateway.events.replayed");
        try (WsClient again = WsClient.connect(gateway.ws(), tokens.valid("bob"))) {
            again.next(WAIT);
            again.resume(u.value(), E, 5);
            // live events while the replay is in flight: held and merged, never duplicated
            gateway.publish(Events.range(u, E, 56, 58));
            assertEquals(range(6, 58), seqs(again.events(53, WAIT)));
            stub.delay(0);
            gateway.publish(Events.durable(u, E, 59));
            assertEquals(List.of(59L), seqs(again.events(1, WAIT)));
            assertTrue(again.quiet(Duration.ofMillis(300)));
        } finally {
            stub.delay(0);
        }
        assertTrue(gateway.count("notify.gateway.events.replayed") - replayedBefore >= 50);
    }

    @Test
    void aClientThatResumesRightAfterTheUpgradeGetsItsReplayWithNoHeadRead(Infra infra) {
        // a long batch linger holds the head read in the batcher long enough for the resume to withdraw it, every time
        try (GatewayHarness lingering = new GatewayHarness(infra, "gw-early", Map.of("notify.gateway.resume-batch-linger", "1s"))) {
            StreamId u = StreamId.forUser("early");
            lingering.stub().append(Events.range(u, E, 1, 8));
            int before = lingering.stub().headReads();
            try (WsClient c = WsClient.connect(lingering.ws(), lingering.tokens().valid("early"))) {
                c.resume(u.value(), E, 5); // what the SDKs do when they hold a position: no wait for welcome
                assertInstanceOf(WelcomeFrame.class, c.next(WAIT));
                assertEquals(range(6, 8), seqs(c.events(3, WAIT)), "the replay after seq 5");
                lingering.publish(Events.range(u, E, 9, 9));
                assertEquals(range(9, 9), seqs(c.events(1, WAIT)), "then live");
                assertTrue(c.quiet(Duration.ofMillis(200)), "nothing twice");
            }
            assertEquals(0, lingering.stub().headReads() - before, "the query API was never asked for the head");
            assertTrue(lingering.stub().requests() >= 1, "the replay was read from it");
        }
    }

    @Test
    void aGapInTheLiveStreamIsFilledFromTheQueryApi() {
        StreamId u = StreamId.forUser("carol");
        try (WsClient ws = WsClient.connect(gateway.ws(), tokens.valid("carol"))) {
            ws.next(WAIT);
            ws.resumeLive();
            stub.append(Events.range(u, E, 1, 4));
            gateway.deliver(Events.durable(u, E, 1));
            assertEquals(List.of(1L), seqs(ws.events(1, WAIT)));
            double gapsBefore = gateway.count("notify.gateway.gap.fills");
            gateway.deliver(Events.durable(u, E, 4)); // 2 and 3 never routed here
            assertEquals(range(2, 4), seqs(ws.events(3, WAIT)));
            assertEquals(gapsBefore + 1, gateway.count("notify.gateway.gap.fills"));
        }
    }

    @Test
    void sseResumesFromLastEventIdHeaderOrQueryParameter() {
        StreamId u = StreamId.forUser("dave");
        stub.append(Events.range(u, E, 1, 10));
        try (SseClient sse = SseClient.connect(gateway.http("/v1/sse"),
                Map.of("Authorization", "Bearer " + tokens.valid("dave"), "Last-Event-ID", E + ":7"))) {
            assertEquals(List.of(E + ":8", E + ":9", E + ":10"), sse.events(3, WAIT).stream().map(SseClient.Message::id).toList());
            gateway.publish(Events.durable(u, E, 11));
            assertEquals(E + ":11", sse.events(1, WAIT).get(0).id());
        }
        try (SseClient sse = SseClient.connect(gateway.http("/v1/sse?lastEventId=" + E + ":9&access_token=" + tokens.valid("dave")),
                Map.of())) {
            assertEquals(List.of(E + ":10", E + ":11"), sse.events(2, WAIT).stream().map(SseClient.Message::id).toList());
        }
        try (SseClient bad = SseClient.connect(gateway.http("/v1/sse?lastEventId=nonsense"),
                Map.of("Authorization", "Bearer " + tokens.valid("dave")))) {
            assertEquals(400, bad.status());
        }
    }

    @Test
    void positionsThatCannotContinueGetAResetWithTheHead() {
        StreamId u = StreamId.forUser("erin");
        stub.append(Events.range(u, E, 1, 20));
        stub.trimBefore(u, 11);
        try (WsClient ws = WsClient.connect(gateway.ws(), tokens.valid("erin"))) {
            ws.next(WAIT);
            ws.resume(u.value(), E, 3);
            ResetFrame reset = assertInstanceOf(ResetFrame.class, ws.next(WAIT));
            assertEquals(ResetReason.POSITION_TOO_OLD, reset.reason());
            assertEquals(new Position(E, 20), reset.head());
            assertEquals(11L, reset.firstSeq());
            gateway.publish(Events.durable(u, E, 21));
            assertEquals(List.of(21L), seqs(ws.events(1, WAIT)));
        }
        try (WsClient ws = WsClient.connect(gateway.ws(), tokens.valid("erin"))) {
            ws.next(WAIT);
            ws.resume(u.value(), "another-history", 5);
            ResetFrame reset = assertInstanceOf(ResetFrame.class, ws.next(WAIT));
            assertEquals(ResetReason.EPOCH_MISMATCH, reset.reason());
            assertEquals(new Position(E, 21), reset.head());
        }
    }

    @Test
    void aQueryApiOutageIsRetriedWhileLiveEventsWait() {
        StreamId u = StreamId.forUser("fay");
        stub.append(Events.range(u, E, 1, 5));
        double retriesBefore = gateway.count("notify.gateway.resume.retries");
        double unanchoredBefore = gateway.count("notify.gateway.anchor.unknown");
        stub.failNext(4); // the head read before welcome, then the resume fetch three times
        try (WsClient ws = WsClient.connect(gateway.ws(), tokens.valid("fay"))) {
            ws.next(WAIT);
            ws.resume(u.value(), E, 2);
            gateway.publish(Events.durable(u, E, 6));
            assertEquals(range(3, 6), seqs(ws.events(4, WAIT)));
        } finally {
            stub.failNext(0);
        }
        assertTrue(gateway.count("notify.gateway.resume.retries") - retriesBefore >= 3);
        assertEquals(1.0, gateway.count("notify.gateway.anchor.unknown") - unanchoredBefore,
                "the welcome went out without an anchor rather than waiting for the query API");
    }
}
