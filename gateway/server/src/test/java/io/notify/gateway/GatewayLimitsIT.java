package io.notify.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.notify.devstack.Await;
import io.notify.devstack.Infra;
import io.notify.devstack.NotifyInfraExtension;
import io.notify.gateway.admission.HandshakeGate;
import io.notify.gateway.support.Events;
import io.notify.gateway.support.GatewayHarness;
import io.notify.gateway.support.LogCapture;
import io.notify.gateway.support.RawWsClient;
import io.notify.gateway.support.SseClient;
import io.notify.gateway.support.Tokens;
import io.notify.gateway.support.WsClient;
import io.notify.protocol.stream.SequencedEvent;
import io.notify.protocol.stream.StreamId;
import java.io.ByteArrayOutputStream;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/** Every hostile input gets its documented answer (docs/gateway.md, "Limits"), and is counted. */
@ExtendWith(NotifyInfraExtension.class)
@Timeout(90)
class GatewayLimitsIT {

    private static final Duration WAIT = Duration.ofSeconds(10);
    private static Tokens tokens;
    private static GatewayHarness gateway;

    @BeforeAll
    static void start(Infra infra) {
        gateway = new GatewayHarness(infra, "gw-limits", Map.of(
                "notify.gateway.allowed-origins", "https://app.example",
                "notify.gateway.max-connections-per-user", "2",
                "notify.gateway.inbound-rate", "5",
                "notify.gateway.inbound-burst", "10",
                "notify.gateway.queue-max-messages", "64",
                "notify.gateway.queue-max-bytes", "524288",
                "notify.gateway.message-timeout", "1s",
                "notify.gateway.jwt.clock-skew", "0s"));
        tokens = gateway.tokens();
    }

    @AfterAll
    static void stop() {
        if (gateway != null) {
            gateway.close();
        }
    }

    private static int sseStatus(String query, Map<String, String> headers) {
        try (SseClient c = SseClient.connect(gateway.http("/v1/sse" + query), headers)) {
            return c.status();
        }
    }

    private static Map<String, String> bearer(String token) {
        return Map.of("Authorization", "Bearer " + token);
    }

    @Test
    void badTokensAreRefusedWith401BeforeTheUpgrade() {
        for (String token : List.of(tokens.badSignature("eve"), tokens.expired("eve"), tokens.algNone("eve"),
                tokens.numericSubject(42), "garbage")) {
            assertEquals(401, WsClient.refusedStatus(gateway.ws(), bearer(token)));
            assertEquals(401, sseStatus("", bearer(token)));
        }
        assertEquals(401, sseStatus("", Map.of()), "no token at all");
        assertTrue(gateway.count("notify.gateway.handshake.rejections", "transport", "ws", "reason", "token_expired") >= 1);
        assertTrue(gateway.count("notify.gateway.handshake.rejections", "transport", "ws", "reason", "alg_not_allowed") >= 1);
        assertTrue(gateway.count("notify.gateway.handshake.rejections", "transport", "sse", "reason", "bad_subject") >= 1);
    }

    @Test
    void theAccessTokenNeverReachesALogLine() throws Exception {
        String token = tokens.badSignature("mallory");
        String secretPart = token.substring(token.lastIndexOf('.') + 1);
        List<String> lines;
        try (LogCapture logs = new LogCapture()) {
            assertEquals(401, sseStatus("?access_token=" + token, Map.of()));
            assertEquals(401, WsClient.refusedStatus(java.net.URI.create(gateway.ws() + "?access_token=" + token), Map.of()));
            lines = logs.lines();
        }
        assertTrue(lines.stream().anyMatch(l -> l.contains("access_token=REDACTED")), "the refusal is logged: " + lines);
        assertFalse(lines.stream().anyMatch(l -> l.contains(secretPart) || l.contains(token)), "token leaked into " + lines);
    }

    @Test
    void aForeignOriginIsRefusedWith403AndAMissingSubprotocolWith400() throws Exception {
        String token = tokens.valid("olga");
        assertEquals(403, RawWsClient.handshakeStatus(gateway.port(), Map.of("Authorization", "Bearer " + token,
                "Origin", "https://evil.example", "Sec-WebSocket-Protocol", "notify.v1")));
        assertEquals(101, RawWsClient.handshakeStatus(gateway.port(), Map.of("Authorization", "Bearer " + token,
                "Origin", "https://app.example", "Sec-WebSocket-Protocol", "notify.v1")));
        assertEquals(400, RawWsClient.handshakeStatus(gateway.port(), Map.of("Authorization", "Bearer " + token)));
        assertEquals(403, sseStatus("", Map.of("Authorization", "Bearer " + token, "Origin", "https://evil.example")));
    }

