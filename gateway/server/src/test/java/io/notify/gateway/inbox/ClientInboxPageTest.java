package io.notify.gateway.inbox;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.notify.protocol.NotifyJson;
import io.notify.protocol.event.Fallback;
import io.notify.protocol.frame.EventFrame;
import io.notify.protocol.frame.FrameCodec;
import io.notify.protocol.stream.SequencedEvent;
import io.notify.protocol.stream.StreamId;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ClientInboxPageTest {

    private static final StreamId U = StreamId.forUser("42");

    @Test
    void eachEventCarriesExactlyTheFieldsOfTheProtocolsEventFrame() throws Exception {
        ObjectNode data = NotifyJson.mapper().createObjectNode().put("orderId", "1001");
        SequencedEvent stored = new SequencedEvent(U, "k3x9m2p8q7rdw5ta", 7, "ord-1:shipped", "order.shipped", data,
                OffsetDateTime.parse("2026-12-04T10:00:00Z"), "orders", 1_700_000_000_000L, 1_700_000_000_050L,
                new Fallback("2m", "push"), "order-1001");
        ObjectNode queryPage = NotifyJson.mapper().createObjectNode().put("stream", U.value()).put("unread", 1);
        queryPage.putArray("events").addObject().put("state", "unseen").set("event", NotifyJson.mapper().valueToTree(stored));
        queryPage.put("futureField", true); // page-level fields pass as they are

        JsonNode page = NotifyJson.mapper().readTree(ClientInboxPage.of(NotifyJson.mapper().writeValueAsBytes(queryPage)));

        JsonNode event = page.get("events").get(0).get("event");
        JsonNode frame = NotifyJson.mapper().readTree(FrameCodec.v1().encode(EventFrame.of(stored)).getBytes(StandardCharsets.UTF_8));
        ((ObjectNode) frame).remove("t");
        assertEquals(fieldNames(frame), fieldNames(event), "the page's event is the event frame, field for field");
        assertEquals(frame, event);
        assertEquals("unseen", page.get("events").get(0).get("state").asText());
        assertEquals(1, page.get("unread").asInt());
        assertEquals(true, page.get("futureField").asBoolean());
    }

    @Test
    void anAnswerThatIsNoPageIsRefused() {
        assertThrows(IOException.class, () -> ClientInboxPage.of("{\"stream\":\"u:42\"}".getBytes(StandardCharsets.UTF_8)));
        assertThrows(IOException.class, () -> ClientInboxPage.of("{\"events\":[{\"state\":\"seen\"}]}".getBytes(StandardCharsets.UTF_8)));
    }

    private static List<String> fieldNames(JsonNode node) {
        List<String> names = new ArrayList<>();
        node.fieldNames().forEachRemaining(names::add);
        return names;
    }
}
