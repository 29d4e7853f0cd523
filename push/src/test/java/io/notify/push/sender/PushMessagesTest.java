package io.notify.push.sender;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.notify.protocol.NotifyJson;
import io.notify.protocol.event.Digest;
import io.notify.protocol.event.Fallback;
import io.notify.protocol.inbox.FallbackRecord;
import io.notify.protocol.stream.SequencedEvent;
import io.notify.protocol.stream.StreamId;
import io.notify.push.provider.PushMessage;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What one push carries for one event, and for a digest of many. */
class PushMessagesTest {

    static final StreamId U = StreamId.forUser("42");
    static final Fallback PUSH = new Fallback("2m", "push");
    static final Digest DIGEST = new Digest("comments:p-9", "15m");

    private static SequencedEvent event(long seq, String id, Digest digest) {
        ObjectNode data = NotifyJson.mapper().createObjectNode().put("title", "New comment").put("body", "Ana: nice");
        return new SequencedEvent(U, "k3x9m2p8q7rdw5ta", seq, id, "comment.added", data, null, null, 1, 2, PUSH, null, null, false,
                digest, List.of());
    }

    private static FallbackRecord record(SequencedEvent event, FallbackRecord.Digested digest) {
        return new FallbackRecord(U.value(), "42", "push", FallbackRecord.Reason.NO_DEVICE, event, List.of(), 3, 4, List.of(), digest);
    }

    private static JsonNode payload(PushMessage m) throws IOException {
        return NotifyJson.mapper().readTree(m.payload());
    }

    @Test
    void oneEventIsItsOwnPushCollapsedByItsId() throws IOException {
        PushMessage m = PushMessages.of(record(event(5, "c-1", null), null), Duration.ofHours(1));
        assertEquals("c-1", m.collapseId());
        assertEquals("Ana: nice", m.alert().body());
        assertFalse(payload(m).has("digest"));
    }

    @Test
    void aDigestSaysHowManyAndReplacesThePreviousDigestOfItsKey() throws IOException {
        SequencedEvent first = event(5, "c-1", DIGEST);
        PushMessage m = PushMessages.of(record(event(14, "c-10", DIGEST), new FallbackRecord.Digested(DIGEST.key(), 9, first)),
                Duration.ofHours(1));
        JsonNode p = payload(m);
        assertEquals("c-10", p.path("id").asText(), "the last event folded");
        assertEquals(9, p.path("digest").path("count").asLong());
        assertEquals(5, p.path("digest").path("firstSeq").asLong());
        assertEquals("c-1", p.path("digest").path("firstId").asText());
        assertEquals("Ana: nice (+8 more)", m.alert().body());
        assertEquals(PushMessages.collapseId("digest:comments:p-9"), m.collapseId());
    }

    @Test
    void aDigestOfOneReadsLikeOneEvent() {
        assertEquals("Ana: nice", PushMessages.alert(event(1, "c-1", null).data(), 1).body());
        assertNull(PushMessages.alert(NotifyJson.mapper().createObjectNode(), 3), "no title: a data-only push");
        assertEquals("(+2 more)", PushMessages.alert(NotifyJson.mapper().createObjectNode().put("title", "t"), 3).body());
    }
}
