package io.notify.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static io.notify.gateway.support.InboxHttp.json;
import static io.notify.gateway.support.InboxHttp.problem;

import com.fasterxml.jackson.databind.JsonNode;
import io.notify.devstack.Await;
import io.notify.devstack.Infra;
import io.notify.devstack.NotifyInfraExtension;
import io.notify.gateway.support.Events;
import io.notify.gateway.support.GatewayHarness;
import io.notify.gateway.support.InboxHttp;
import io.notify.gateway.support.QueryApiStub;
import io.notify.gateway.support.ReceiptsReader;
import io.notify.gateway.support.SseClient;
import io.notify.gateway.support.Tokens;
import io.notify.gateway.support.WsClient;
import io.notify.protocol.frame.EventFrame;
import io.notify.protocol.frame.StateFrame;
import io.notify.protocol.frame.WelcomeFrame;
import io.notify.protocol.inbox.Receipt;
import io.notify.protocol.inbox.ReceiptKind;
import io.notify.protocol.stream.StreamId;
import java.io.ByteArrayInputStream;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The end-user inbox through a real gateway node (docs/gateway.md, "Inbox API"; acks: {@link GatewayAcksIT}):
 * marks become records on the prefixed {@code notify.receipts} (read back with a real consumer),
 * pages and counts are proxied from the query API stub for the token's own stream only, every refusal
 * is a documented problem (every answer is checked against docs/inbox-openapi.yaml), and a
 * state event from fanout-streams reaches WebSocket and SSE clients as a {@code state} frame.
 */
@ExtendWith(NotifyInfraExtension.class)
@Timeout(120)
class GatewayInboxIT {

    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final String E = "ep1";
    private static final String ORIGIN = "https://app.example";
    private static GatewayHarness gateway;
    private static Tokens tokens;
    private static QueryApiStub stub;
    private static ReceiptsReader receipts;
    /** Every answer of an inbox route is checked against docs/inbox-openapi.yaml. */
    private static InboxHttp http;

    @BeforeAll
    static void start(Infra infra) {
        receipts = new ReceiptsReader(infra, 3);
        gateway = new GatewayHarness(infra, "gw-inbox", Map.of(
                "notify.gateway.allowed-origins", ORIGIN,
                // acks come in bursts here: the per-connection frame rate is not what is tested
                "notify.gateway.inbound-rate", "1000",
                "notify.gateway.inbound-burst", "1000"));
        tokens = gateway.tokens();
        stub = gateway.stub();
        http = new InboxHttp(gateway);
    }

    @AfterAll
    static void stop() {
        if (receipts != null) {
            receipts.close();
        }
        if (gateway != null) {
            gateway.close();
        }
    }

    private static List<Receipt> receipts(StreamId stream, int atLeast) {
        return receipts.valuesOf(stream, atLeast, WAIT);
    }

    private static double requests(String endpoint, String outcome) {
        return gateway.count("notify.gateway.inbox.requests", "endpoint", endpoint, "outcome", outcome);
    }

