package io.notify.cli.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.notify.protocol.event.EventIds;
import org.junit.jupiter.api.Test;

class RepublishIdsTest {

    @Test
    void wholeEnvelopeGetsRoundSuffix() {
        assertEquals("ord-1:shipped.r1", RepublishIds.derive("ord-1:shipped", null, 1));
        assertEquals("ord-1:shipped.r2", RepublishIds.derive("ord-1:shipped", null, 2));
    }

    @Test
    void perStreamCopiesGetDistinctDeterministicIds() {
        String a = RepublishIds.derive("ord-1:shipped", "u:42", 1);
        String b = RepublishIds.derive("ord-1:shipped", "u:43", 1);
        assertTrue(a.startsWith("ord-1:shipped.r1."), a);
        assertEquals(a, RepublishIds.derive("ord-1:shipped", "u:42", 1), "deterministic: a re-run dedups like a retry");
        assertNotEquals(a, b);
        assertNotEquals(a, RepublishIds.derive("ord-1:shipped", "u:42", 2));
        assertEquals("ord-1:shipped.r1.".length() + 12, a.length());
    }

    @Test
    void longIdsStayWithinTheLimitAndValid() {
        String old = "x".repeat(128);
        String a = RepublishIds.derive(old, "u:42", 1);
        String b = RepublishIds.derive(old, null, 1);
        assertTrue(a.length() <= 128 && b.length() <= 128);
        assertNotEquals(a, b);
        assertTrue(a.startsWith("r1-"));
        for (String id : new String[] {a, b, RepublishIds.derive("a", "u:x@y.example", 7), RepublishIds.derive("x".repeat(120), null, 1)}) {
            assertTrue(EventIds.isValid(id), id);
        }
        assertEquals("x".repeat(120) + ".r1", RepublishIds.derive("x".repeat(120), null, 1));
    }

    @Test
    void roundStartsAtOne() {
        assertThrows(IllegalArgumentException.class, () -> RepublishIds.derive("a", null, 0));
    }
}
