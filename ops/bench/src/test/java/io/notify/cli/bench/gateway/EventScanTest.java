package io.notify.cli.bench.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.notify.protocol.NotifyJson;
import io.notify.protocol.event.EventClass;
import io.notify.protocol.frame.EventFrame;
import io.notify.protocol.frame.FrameCodec;
import io.notify.protocol.stream.StreamId;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The agents' scan reads what the full decode reads, for the frames the gateway writes, and gives up on anything else. */
class EventScanTest {

    @Test
    void scanEqualsTheFullDecodeOnTheGatewaysFrames() throws Exception {
        ObjectNode bench = JsonNodeFactory.instance.objectNode().put("n", 17).put("sentAtMs", 1764410130123L);
        ObjectNode tracked = JsonNodeFactory.instance.objectNode().put("run", "r1").put("n", 3);
        for (EventFrame f : List.of(
                new EventFrame(StreamId.BROADCAST, "k3x9m2p8q7rdw5ta", 17L, "room-17", "bench.room", EventClass.DURABLE, bench, null),
                new EventFrame(StreamId.forUser("u-7"), "e1", 1L, "gd-1", "bench.gateway", EventClass.DURABLE, tracked, null),
                new EventFrame(StreamId.forRoom("chat-1"), null, null, "t-1", "chat.typing", EventClass.EPHEMERAL,
                        JsonNodeFactory.instance.objectNode(), null))) {
            String text = FrameCodec.v1().encode(f);
            assertEquals(NotifyJson.mapper().readTree(text), NotifyJson.mapper().readTree(FrameCodec.v1().encode(EventScan.read(text))),
                    "the scan holds every field the frame has: " + text);
        }
    }

    @Test
    void anythingElseIsLeftToTheFullDecode() {
        assertNull(EventScan.read("{\"t\":\"ping\"}"));
        assertNull(EventScan.read("{\"t\":\"event\", \"stream\":\"b:all\"}"));
        assertNull(EventScan.read("{\"t\":\"event\",\"stream\":\"b:all\",\"epoch\":\"e\",\"seq\":x}"));
        assertNull(EventScan.read("{\"t\":\"event\",\"stream\":\"bad stream\",\"id\":\"i\",\"type\":\"t\",\"class\":\"durable\",\"data\":{}}"));
    }
}