    @Test
    void marksBecomeReceiptsKeyedByTheUsersStream() {
        StreamId u = StreamId.forUser("rita");
        long before = System.currentTimeMillis();
        HttpResponse<String> read = http.post("/v1/inbox/read", "rita", "{\"upTo\":17,\"epoch\":\"ep1\",\"device\":\"phone-1\"}");
        assertEquals(202, read.statusCode(), read.body());
        assertEquals("{\"stream\":\"u:rita\",\"accepted\":true}", read.body());
        assertEquals("no-store", read.headers().firstValue("Cache-Control").orElse(null));
        assertEquals(202, http.post("/v1/inbox/seen", "rita", "{\"ids\":[\"ord-1:shipped\",\"ord-2\"]}").statusCode());
        assertEquals(202, http.post("/v1/inbox/archive", "rita", "{\"upTo\":3,\"epoch\":null}").statusCode());

        List<ConsumerRecord<StreamId, Receipt>> records = receipts.of(u, 3, WAIT);
        assertEquals(3, records.size(), records.toString());
        assertTrue(records.stream().allMatch(r -> r.key().equals(u)), "keyed by the stream");
        List<Receipt> got = records.stream().map(ConsumerRecord::value).toList();
        Receipt r0 = got.get(0);
        assertEquals(ReceiptKind.READ, r0.kind());
        assertEquals(Receipt.markUpTo(u, ReceiptKind.READ, "ep1", 17, "phone-1", r0.at()), r0);
        assertTrue(r0.at() >= before && r0.at() <= System.currentTimeMillis(), "taken when the gateway got it");
        Receipt r1 = got.get(1);
        assertEquals(Receipt.markIds(u, ReceiptKind.SEEN, null, List.of("ord-1:shipped", "ord-2"), null, r1.at()), r1);
        assertEquals(Receipt.markUpTo(u, ReceiptKind.ARCHIVE, null, 3, null, got.get(2).at()), got.get(2));
        assertEquals(1.0, gateway.count("notify.gateway.receipts", "kind", "read", "outcome", "produced"));
        assertTrue(requests("seen", "ok") >= 1);
    }

    @Test
    void aBadMarkIsRefusedWithTheReceiptsReasonAndWritesNothing() {
        String user = "bert";
        assertEquals("give exactly one of upTo (a seq) and ids (1..100 event ids)",
                problem(http.post("/v1/inbox/read", user, "{\"upTo\":1,\"ids\":[\"a\"]}"), 400, "invalid-body"));
        assertEquals("give exactly one of upTo (a seq) and ids (1..100 event ids)",
                problem(http.post("/v1/inbox/read", user, "{}"), 400, "invalid-body"));
        String hundredAndOne = IntStream.rangeClosed(1, 101).mapToObj(i -> "\"id-" + i + "\"").collect(Collectors.joining(","));
        assertEquals("ids must hold 1..100 event ids, got 101",
                problem(http.post("/v1/inbox/seen", user, "{\"ids\":[" + hundredAndOne + "]}"), 400, "invalid-body"));
        assertTrue(problem(http.post("/v1/inbox/read", user, "{\"upTo\":0}"), 400, "invalid-body").startsWith("upTo must be a seq from 1"));
        assertTrue(problem(http.post("/v1/inbox/read", user, "{\"upTo\":2,\"device\":\"bad device\"}"), 400, "invalid-body")
                .startsWith("device must be 1..64 chars"));
        assertTrue(problem(http.post("/v1/inbox/read", user, "{\"upTo\":2,\"stream\":\"u:other\"}"), 400, "invalid-body")
                .startsWith("unknown field 'stream'"), "the stream is the token's, never the body's");
        assertTrue(problem(http.post("/v1/inbox/read", user, "[1,2]"), 400, "invalid-body").startsWith("the body must be a JSON object"));
        assertTrue(problem(http.post("/v1/inbox/read", user, "{\"upTo\":"), 400, "invalid-body").startsWith("the body is not JSON"));

        Map<String, String> plain = Map.of("Authorization", "Bearer " + tokens.valid(user), "Content-Type", "text/plain");
        assertEquals("Content-Type must be application/json", problem(http.send("POST", "/v1/inbox/read", plain,
                HttpRequest.BodyPublishers.ofString("{\"upTo\":1}")), 415, "unsupported-media-type"));

        byte[] big = ("{\"ids\":[\"" + "x".repeat(17 * 1024) + "\"]}").getBytes(StandardCharsets.UTF_8);
        Map<String, String> jsonHeaders = Map.of("Authorization", "Bearer " + tokens.valid(user), "Content-Type", "application/json");
        problem(http.send("POST", "/v1/inbox/read", jsonHeaders, HttpRequest.BodyPublishers.ofByteArray(big)), 413, "body-too-large");
        HttpRequest.BodyPublisher chunked = HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(big));
        problem(http.send("POST", "/v1/inbox/read", jsonHeaders, chunked), 413, "body-too-large"); // no Content-Length to refuse up front
        assertEquals(2.0, requests("read", "body_too_large"));
        assertEquals(1.0, requests("read", "unsupported_media_type"));

