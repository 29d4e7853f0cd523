package io.notify.protocol.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class PositionTest {

    @Test
    void formatsAsEpochColonSeq() {
        assertEquals("k3x9m2p8q7rdw5ta:17", Position.of("k3x9m2p8q7rdw5ta", 17).format());
        assertEquals("e_1-x:1", Position.of("e_1-x", 1).toString());
    }

    @Test
    void parseAndFormatAreInverse() {
        for (String s : new String[] {"a:1", "k3x9m2p8q7rdw5ta:17", "E-_9:9007199254740991", "x".repeat(64) + ":1234567890"}) {
            assertEquals(s, Position.parse(s).format());
        }
        Position p = Position.of("abc", 42);
        assertEquals(p, Position.parse(p.format()));
    }

    @Test
    void parseErrorsSayWhatIsWrong() {
        assertMessage("position is empty", "");
        assertMessage("position is empty", null);
        assertMessage("has no ':'", "abc17");
        assertMessage("seq must be a decimal integer", "abc:");
        assertMessage("seq must be a decimal integer", "abc:0");
        assertMessage("seq must be a decimal integer", "abc:017");
        assertMessage("seq must be a decimal integer", "abc:+17");
        assertMessage("seq must be a decimal integer", "abc:-1");
        assertMessage("seq must be a decimal integer", "abc:1x");
        assertMessage("seq must be from 1 to", "abc:9007199254740992");
        assertMessage("epoch must be 1..64 chars", ":17");
        assertMessage("epoch must be 1..64 chars", "a:b:17");
        assertMessage("epoch must be 1..64 chars", "a b:17");
        assertMessage("at most 81", "x".repeat(65) + ":1234567890123456");
    }

    @Test
    void constructorRejectsInvalidParts() {
        assertThrows(IllegalArgumentException.class, () -> Position.of("ok", 0));
        assertThrows(IllegalArgumentException.class, () -> Position.of("ok", Position.MAX_SEQ + 1));
        assertThrows(IllegalArgumentException.class, () -> Position.of(null, 1));
        assertThrows(IllegalArgumentException.class, () -> Position.of("x".repeat(65), 1));
        assertThrows(IllegalArgumentException.class, () -> Position.of("new\nline", 1));
    }

    @Test
    void compactFormIsSafeForSseIdAndHeaders() {
        String s = Position.of("x".repeat(64), Position.MAX_SEQ).format();
        assertEquals(Position.MAX_FORMATTED_LENGTH, s.length());
        assertTrue(s.chars().allMatch(c -> c > 0x20 && c < 0x7f), s);
    }

    @Test
    void newEpochsAreValidAndDistinct() {
        String a = Position.newEpoch();
        String b = Position.newEpoch();
        assertTrue(Position.EPOCH.matcher(a).matches(), a);
        assertEquals(16, a.length());
        assertNotEquals(a, b);
        assertEquals(Position.of(a, 8), Position.of(a, 7).next());
        assertTrue(Position.of(a, 1).sameEpoch(Position.of(a, 9)));
    }

    private static void assertMessage(String expected, String input) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Position.parse(input));
        assertTrue(e.getMessage().contains(expected), e.getMessage());
    }
}
