package io.notify.protocol.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.notify.protocol.NotifyJson;
import java.util.List;
import org.junit.jupiter.api.Test;

class StreamIdTest {

    @Test
    void userStreams() {
        StreamId s = StreamId.forUser("42");
        assertEquals("u:42", s.value());
        assertEquals("42", s.userId());
        assertTrue(s.isUser());
        assertEquals(s, StreamId.parse("u:42"));
        assertEquals("a@b.c:x", StreamId.parse("u:a@b.c:x").userId());
    }

    @Test
    void rejectsWhatWouldBreakKeysHashTagsOrMembers() {
        for (String bad : new String[] {"42", "u:", "u:a|b", "u:{42}", "u:a b", "x:42", "U:42", "u:" + "a".repeat(129)}) {
            assertThrows(IllegalArgumentException.class, () -> StreamId.parse(bad), bad);
        }
        assertThrows(IllegalArgumentException.class, () -> StreamId.parse(null));
        assertThrows(IllegalArgumentException.class, () -> StreamId.forUser("a|b"));
    }

    @Test
    void roomAndBroadcastStreams() {
        StreamId room = StreamId.parse("r:org-7.chat:general");
        assertEquals(StreamId.Kind.ROOM, room.kind());
        assertEquals("org-7.chat:general", room.room());
        assertEquals(room, StreamId.forRoom("org-7.chat:general"));
        assertEquals(StreamId.Kind.BROADCAST, StreamId.parse("b:all").kind());
        assertTrue(StreamId.BROADCAST.isBroadcast());
        assertEquals(StreamId.Kind.USER, StreamId.parse("u:a@b").kind());
        for (String bad : List.of("r:", "r:a@b", "r:" + "x".repeat(129), "r:a b", "r:{x}", "b:", "b:some", "x:1")) {
            assertFalse(StreamId.isValid(bad), bad);
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> StreamId.parse(bad), bad);
            assertTrue(e.getMessage().contains("r:<room>"), e.getMessage());
        }
        assertThrows(IllegalStateException.class, () -> StreamId.BROADCAST.room());
        assertThrows(IllegalStateException.class, () -> room.userId());
    }

    @Test
    void longInputIsClippedInMessages() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> StreamId.parse("z".repeat(10_000)));
        assertTrue(e.getMessage().length() < 300, e.getMessage());
    }

    @Test
    void jsonIsAPlainString() throws Exception {
        assertEquals("\"u:42\"", NotifyJson.mapper().writeValueAsString(StreamId.forUser("42")));
        assertEquals(StreamId.forUser("42"), NotifyJson.mapper().readValue("\"u:42\"", StreamId.class));
        assertThrows(Exception.class, () -> NotifyJson.mapper().readValue("\"u:a|b\"", StreamId.class));
    }
}