        assertEquals(List.of(), receipts.allOf(StreamId.forUser(user), WAIT),
                "nothing written for a refused mark (each is answered before any produce)");
    }

    @Test
    void pageParametersAreCheckedAtTheGateway() {
        assertEquals("limit must be from 1 to 100, got 0", problem(http.get("/v1/inbox?limit=0", "pia"), 400, "bad-request"));
        assertEquals("limit must be from 1 to 100, got 101", problem(http.get("/v1/inbox?limit=101", "pia"), 400, "bad-request"));
        assertTrue(problem(http.get("/v1/inbox?before=0", "pia"), 400, "bad-request").startsWith("before must be a seq from 1"));
        assertEquals("before must be a whole number, got '-3'", problem(http.get("/v1/inbox?before=-3", "pia"), 400, "bad-request"));
        assertEquals("archived must be exclude, include or only", problem(http.get("/v1/inbox?archived=all", "pia"), 400, "bad-request"));
        assertTrue(stub.inboxRequests().stream().noneMatch(p -> p.contains("u:pia")), "the query API was not asked");
        assertEquals(5.0, requests("inbox", "bad_request"));
    }

    @Test
    void theTokenAndTheOriginAreCheckedAsForTickets() {
        HttpResponse<String> none = http.send("GET", "/v1/inbox/unread", Map.of(), HttpRequest.BodyPublishers.noBody());
        assertEquals("token refused: missing_token", problem(none, 401, "unauthenticated"));
        assertTrue(none.headers().firstValue("WWW-Authenticate").orElse("").startsWith("Bearer error=\"invalid_token\""));
        HttpResponse<String> expired = http.send("POST", "/v1/inbox/read", Map.of("Authorization", "Bearer " + tokens.expired("ann"),
                "Content-Type", "application/json"), HttpRequest.BodyPublishers.ofString("{\"upTo\":1}"));
        assertEquals("token refused: token_expired", problem(expired, 401, "unauthenticated"));
        HttpResponse<String> inUrl = http.send("GET", "/v1/inbox?access_token=" + tokens.valid("ann"), Map.of(),
                HttpRequest.BodyPublishers.noBody());
        assertEquals("token refused: missing_token", problem(inUrl, 401, "unauthenticated"), "the header only: no JWT in URLs");

        HttpResponse<String> foreign = http.send("GET", "/v1/inbox", Map.of("Authorization", "Bearer " + tokens.valid("ann"),
                "Origin", "https://evil.example"), HttpRequest.BodyPublishers.noBody());
        problem(foreign, 403, "origin-not-allowed");
        assertTrue(foreign.headers().firstValue("Access-Control-Allow-Origin").isEmpty());
        HttpResponse<String> allowed = http.send("GET", "/v1/inbox/unread", Map.of("Authorization", "Bearer " + tokens.valid("ann"),
                "Origin", ORIGIN), HttpRequest.BodyPublishers.noBody());
        assertEquals(200, allowed.statusCode(), allowed.body());
        assertEquals(ORIGIN, allowed.headers().firstValue("Access-Control-Allow-Origin").orElse(null));
        assertEquals(1.0, requests("inbox", "origin"));
        assertTrue(requests("unread", "unauthorized") >= 1);
        assertTrue(gateway.count("notify.gateway.handshake.rejections", "transport", "inbox", "reason", "token_expired") >= 1);
    }

    @Test
    void corsPreflightAndMethods() {
        for (String path : List.of("/v1/inbox", "/v1/inbox/unread", "/v1/inbox/read", "/v1/inbox/seen", "/v1/inbox/archive")) {
            HttpResponse<String> preflight = http.send("OPTIONS", path, Map.of("Origin", ORIGIN, "Access-Control-Request-Method", "POST",
                    "Access-Control-Request-Headers", "authorization, content-type"), HttpRequest.BodyPublishers.noBody());
            assertEquals(204, preflight.statusCode(), path);
            assertEquals(ORIGIN, preflight.headers().firstValue("Access-Control-Allow-Origin").orElse(null));
            assertEquals("GET, POST", preflight.headers().firstValue("Access-Control-Allow-Methods").orElse(null));
            assertEquals("Authorization, Content-Type", preflight.headers().firstValue("Access-Control-Allow-Headers").orElse(null));
            assertEquals("600", preflight.headers().firstValue("Access-Control-Max-Age").orElse(null));
            assertTrue(preflight.headers().firstValue("Access-Control-Allow-Credentials").isEmpty());
        }
        problem(http.send("OPTIONS", "/v1/inbox", Map.of("Origin", "https://evil.example", "Access-Control-Request-Method", "GET"),
                HttpRequest.BodyPublishers.noBody()), 403, "origin-not-allowed");

        HttpResponse<String> getMark = http.get("/v1/inbox/read", "ann");
        assertEquals("use POST", problem(getMark, 405, "method-not-allowed"));
        assertEquals("POST, OPTIONS", getMark.headers().firstValue("Allow").orElse(null));
        assertEquals("use GET", problem(http.post("/v1/inbox", "ann", "{}"), 405, "method-not-allowed"));
    }

    @Test
    void pagesAndCountsComeFromTheQueryApiForTheTokensOwnStreamOnly() {
        StreamId ann = StreamId.forUser("ann2");
        StreamId bob = StreamId.forUser("bob2");
        stub.append(Events.range(ann, E, 1, 5));
        stub.append(Events.range(bob, E, 1, 9));
        stub.markRead(ann, 2);

        HttpResponse<String> page = http.get("/v1/inbox?limit=2&stream=u:bob2", "ann2"); // a stream parameter is not the user's to choose
        assertEquals(200, page.statusCode(), page.body());
        assertTrue(page.headers().firstValue("Content-Type").orElse("").startsWith("application/json"));
        JsonNode p = json(page);
        assertEquals("u:ann2", p.get("stream").asText());
        assertEquals(List.of(5L, 4L), seqs(p));
        assertEquals(4, p.get("next").asLong());
        assertEquals(3, p.get("unread").asLong());
        assertEquals("unseen", p.get("events").get(0).get("state").asText());
        assertEquals("ev-5", p.get("events").get(0).get("event").get("id").asText(), "the query API's body, passed through");

        JsonNode rest = json(http.get("/v1/inbox?before=4&limit=10&archived=include", "ann2"));
        assertEquals(List.of(3L, 2L, 1L), seqs(rest));
        assertEquals("read", rest.get("events").get(1).get("state").asText());
        assertTrue(rest.path("next").isMissingNode(), "the last page");
        assertEquals(0, json(http.get("/v1/inbox?archived=only", "ann2")).get("events").size());

        HttpResponse<String> unread = http.get("/v1/inbox/unread", "ann2");
        assertEquals(200, unread.statusCode(), unread.body());
        assertEquals("{\"unread\":3,\"unseen\":3,\"version\":1,\"head\":{\"epoch\":\"ep1\",\"seq\":5}}", unread.body());
        // the query API leaves head out for a stream without durable events; the gateway answers it as null
        assertEquals("{\"unread\":0,\"unseen\":0,\"version\":0,\"head\":null}", http.get("/v1/inbox/unread", "nobody-yet").body());

        List<String> asked = stub.inboxRequests().stream().filter(r -> r.contains("ann2") || r.contains("bob2")).toList();
        assertEquals(List.of("/v1/streams/u:ann2/inbox?limit=2&archived=exclude",
                "/v1/streams/u:ann2/inbox?limit=10&before=4&archived=include",
                "/v1/streams/u:ann2/inbox?limit=20&archived=only",
                "/v1/streams/u:ann2/state"), asked, "only the token's own stream, never bob's");
    }

    private static List<Long> seqs(JsonNode page) {
        List<Long> out = new ArrayList<>();
        page.get("events").forEach(e -> out.add(e.get("event").get("seq").asLong()));
        return out;
    }

    @Test
    void aQueryApiRefusalIsPassedOnAndAnOutageIs503() {
        stub.badRequestNext(1);
        assertEquals("refused by the stub", problem(http.get("/v1/inbox", "cleo"), 400, "bad-request"));
        stub.failNext(1000); // every URL answers 503
        try {
            HttpResponse<String> down = http.get("/v1/inbox/unread", "cleo");
            problem(down, 503, "unavailable");
            assertEquals("1", down.headers().firstValue("Retry-After").orElse(null));
            assertTrue(!down.body().contains("127.0.0.1"), "no internal address in the answer: " + down.body());
            assertEquals(1.0, requests("unread", "unavailable"));
        } finally {
            stub.failNext(0);
        }
    }

    @Test
    void aNodeAnswersABoundedNumberOfInboxRequestsPerSecond(Infra infra) {
        try (GatewayHarness limited = new GatewayHarness(infra, "gw-inbox-rate", Map.of(
                "notify.gateway.inbox.rate-per-second", "1", "notify.gateway.inbox.burst", "2"))) {
            InboxHttp limitedHttp = new InboxHttp(limited);
            for (int i = 0; i < 10; i++) { // a flood without a token: 401 each, the bucket untouched
                assertEquals(401, limitedHttp.send("GET", "/v1/inbox/unread", Map.of(), HttpRequest.BodyPublishers.noBody()).statusCode());
            }
            List<Integer> statuses = new ArrayList<>();
            HttpResponse<String> last = null;
            for (int i = 0; i < 3; i++) {
                last = limitedHttp.get("/v1/inbox/unread", "dora");
                statuses.add(last.statusCode());
            }
            assertEquals(List.of(200, 200, 503), statuses);
            problem(last, 503, "overloaded");
            assertTrue(last.headers().firstValue("Retry-After").isPresent());
            assertEquals(1.0, limited.count("notify.gateway.inbox.requests", "endpoint", "unread", "outcome", "rate_limited"));
        }
    }

    @Test
    void aStateEventReachesWebSocketAndSseAsAStateFrame_notAsAnEvent() {
        StreamId u = StreamId.forUser("sam");
        StateFrame state = new StateFrame(u, E, 20, 3, 1, 12, ReceiptKind.READ, 17L, null, "phone-1");
        try (WsClient ws = WsClient.connect(gateway.ws(), tokens.valid("sam"));
             SseClient sse = SseClient.connect(gateway.http("/v1/sse?device=laptop-1"),
                     Map.of("Authorization", "Bearer " + tokens.valid("sam")))) {
            assertInstanceOf(WelcomeFrame.class, ws.next(WAIT));
            ws.resumeLive();
            assertEquals(200, sse.status());
            assertEquals(1000L, sse.next(WAIT).retry());
            assertInstanceOf(WelcomeFrame.class, sse.next(WAIT).frame());
            gateway.publish(Events.durable(u, E, 1)); // both live once a durable event reached both
            assertEquals(1, ws.events(1, WAIT).size());
            assertEquals(1, sse.events(1, WAIT).size());
            double eventsBefore = gateway.count("notify.gateway.events.delivered", "class", "ephemeral", "path", "live");
            double statesBefore = gateway.count("notify.gateway.state.frames");

            gateway.deliver(state.toLiveEvent("state-12", "notify-fanout", System.currentTimeMillis()));
            assertEquals(state, ws.expect(StateFrame.class, WAIT));
            SseClient.Message m = sse.nextFrame(WAIT);
            assertEquals(state, m.frame());
            assertNull(m.id(), "a state frame is no position: no SSE id");
            Await.until("counted", WAIT, () -> gateway.count("notify.gateway.state.frames") == statesBefore + 2);
            assertEquals(eventsBefore, gateway.count("notify.gateway.events.delivered", "class", "ephemeral", "path", "live"),
                    "not an event delivered");

            gateway.deliver(Events.ephemeral(u, "typing-1", "typing")); // ordinary events still arrive as events
            assertEquals("typing-1", ws.expect(EventFrame.class, WAIT).id());
            assertInstanceOf(EventFrame.class, sse.nextFrame(WAIT).frame());
        }
    }

}
