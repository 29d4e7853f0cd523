package io.notify.schemas.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.notify.schemas.NotifyJson;
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
    void roomStreamsAreReservedWithAClearMessage() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> StreamId.parse("r:lobby"));
        assertTrue(e.getMessage().contains("reserved"), e.getMessage());
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
