package io.notify.gateway.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.notify.protocol.frame.CollapsedFrame;
import io.notify.protocol.frame.PingFrame;
import io.notify.protocol.frame.ResetFrame;
import io.notify.protocol.frame.WelcomeFrame;
import io.notify.protocol.stream.Position;
import io.notify.protocol.stream.SequencedEvent;
import io.notify.protocol.stream.StreamId;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.OffsetDateTime;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The exact bytes of docs/protocol.md §1 (SSE example). */
class SseFramingTest {

    private static final StreamId U = StreamId.forUser("42");

    private static String bytes(OutboundFrame f) {
        ByteBuffer b = SseFraming.encode(f);
        byte[] out = new byte[b.remaining()];
        b.get(out);
        return new String(out, StandardCharsets.UTF_8);
    }

    @Test
    void durableEventCarriesItsPositionAsId() {
        SequencedEvent e = new SequencedEvent(U, "k3x9m2p8q7rdw5ta", 17, "ord-1:shipped", "order.shipped",
                JsonNodeFactory.instance.objectNode().put("orderId", "ord-1"),
                OffsetDateTime.parse("2026-11-29T10:15:30.123+01:00"), "orders", 1, 2);
        assertEquals("id: k3x9m2p8q7rdw5ta:17\n"
                + "data: {\"t\":\"event\",\"stream\":\"u:42\",\"epoch\":\"k3x9m2p8q7rdw5ta\",\"seq\":17,\"id\":\"ord-1:shipped\","
                + "\"type\":\"order.shipped\",\"class\":\"durable\",\"data\":{\"orderId\":\"ord-1\"},"
                + "\"occurredAt\":\"2026-11-29T10:15:30.123+01:00\"}\n\n", bytes(OutboundFrame.event(e, true)));
    }

    @Test
    void welcomeAndPingCarryNoId() {
        assertEquals("data: {\"t\":\"welcome\",\"protocol\":\"notify.v1\",\"nodeId\":\"gw-1\",\"connectionId\":\"c-7f3a\","
                        + "\"streams\":[\"u:42\"],\"pingIntervalMs\":25000,\"serverTime\":1764410130123}\n\n",
                bytes(OutboundFrame.control(WelcomeFrame.v1("gw-1", "c-7f3a", List.of(U), 25_000, 1764410130123L))));
        assertEquals("data: {\"t\":\"ping\"}\n\n", bytes(OutboundFrame.control(PingFrame.INSTANCE)));
    }

    @Test
    void resetCarriesItsHeadOrClearsTheId() {
        assertEquals("id: k3:1200\ndata: {\"t\":\"reset\",\"stream\":\"u:42\",\"reason\":\"position_too_old\","
                        + "\"head\":{\"epoch\":\"k3\",\"seq\":1200},\"firstSeq\":201}\n\n",
                bytes(OutboundFrame.control(ResetFrame.positionTooOld(U, new Position("k3", 1200), 201))));
        assertEquals("id:\ndata: {\"t\":\"reset\",\"stream\":\"u:42\",\"reason\":\"unknown_stream\"}\n\n",
                bytes(OutboundFrame.control(ResetFrame.unknownStream(U))));
    }

    @Test
    void collapsedCarriesThePositionItMovesTheClientTo() {
        OutboundFrame collapsed = OutboundFrame.collapsed(new CollapsedFrame(U, "k3x9m2p8q7rdw5ta", 3, 5));
        assertEquals("id: k3x9m2p8q7rdw5ta:5\ndata: {\"t\":\"collapsed\",\"stream\":\"u:42\",\"epoch\":\"k3x9m2p8q7rdw5ta\","
                + "\"from\":3,\"to\":5}\n\n", bytes(collapsed));
        assertEquals(OutboundFrame.Kind.DURABLE, collapsed.kind(), "never dropped by a full queue: it stands in for durable events");
    }

    @Test
    void retryHintAndKeepAlive() {
        assertEquals("retry: 1000\n\n", bytes(OutboundFrame.sseMeta(SseFraming.retry(1000), null)));
        assertEquals(":\n\n", bytes(OutboundFrame.sseMeta(SseFraming.KEEP_ALIVE, "keep-alive")));
    }
}
