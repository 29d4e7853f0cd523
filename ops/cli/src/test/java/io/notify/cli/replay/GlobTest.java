package io.notify.cli.replay;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

class GlobTest {

    @Test
    void starMatchesAnyRunIncludingDotsAndNothing() {
        Predicate<String> g = Glob.compile("order.*");
        assertTrue(g.test("order.shipped"));
        assertTrue(g.test("order.shipped.late"));
        assertTrue(g.test("order."));
        assertFalse(g.test("order"));
        assertFalse(g.test("reorder.shipped"));
        assertTrue(Glob.compile("*").test(""));
        assertTrue(Glob.compile("*.shipped").test("order.shipped"));
    }

    @Test
    void questionMarkIsOneCharacterAndTheRestIsLiteral() {
        assertTrue(Glob.compile("chat.typ?ng").test("chat.typing"));
        assertFalse(Glob.compile("chat.typ?ng").test("chat.typng"));
        assertFalse(Glob.compile("order.shipped").test("orderXshipped"), "a dot is a dot, not a regex wildcard");
        assertTrue(Glob.compile("a+b(c)[d]").test("a+b(c)[d]"));
        assertFalse(Glob.compile("Order.*").test("order.shipped"), "case-sensitive");
        assertFalse(Glob.compile("order.*").test(null));
    }

    @Test
    void emptyGlobIsBadInput() {
        assertThrows(UsageException.class, () -> Glob.compile(""));
    }
}
