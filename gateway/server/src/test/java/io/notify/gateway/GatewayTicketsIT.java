package io.notify.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.notify.devstack.Await;
import io.notify.devstack.Infra;
import io.notify.devstack.NotifyInfraExtension;
import io.notify.devstack.TestClock;
import io.notify.gateway.support.Events;
import io.notify.gateway.support.GatewayHarness;
import io.notify.gateway.support.LogCapture;
import io.notify.gateway.support.RawWsClient;
import io.notify.gateway.support.SseClient;
import io.notify.gateway.support.Tokens;
import io.notify.gateway.support.WsClient;
import io.notify.protocol.frame.CloseCode;
import io.notify.protocol.frame.EventFrame;
import io.notify.protocol.frame.WelcomeFrame;
import io.notify.protocol.stream.StreamId;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Connect tickets (docs/gateway.md, "Connect tickets"): {@code POST /v1/tickets} trades a JWT in a
 * header for a single-use ticket that a WebSocket or SSE URL carries instead of the JWT. The node's
 * clock is a {@link TestClock}, so expiry is reached by moving it, never by waiting. Also
 * {@code GET /v1/ws/check}, which takes the same credential and says why a handshake would be refused.
 */
@ExtendWith(NotifyInfraExtension.class)
@Timeout(90)
class GatewayTicketsIT {

    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final String E = "ep1";
    private static final String ORIGIN = "https://app.example";
    private static final int MAX_TICKETS = 32; // above what the other tests hold together: only the full test fills it
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final TestClock CLOCK = new TestClock(Instant.now());
    private static GatewayHarness gateway;
    private static Tokens tokens;

    @BeforeAll
    static void start(Infra infra) {
        gateway = new GatewayHarness(infra, "gw-tickets", Map.of(
                "notify.gateway.allowed-origins", ORIGIN,
                "notify.gateway.max-tickets", Integer.toString(MAX_TICKETS),
                "notify.gateway.jwt.clock-skew", "0s"), CLOCK);
        tokens = gateway.tokens();
    }

    @AfterAll
    static void stop() {
        if (gateway != null) {
            gateway.close();
        }
    }

    private static HttpResponse<String> post(Map<String, String> headers) {
        return send("POST", "/v1/tickets", headers);
    }