    private static RawWsClient rawResumed(String user) throws Exception {
        RawWsClient c = RawWsClient.connect(gateway.port(), tokens.valid(user), 0);
        assertEquals(0x1, c.read().opcode(), "welcome");
        return c;
    }

    @Test
    void framesSentRightBehindTheHandshakeAreRead() throws Exception {
        // a client may send its resume before it has read the 101 (it arrives with the request)
        byte[] resume = RawWsClient.frame(true, 0x1, "{\"t\":\"resume\",\"streams\":[]}".getBytes(StandardCharsets.UTF_8));
        byte[] ping = RawWsClient.frame(true, 0x9, "hi".getBytes(StandardCharsets.UTF_8));
        byte[] both = java.util.Arrays.copyOf(resume, resume.length + ping.length);
        System.arraycopy(ping, 0, both, resume.length, ping.length);
        try (RawWsClient c = RawWsClient.connect(gateway.port(), tokens.valid("early"), 0, both)) {
            List<RawWsClient.Frame> first = List.of(c.read(), c.read()); // the pong may come before the welcome
            assertTrue(first.stream().anyMatch(f -> f.opcode() == 0x1 && f.text().contains("\"welcome\"")), "welcome");
            assertTrue(first.stream().anyMatch(f -> f.opcode() == 0xA && f.text().equals("hi")),
                    "the ping that came with the handshake is answered");
            c.sendText("{\"t\":\"ping\"}");
            assertTrue(c.read().text().contains("\"pong\""), "the resume was applied: the session is active");
        }
    }

    @Test
    void oversizedFramesInvalidUtf8BinaryAndGarbageGetTheirCloseCodes() throws Exception {
        try (RawWsClient c = rawResumed("frames1")) {
            c.sendText("{\"t\":\"resume\",\"streams\":[],\"pad\":\"" + "x".repeat(40_000) + "\"}");
            assertEquals(1009, c.readUntilClose());
        }
        try (RawWsClient c = rawResumed("frames2")) {
            c.send(0x1, new byte[]{'{', '"', (byte) 0xC3, (byte) 0x28, '"', '}'});
            assertEquals(1007, c.readUntilClose());
        }
        try (RawWsClient c = rawResumed("frames3")) {
            c.send(0x2, new byte[]{1, 2, 3});
            assertEquals(1003, c.readUntilClose());
        }
        try (RawWsClient c = rawResumed("frames4")) {
            c.sendText("{not json");
            assertEquals(1002, c.readUntilClose());
        }
        assertEquals(1.0, gateway.count("notify.gateway.limit.hits", "limit", "frame_too_big"));
        assertEquals(1.0, gateway.count("notify.gateway.limit.hits", "limit", "invalid_utf8"));
        assertEquals(1.0, gateway.count("notify.gateway.limit.hits", "limit", "binary_frame"));
        assertTrue(gateway.count("notify.gateway.limit.hits", "limit", "protocol_error") >= 1);
    }

    @Test
    void tooManyMessagesCloseWith4029() throws Exception {
        try (RawWsClient c = rawResumed("chatty")) {
            c.sendText("{\"t\":\"resume\",\"streams\":[]}");
            for (int i = 0; i < 30; i++) {
                c.sendText("{\"t\":\"ping\"}");
            }
            assertEquals(4029, c.readUntilClose());
        }
    }

    private static final byte[] RESUME = "{\"t\":\"resume\",\"streams\":[]}".getBytes(StandardCharsets.UTF_8);

    private static double closes(int code) {
        return gateway.count("notify.gateway.closes", "transport", "ws", "code", Integer.toString(code));
    }

    private static double limitHits(String slug) {
        return gateway.count("notify.gateway.limit.hits", "limit", slug);
    }

    /** Waits until the node holds no connection: every close of the tests before is counted. */
    private static void settled() {
        Await.until("no open connection", WAIT, () -> gateway.server().metrics().registry()
                .get("notify.gateway.connections").tag("transport", "ws").gauge().value() == 0);
    }

    /** Sends {@code frames} behind a resume in one write, then a close frame: the node answers 4029 first, counted once. */
    private static void floodIsClosedWith4029(String user, List<byte[]> frames) throws Exception {
        settled();
        double hits = limitHits("inbound_rate");
        double closed = closes(4029);
        try (RawWsClient c = rawResumed(user)) {
            ByteArrayOutputStream flood = new ByteArrayOutputStream();
            flood.writeBytes(RawWsClient.frame(true, 0x1, RESUME));
            frames.forEach(flood::writeBytes);
            c.sendRaw(flood.toByteArray());
            c.sendClose(1000);
            assertEquals(4029, c.readUntilClose(), "the frames over the burst close the connection before the client does");
        }
        settled();
        assertEquals(hits + 1, limitHits("inbound_rate"));
        assertEquals(closed + 1, closes(4029));
    }

