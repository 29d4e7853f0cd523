package io.notify.gateway;

import static io.notify.gateway.support.InboxHttp.problem;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.notify.devstack.Await;
import io.notify.devstack.Infra;
import io.notify.devstack.NotifyInfraExtension;
import io.notify.gateway.support.Events;
import io.notify.gateway.support.GatewayHarness;
import io.notify.gateway.support.InboxHttp;
import io.notify.gateway.support.ReceiptsReader;
import io.notify.gateway.support.WsClient;
import io.notify.protocol.frame.WelcomeFrame;
import io.notify.protocol.inbox.Receipt;
import io.notify.protocol.inbox.ReceiptKind;
import io.notify.protocol.stream.StreamId;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Devices' acks through a real gateway node (docs/gateway.md, "Receipts"; docs/inbox.md, "Delivery
 * receipts"): ack frames become at most one {@code ack} receipt per device and stream per window on the
 * prefixed {@code notify.receipts} (read back with a real consumer), named by the connection's device
 * or its connection id, and an SSE client's {@code POST /v1/inbox/ack} becomes the same receipt.
 */
@ExtendWith(NotifyInfraExtension.class)
@Timeout(120)
class GatewayAcksIT {

    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final String E = "ep1";
    private static GatewayHarness gateway;
    private static ReceiptsReader receipts;
    /** Every answer of an inbox route is checked against docs/inbox-openapi.yaml. */
    private static InboxHttp http;

    @BeforeAll
    static void start(Infra infra) {
        receipts = new ReceiptsReader(infra, 3);
        gateway = new GatewayHarness(infra, "gw-acks", Map.of(
                // acks come in bursts here: the per-connection frame rate is not what is tested
                "notify.gateway.inbound-rate", "1000",
                "notify.gateway.inbound-burst", "1000"));
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

    @Test
    void anSseClientAcksOverHttp_asAnAckFrameWould() {
        StreamId u = StreamId.forUser("sid");
        HttpResponse<String> ack = http.post("/v1/inbox/ack", "sid", "{\"upTo\":9,\"epoch\":\"ep1\",\"device\":\"laptop-1\"}");
        assertEquals(202, ack.statusCode(), ack.body());
        assertEquals("an ack names its device and the seq it acknowledges (upTo)",
                problem(http.post("/v1/inbox/ack", "sid", "{\"upTo\":9}"), 400, "invalid-body"));
        List<ConsumerRecord<StreamId, Receipt>> records = receipts.of(u, 1, WAIT);
        assertEquals(1, records.size(), records.toString());
        Receipt r = records.get(0).value();
        assertEquals(ReceiptKind.ACK, r.kind());
        assertEquals("laptop-1", r.device());
        assertEquals(9L, r.upTo());
        assertEquals("ep1", r.epoch());
    }

    @Test
    void acksBecomeAtMostOneReceiptPerDeviceAndStreamPerWindow_withTheHighestSeq() {
        StreamId u = StreamId.forUser("ada");
        try (WsClient ws = WsClient.connect(URI.create(gateway.ws() + "?device=phone-7"), gateway.tokens().valid("ada"))) {
            assertInstanceOf(WelcomeFrame.class, ws.next(WAIT));
            ws.resumeLive();
            Await.until("registered", WAIT, () -> gateway.server().sessions().ofUser("ada").size() == 1);
            gateway.publish(Events.range(u, E, 1, 3));
            assertEquals(3, ws.events(3, WAIT).size());

            long t0 = System.nanoTime();
            for (int seq = 1; seq <= 40; seq++) {
                ws.send("{\"t\":\"ack\",\"stream\":\"u:ada\",\"seq\":" + seq + "}");
            }
            long sendingMs = (System.nanoTime() - t0) / 1_000_000;
            // not this user's stream, and a room: counted, never receipts (SessionTest checks that no receipt is noted)
            ws.send("{\"t\":\"ack\",\"stream\":\"u:someone-else\",\"seq\":7}");
            ws.send("{\"t\":\"ack\",\"stream\":\"r:lobby\",\"seq\":7}");

            Await.until("the last ack written", WAIT, () -> {
                List<Receipt> got = receipts(u, 1);
                return got.get(got.size() - 1).upTo() == 40;
            });
            List<Receipt> acks = receipts(u, 1);
            assertTrue(acks.stream().allMatch(r -> r.kind() == ReceiptKind.ACK && "phone-7".equals(r.device()) && E.equals(r.epoch())),
                    acks.toString());
            for (int i = 1; i < acks.size(); i++) {
                assertTrue(acks.get(i).upTo() > acks.get(i - 1).upTo(), "one receipt per window, each higher: " + acks);
            }
            long windows = sendingMs / 100 + 2; // the windows the 40 acks can have fallen into
            assertTrue(acks.size() <= windows, acks.size() + " receipts for 40 acks sent in " + sendingMs + " ms: " + acks);
            assertTrue(gateway.count("notify.gateway.acks.coalesced") >= 40 - acks.size());
        }
        Await.until("every ack counted, the foreign and the room's too", WAIT, () -> gateway.count("notify.gateway.acks") >= 42);
    }

    @Test
    void withoutADeviceTheAckNamesTheConnection_andABadDeviceIsRefused() {
        StreamId u = StreamId.forUser("ida");
        gateway.stub().append(Events.range(u, E, 1, 4));
        try (WsClient ws = WsClient.connect(gateway.ws(), gateway.tokens().valid("ida"))) {
            WelcomeFrame welcome = assertInstanceOf(WelcomeFrame.class, ws.next(WAIT));
            ws.resume("u:ida", E, 4);
            ws.send("{\"t\":\"ack\",\"stream\":\"u:ida\",\"seq\":4}");
            Receipt ack = receipts(u, 1).get(0);
            assertEquals(welcome.connectionId(), ack.device());
            assertEquals(E, ack.epoch(), "the epoch of the position the session follows");
        }
        assertEquals(400, WsClient.refusedStatus(URI.create(gateway.ws() + "?device=bad!id"),
                Map.of("Authorization", "Bearer " + gateway.tokens().valid("ida"))));
        HttpResponse<String> sse = http.send("GET", "/v1/sse?device=" + "d".repeat(65), Map.of("Accept", "text/event-stream",
                "Authorization", "Bearer " + gateway.tokens().valid("ida")), HttpRequest.BodyPublishers.noBody());
        assertTrue(problem(sse, 400, "bad-device").startsWith("device must be 1..64 characters of [A-Za-z0-9._-]"));
        assertEquals(1.0, gateway.count("notify.gateway.handshake.rejections", "transport", "ws", "reason", "bad_device"));
        assertEquals(1.0, gateway.count("notify.gateway.handshake.rejections", "transport", "sse", "reason", "bad_device"));
    }
}