    private static HttpResponse<String> send(String method, String path, Map<String, String> headers) {
        HttpRequest.Builder b = HttpRequest.newBuilder(gateway.http(path)).method(method, HttpRequest.BodyPublishers.noBody());
        headers.forEach(b::header);
        try {
            return WsClient.HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static String ticket(String jwt) {
        HttpResponse<String> r = post(Map.of("Authorization", "Bearer " + jwt));
        assertEquals(201, r.statusCode(), r.body());
        try {
            JsonNode body = JSON.readTree(r.body());
            assertEquals(30, body.get("expiresIn").asInt());
            return body.get("ticket").asText();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static URI wsWith(String query) {
        return URI.create(gateway.ws() + query);
    }

    /** The status and problem detail of a GET /v1/sse that is refused. */
    private static HttpResponse<String> sseRefusal(String query) {
        return send("GET", "/v1/sse" + query, Map.of("Accept", "text/event-stream"));
    }

    private static String detail(HttpResponse<String> r) {
        try {
            return JSON.readTree(r.body()).get("detail").asText();
        } catch (Exception e) {
            throw new AssertionError("not a problem: " + r.body(), e);
        }
    }

    @Test
    void aTicketOpensAWebSocketAndAnSseStream_whichGetEvents() {
        StreamId u = StreamId.forUser("tia");
        HttpResponse<String> issued = post(Map.of("Authorization", "Bearer " + tokens.valid("tia")));
        assertEquals(201, issued.statusCode());
        assertEquals("no-store", issued.headers().firstValue("Cache-Control").orElse(null));
        assertTrue(issued.headers().firstValue("Content-Type").orElse("").startsWith("application/json"));
        double redeemed = gateway.count("notify.gateway.tickets.redeemed");
        try (WsClient ws = WsClient.connect(wsWith("?ticket=" + ticket(tokens.valid("tia"))), Map.of());
             SseClient sse = SseClient.connect(gateway.http("/v1/sse?ticket=" + ticket(tokens.valid("tia"))), Map.of())) {
            WelcomeFrame welcome = assertInstanceOf(WelcomeFrame.class, ws.next(WAIT));
            assertEquals(List.of(u), welcome.streams(), "the ticket's user is the token's sub");
            ws.resumeLive();
            assertEquals(200, sse.status());
            assertEquals(1000L, sse.next(WAIT).retry());
            assertEquals(List.of(u), assertInstanceOf(WelcomeFrame.class, sse.next(WAIT).frame()).streams());
            Await.until("both connected", WAIT, () -> gateway.server().sessions().all().size() >= 2);

            gateway.publish(Events.range(u, E, 1, 2));
            assertEquals(List.of(1L, 2L), ws.events(2, WAIT).stream().map(EventFrame::seq).toList());
            assertEquals(List.of(E + ":1", E + ":2"), sse.events(2, WAIT).stream().map(SseClient.Message::id).toList());
        }
        assertEquals(redeemed + 2, gateway.count("notify.gateway.tickets.redeemed"));
        assertTrue(gateway.count("notify.gateway.tickets.issued") >= 3);
    }

    @Test
    void aTicketIsSpentByTheFirstHandshakeThatPresentsIt() {
        String t = ticket(tokens.valid("ugo"));
        try (WsClient ws = WsClient.connect(wsWith("?ticket=" + t), Map.of())) {
            assertInstanceOf(WelcomeFrame.class, ws.next(WAIT));
            assertEquals(401, WsClient.refusedStatus(wsWith("?ticket=" + t), Map.of()));
            HttpResponse<String> again = sseRefusal("?ticket=" + t);
            assertEquals(401, again.statusCode());
            assertEquals("ticket refused: ticket_reused", detail(again));
        }
        // spent even when the handshake that redeemed it is refused afterwards (here: a malformed Last-Event-ID → 400)
        String spent = ticket(tokens.valid("ugo"));
        assertEquals(400, sseRefusal("?lastEventId=nonsense&ticket=" + spent).statusCode());
        assertEquals(401, WsClient.refusedStatus(wsWith("?ticket=" + spent), Map.of()));
        assertTrue(gateway.count("notify.gateway.tickets.refused", "reason", "reused") >= 2);
        assertTrue(gateway.count("notify.gateway.handshake.rejections", "transport", "ws", "reason", "ticket_reused") >= 1);
    }

    @Test
    void anExpiredTicketIsRefused() {
        String t = ticket(tokens.valid("vic"));
        CLOCK.advance(Duration.ofSeconds(31));
        HttpResponse<String> r = sseRefusal("?ticket=" + t);
        assertEquals(401, r.statusCode());
        assertEquals("ticket refused: ticket_expired", detail(r));
        assertTrue(r.headers().firstValue("WWW-Authenticate").orElse("").contains("ticket_expired"));
        assertTrue(gateway.count("notify.gateway.tickets.refused", "reason", "expired") >= 1);
        // a fresh ticket works at the new time
        try (WsClient ws = WsClient.connect(wsWith("?ticket=" + ticket(tokens.valid("vic"))), Map.of())) {
            assertInstanceOf(WelcomeFrame.class, ws.next(WAIT));
        }
    }

    @Test
    void anUnknownTicketIsRefused_asATicketOfAnotherNodeWouldBe() {
        String forged = "A".repeat(43);
        assertEquals(401, WsClient.refusedStatus(wsWith("?ticket=" + forged), Map.of()));
        HttpResponse<String> r = sseRefusal("?ticket=" + forged);
        assertEquals(401, r.statusCode());
        assertEquals("ticket refused: unknown_ticket", detail(r));
        assertEquals(401, sseRefusal("?ticket=").statusCode());
        assertTrue(gateway.count("notify.gateway.tickets.refused", "reason", "unknown_ticket") >= 3);
    }

    @Test
    void theTicketEndpointRefusesWhatAHandshakeRefuses() {
        for (String bad : List.of(tokens.badSignature("eve"), tokens.expired("eve"), tokens.algNone("eve"), "garbage")) {
            HttpResponse<String> r = post(Map.of("Authorization", "Bearer " + bad));
            assertEquals(401, r.statusCode(), bad);
            assertTrue(detail(r).startsWith("token refused: "), r.body());
        }
        assertEquals("token refused: token_expired", detail(post(Map.of("Authorization", "Bearer " + tokens.expired("eve")))));
        assertEquals("token refused: missing_token", detail(post(Map.of())));
        // the JWT is taken from the header only: a token in the URL buys no ticket
        assertEquals(401, send("POST", "/v1/tickets?access_token=" + tokens.valid("eve"), Map.of()).statusCode());
        assertEquals(403, post(Map.of("Authorization", "Bearer " + tokens.valid("eve"), "Origin", "https://evil.example")).statusCode());
        assertEquals(405, send("GET", "/v1/tickets", Map.of("Authorization", "Bearer " + tokens.valid("eve"))).statusCode());
        assertTrue(gateway.count("notify.gateway.handshake.rejections", "transport", "ticket", "reason", "token_expired") >= 2);
        assertTrue(gateway.count("notify.gateway.handshake.rejections", "transport", "ticket", "reason", "origin") >= 1);
    }

    @Test
    void aPageOnAnAllowedOriginMayCallItAcrossOrigins() {
        HttpResponse<String> preflight = send("OPTIONS", "/v1/tickets", Map.of("Origin", ORIGIN,
                "Access-Control-Request-Method", "POST", "Access-Control-Request-Headers", "authorization"));
        assertEquals(204, preflight.statusCode());
        assertEquals(ORIGIN, preflight.headers().firstValue("Access-Control-Allow-Origin").orElse(null));
        assertEquals("POST", preflight.headers().firstValue("Access-Control-Allow-Methods").orElse(null));
        assertEquals("Authorization", preflight.headers().firstValue("Access-Control-Allow-Headers").orElse(null));
        assertTrue(preflight.headers().firstValue("Access-Control-Allow-Credentials").isEmpty());

        HttpResponse<String> foreign = send("OPTIONS", "/v1/tickets", Map.of("Origin", "https://evil.example",
                "Access-Control-Request-Method", "POST"));
        assertEquals(403, foreign.statusCode());
        assertTrue(foreign.headers().firstValue("Access-Control-Allow-Origin").isEmpty());

        HttpResponse<String> issued = post(Map.of("Authorization", "Bearer " + tokens.valid("wes"), "Origin", ORIGIN));
        assertEquals(201, issued.statusCode());
        assertEquals(ORIGIN, issued.headers().firstValue("Access-Control-Allow-Origin").orElse(null));
        HttpResponse<String> refused = post(Map.of("Authorization", "Bearer garbage", "Origin", ORIGIN));
        assertEquals(401, refused.statusCode());
        assertEquals(ORIGIN, refused.headers().firstValue("Access-Control-Allow-Origin").orElse(null), "the page sees why");
    }

    @Test
    void theConnectionOfATicketEndsWith4001AtTheTokensExpiry() {
        Instant exp = CLOCK.instant().plus(Duration.ofMinutes(10)); // the tokens are issued at the node's clock
        String jwt = tokens.validFor("xia", Duration.ofMinutes(10));
        try (WsClient ws = WsClient.connect(wsWith("?ticket=" + ticket(jwt)), Map.of())) {
            assertInstanceOf(WelcomeFrame.class, ws.next(WAIT));
            ws.resumeLive();
            CLOCK.advance(Duration.between(CLOCK.instant(), exp).plusSeconds(2));
            assertEquals(CloseCode.TOKEN_EXPIRED.code(), ws.closeCode(WAIT));
        }
    }

    @Test
    void accessTokenAndAuthorizationStillWork() {
        try (WsClient ws = WsClient.connect(wsWith("?access_token=" + tokens.valid("yan")), Map.of());
             WsClient header = WsClient.connect(gateway.ws(), tokens.valid("yan"));
             SseClient sse = SseClient.connect(gateway.http("/v1/sse?access_token=" + tokens.valid("yan")), Map.of())) {
            assertInstanceOf(WelcomeFrame.class, ws.next(WAIT));
            assertInstanceOf(WelcomeFrame.class, header.next(WAIT));
            assertEquals(200, sse.status());
        }
    }

    @Test
    void whenEveryTicketIsHeldTheEndpointAnswers503UntilTheSweepFreesRoom() {
        String jwt = tokens.valid("zed");
        HttpResponse<String> r = null;
        for (int i = 0; i <= MAX_TICKETS; i++) {
            r = post(Map.of("Authorization", "Bearer " + jwt));
            if (r.statusCode() != 201) {
                break;
            }
        }
        assertEquals(503, r.statusCode(), "full after at most " + MAX_TICKETS + " tickets");
        assertEquals("5", r.headers().firstValue("Retry-After").orElse(null));
        assertTrue(r.body().contains("tickets-full"), r.body());
        assertEquals(MAX_TICKETS, gateway.server().meterRegistry().get("notify.gateway.tickets.held").gauge().value());
        CLOCK.advance(Duration.ofSeconds(61)); // past expiry plus the TTL they are remembered for
        Await.until("the sweep frees room", WAIT,
                () -> gateway.server().meterRegistry().get("notify.gateway.tickets.held").gauge().value() == 0);
        assertEquals(201, post(Map.of("Authorization", "Bearer " + jwt)).statusCode());
    }

    @Test
    void aTicketNeverReachesALogLine() {
        String t = ticket(tokens.valid("abe"));
        List<String> lines;
        try (LogCapture logs = new LogCapture()) {
            try (WsClient ws = WsClient.connect(wsWith("?ticket=" + t), Map.of())) {
                assertInstanceOf(WelcomeFrame.class, ws.next(WAIT));
            }
            assertEquals(401, sseRefusal("?ticket=" + t).statusCode());
            assertEquals(401, WsClient.refusedStatus(wsWith("?ticket=" + t), Map.of()));
            lines = logs.lines();
        }
        assertTrue(lines.stream().anyMatch(l -> l.contains("ticket=REDACTED")), "the refusal is logged: " + lines);
        assertFalse(lines.stream().anyMatch(l -> l.contains(t)), "ticket leaked into " + lines);
    }

    /** GET /v1/ws/check's JSON on {@code g}, asserting the answer is 200, no-store and readable by {@code origin}'s page. */
    private static JsonNode check(GatewayHarness g, Map<String, String> headers) {
        HttpRequest.Builder b = HttpRequest.newBuilder(g.http("/v1/ws/check")).GET();
        headers.forEach(b::header);
        try {
            HttpResponse<String> r = WsClient.HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, r.statusCode(), r.body());
            assertEquals("no-store", r.headers().firstValue("Cache-Control").orElse(null));
            assertEquals(headers.get("Origin"), r.headers().firstValue("Access-Control-Allow-Origin").orElse(null));
            assertTrue(r.headers().firstValue("Access-Control-Allow-Credentials").isEmpty());
            return JSON.readTree(r.body());
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static String reason(JsonNode verdict) {
        return verdict.get("ok").asBoolean() ? "ok" : verdict.get("reason").asText() + "/" + verdict.get("detail").asText()
                + "/" + verdict.get("status").asInt();
    }

    @Test
    void theCheckSaysWhyAHandshakeWouldBeRefused_toAPageOfAnyOrigin() {
        String evil = "https://evil.example";
        assertEquals("{\"ok\":true}", check(gateway, Map.of("Authorization", "Bearer " + tokens.valid("cid"), "Origin", ORIGIN)).toString());
        assertEquals("ok", reason(check(gateway, Map.of("Authorization", "Bearer " + tokens.valid("cid")))), "no Origin: not a browser");
        assertEquals("origin/the Origin of this page is not on the gateway's allowed-origins/403",
                reason(check(gateway, Map.of("Authorization", "Bearer " + tokens.valid("cid"), "Origin", evil))));
        assertEquals("token/token_expired/401", reason(check(gateway, Map.of("Authorization", "Bearer " + tokens.expired("cid"), "Origin", ORIGIN))));
        assertEquals("token/bad_signature/401", reason(check(gateway, Map.of("Authorization", "Bearer " + tokens.badSignature("cid")))));
        assertEquals("token/missing_token/401", reason(check(gateway, Map.of("Origin", ORIGIN))));
        // a same-origin GET carries no Origin header: the page names its origin in the query (the header wins)
        HttpResponse<String> named = send("GET", "/v1/ws/check?origin=" + evil, Map.of("Authorization", "Bearer " + tokens.valid("cid")));
        assertTrue(named.body().contains("\"reason\":\"origin\""), named.body());
        HttpResponse<String> both = send("GET", "/v1/ws/check?origin=" + evil,
                Map.of("Authorization", "Bearer " + tokens.valid("cid"), "Origin", ORIGIN));
        assertEquals("{\"ok\":true}", both.body());
        // the token is read from the header only, and a ticket is neither checked nor spent
        assertEquals("token/missing_token/401", reason(check(gateway, Map.of())), "no credential");
        String t = ticket(tokens.valid("cid"));
        HttpResponse<String> withTicket = send("GET", "/v1/ws/check?ticket=" + t + "&access_token=" + tokens.valid("cid"), Map.of());
        assertTrue(withTicket.body().contains("missing_token"), withTicket.body());
        try (WsClient ws = WsClient.connect(wsWith("?ticket=" + t), Map.of())) {
            assertInstanceOf(WelcomeFrame.class, ws.next(WAIT), "the ticket still opens its connection");
        }
        // the preflight of a page of any origin is answered, without any check
        HttpResponse<String> preflight = send("OPTIONS", "/v1/ws/check", Map.of("Origin", evil,
                "Access-Control-Request-Method", "GET", "Access-Control-Request-Headers", "authorization"));
        assertEquals(204, preflight.statusCode());
        assertEquals(evil, preflight.headers().firstValue("Access-Control-Allow-Origin").orElse(null));
        assertEquals("Authorization", preflight.headers().firstValue("Access-Control-Allow-Headers").orElse(null));
        assertEquals(405, send("POST", "/v1/ws/check", Map.of()).statusCode());
        assertTrue(gateway.count("notify.gateway.handshake.rejections", "transport", "check", "reason", "origin") >= 1);
        assertTrue(gateway.count("notify.gateway.handshake.rejections", "transport", "check", "reason", "token_expired") >= 1);
    }

    @Test
    void theCheckLooksAtTheHandshakeBucketWithoutTakingAndSeesADrain(Infra infra) throws Exception {
        try (GatewayHarness small = new GatewayHarness(infra, "gw-check",
                Map.of("notify.gateway.handshake-rate", "1", "notify.gateway.handshake-burst", "1",
                        "notify.gateway.drain-window", "5s"))) {
            Map<String, String> valid = Map.of("Authorization", "Bearer " + small.tokens().valid("dee"));
            // checks take nothing from the handshake bucket: many of them leave its one token there
            for (int i = 0; i < 5; i++) {
                assertTrue(check(small, valid).get("ok").asBoolean(), "a check spends no handshake token");
            }
            // an authenticated handshake takes the bucket's one token; the check right after it finds the bucket empty
            // (tried a few times: on a loaded machine a second may pass between the two and refill it)
            JsonNode limited = null;
            for (int i = 0; i < 5 && limited == null; i++) {
                RawWsClient.handshakeStatus(small.port(), Map.of("Sec-WebSocket-Protocol", "notify.v1",
                        "Authorization", valid.get("Authorization")));
                JsonNode verdict = check(small, valid);
                limited = verdict.get("ok").asBoolean() ? null : verdict;
            }
            assertNotNull(limited, "the check never found the bucket empty");
            assertEquals("admission/the node admits a bounded number of handshakes per second/503", reason(limited));
            assertTrue(limited.get("retryAfter").asInt() >= 1, limited.toString());
            assertTrue(small.count("notify.gateway.handshake.rejections", "transport", "check", "reason", "rate_limited") >= 1);
            Await.until("the bucket refills", WAIT, () -> check(small, valid).get("ok").asBoolean());

            // a drain lasts while a connection is held: checks meanwhile say so
            String token = small.tokens().valid("dee");
            WsClient[] held = new WsClient[1];
            Await.until("a connection is admitted", WAIT, () -> {
                try {
                    held[0] = WsClient.connect(small.ws(), token);
                    return true;
                } catch (IllegalStateException refused) {
                    return false; // the bucket is empty for a moment yet
                }
            });
            try (WsClient ws = held[0]) {
                assertInstanceOf(WelcomeFrame.class, ws.next(WAIT));
                CompletableFuture<?> drain = CompletableFuture.runAsync(() -> small.server().drain());
                JsonNode[] draining = new JsonNode[1];
                // until the drain has begun a check may still find the bucket empty (the held connection took its token)
                Await.until("a check during the drain", WAIT, () -> {
                    draining[0] = check(small, valid);
                    return !draining[0].get("ok").asBoolean() && reason(draining[0]).startsWith("draining/");
                });
                assertEquals("draining/this node is shutting down; another node will answer/503", reason(draining[0]));
                assertEquals(1, draining[0].get("retryAfter").asInt());
                assertEquals(1001, ws.closeCode(WAIT));
                drain.get(10, TimeUnit.SECONDS);
            }
        }
    }
}