    @Test
    void zeroLengthContinuationsCountAgainstTheRateLimit() throws Exception {
        List<byte[]> frames = new ArrayList<>();
        frames.add(RawWsClient.frame(false, 0x1, "{\"t\":".getBytes(StandardCharsets.UTF_8)));
        for (int i = 0; i < 5_000; i++) {
            frames.add(RawWsClient.frame(false, 0x0, new byte[0]));
        }
        frames.add(RawWsClient.frame(true, 0x0, "\"ping\"}".getBytes(StandardCharsets.UTF_8))); // never reached
        floodIsClosedWith4029("fragments", frames);
    }

    @Test
    void aPingFloodIsClosedWith4029LikeAnyOtherFrameFloodAndCounted() throws Exception {
        List<byte[]> frames = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            frames.add(RawWsClient.frame(true, 0x9, "p".getBytes(StandardCharsets.UTF_8)));
        }
        floodIsClosedWith4029("pinger", frames);
    }

    @Test
    void aFragmentedMessageLeftUnfinishedIsClosedAfterTheMessageTimeout() throws Exception {
        settled();
        double hits = limitHits("message_timeout");
        double closed = closes(1002);
        try (RawWsClient c = rawResumed("trickle")) {
            c.sendText("{\"t\":\"resume\",\"streams\":[]}");
            c.sendRaw(RawWsClient.frame(false, 0x1, "{\"t\":".getBytes(StandardCharsets.UTF_8)));
            // silent from here on, pongs aside: only the node's sweeper can end it (message-timeout 1s, pong-timeout 15s)
            long start = System.nanoTime();
            assertEquals(1002, c.readUntilClose());
            assertTrue(System.nanoTime() - start < Duration.ofSeconds(5).toNanos(), "closed by message-timeout, not by missed pongs");
        }
        settled();
        assertEquals(hits + 1, limitHits("message_timeout"));
        assertEquals(closed + 1, closes(1002));
    }

    @Test
    void eachCloseIsCountedOnceWithTheCodeTheClientSaw() throws Exception {
        settled();
        double invalid = closes(1007);
        double dropped = closes(1006);
        try (RawWsClient c = rawResumed("saw1007")) {
            c.send(0x1, new byte[]{'{', '"', (byte) 0xC3, (byte) 0x28, '"', '}'});
            assertEquals(1007, c.readUntilClose());
        } // and leaves without answering the close frame
        settled();
        assertEquals(invalid + 1, closes(1007), "the client read 1007");
        assertEquals(dropped, closes(1006));
    }

    @Test
    void aSlowReaderThatVanishesIsCountedOnce() throws Exception {
        settled();
        double slow = closes(4008);
        double dropped = closes(1006);
        RawWsClient c = slowReaderPastItsQueue("vanisher"); // 4008 is decided, its close frame waits behind a frame never read
        c.reset();
        settled();
        // Counted once, as 1006 when the close frame was still waiting at the reset. Loopback's send buffer
        // may grow (autotuning) and take the close frame before the reset, and the close then rightly
        // counts as written (4008): seen once in a full verify. WebSocketTransportTest decides the 1006
        // case deterministically (a blocked I/O thread).
        double counted1006 = closes(1006) - dropped;
        double counted4008 = closes(4008) - slow;
        assertEquals(1.0, counted1006 + counted4008, "one close counted: 1006 +" + counted1006 + ", 4008 +" + counted4008);
    }

    @Test
    void theConnectionLimitPerUserAnswers4009OrHttp429() {
        String token = tokens.valid("greedy");
        try (WsClient a = WsClient.connect(gateway.ws(), token); WsClient b = WsClient.connect(gateway.ws(), token);
             WsClient c = WsClient.connect(gateway.ws(), token)) {
            assertEquals(4009, c.closeCode(WAIT));
            assertFalse(a.isClosed() || b.isClosed());
            assertEquals(429, sseStatus("", bearer(token)));
        }
    }

    @Test
    void aReaderThatFallsBehindIsClosedWith4008() throws Exception {
        try (RawWsClient c = slowReaderPastItsQueue("slowpoke")) {
            assertEquals(4008, c.readUntilClose());
        }
    }

    /** A live client with a small receive buffer that reads nothing, sent events until its queue overflowed (4008 decided). */
    private static RawWsClient slowReaderPastItsQueue(String user) throws Exception {
        StreamId u = StreamId.forUser(user);
        RawWsClient c = RawWsClient.connect(gateway.port(), tokens.valid(user), 4096);
        try {
            c.read(); // welcome
            c.sendText("{\"t\":\"resume\",\"streams\":[]}");
            Await.until("the session is live", WAIT, () -> !gateway.server().sessions().ofUser(user).isEmpty());
            List<SequencedEvent> big = new ArrayList<>();
            for (long seq = 1; seq <= 200; seq++) {
                big.add(Events.durable(u, "ep", seq, 50_000));
            }
            double before = gateway.count("notify.gateway.queue.overflows", "action", "closed");
            gateway.deliver(big);
            // 10 MB through Kafka first: on a loaded box that alone has taken more than WAIT
            Await.until("a queue overflow", Duration.ofSeconds(30),
                    () -> gateway.count("notify.gateway.queue.overflows", "action", "closed") > before);
            return c;
        } catch (Exception | AssertionError e) {
            c.close();
            throw e;
        }
    }

    @Test
    void aTokenThatExpiresWhileConnectedClosesWith4001() {
        try (WsClient ws = WsClient.connect(gateway.ws(), tokens.validFor("brief", Duration.ofSeconds(2)))) {
            ws.next(WAIT);
            ws.resumeLive();
            assertEquals(4001, ws.closeCode(WAIT));
        }
    }

    @Test
    void requestsWithoutATokenNeverSpendTheHandshakeBucket_anAuthenticatedFloodGets503(Infra infra) throws Exception {
        try (GatewayHarness small = new GatewayHarness(infra, "gw-flood",
                Map.of("notify.gateway.handshake-rate", "1", "notify.gateway.handshake-burst", "3"))) {
            // a flood without a token, on both transports and the ticket endpoint: each answered 401, none drawing on the bucket
            for (int i = 0; i < 10; i++) {
                assertEquals(401, send(small, "GET", "/v1/sse", Map.of()).statusCode());
                assertEquals(401, send(small, "POST", "/v1/tickets", Map.of()).statusCode());
            }
            assertEquals(401, RawWsClient.handshakeStatus(small.port(), Map.of("Sec-WebSocket-Protocol", "notify.v1")));
            // any page's checks spend the checks' own bucket only
            int checks = 0;
            int status = 200;
            while (status != 503 && checks < 20 * HandshakeGate.CHECK_BURST) {
                status = send(small, "GET", "/v1/ws/check", Map.of("Origin", "https://evil.example")).statusCode();
                checks++;
            }
            assertEquals(503, status, "past its burst a check is refused by its own bucket");
            assertTrue(checks > HandshakeGate.CHECK_BURST, "not before its burst: " + checks);
            assertEquals(1.0, small.count("notify.gateway.handshake.rejections", "transport", "check", "reason", "rate_limited"));

            // signed-in users still get the whole burst, and only then 503 + Retry-After
            String auth = "Bearer " + small.tokens().valid("flo");
            List<Integer> statuses = new ArrayList<>();
            String retryAfter = null;
            for (int i = 0; i < 5; i++) {
                HttpResponse<String> r = send(small, "POST", "/v1/tickets", Map.of("Authorization", auth));
                statuses.add(r.statusCode());
                if (r.statusCode() == 503) {
                    retryAfter = r.headers().firstValue("Retry-After").orElse(null);
                }
            }
            assertEquals(List.of(201, 201, 201), statuses.subList(0, 3), "the burst is the signed-in users': " + statuses);
            assertEquals(503, statuses.get(4), statuses.toString());
            assertNotNull(retryAfter);
            assertTrue(Integer.parseInt(retryAfter) >= 1);
            assertEquals(503, RawWsClient.handshakeStatus(small.port(), Map.of("Sec-WebSocket-Protocol", "notify.v1",
                    "Authorization", auth)));
            assertTrue(small.count("notify.gateway.handshake.rejections", "transport", "ws", "reason", "rate_limited") >= 1);
            assertTrue(small.count("notify.gateway.handshake.rejections", "transport", "ticket", "reason", "rate_limited") >= 1);
            assertTrue(small.count("notify.gateway.handshake.rejections", "transport", "sse", "reason", "missing_token") >= 10);
        }
    }

    private static HttpResponse<String> send(GatewayHarness gw, String method, String path, Map<String, String> headers) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(gw.http(path)).method(method, HttpRequest.BodyPublishers.noBody());
        headers.forEach(b::header);
        return WsClient.HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    }
}
