package io.notify.cli.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ValueScanTest {

    private static ValueScan scan(String json, String... paths) {
        return ValueScan.of(json.getBytes(StandardCharsets.UTF_8), new ValueScan.Paths(Set.of(paths)));
    }

    @Test
    void picksTopLevelAndNestedFieldsOnly() {
        ValueScan v = scan("{\"id\":\"e1\",\"to\":{\"users\":[\"42\",\"43\"]},\"seq\":17,\"data\":{\"a\":[1,{\"b\":2}]},"
                + "\"event\":{\"id\":\"x\",\"class\":\"durable\"},\"extra\":{\"id\":\"no\"}}", "id", "to.users", "seq", "data", "event.class");
        assertTrue(v.isJson());
        assertEquals("e1", v.text("id"));
        assertEquals(List.of("42", "43"), v.list("to.users"));
        assertEquals("17", v.text("seq"));
        assertEquals("{\"a\":[1,{\"b\":2}]}", v.text("data"));
        assertEquals("durable", v.text("event.class"));
        assertNull(v.text("event.id"), "not wanted");
        assertNull(v.text("extra.id"));
    }

    @Test
    void objectsInAnArrayAreKeptAsTheirJsonText() {
        ValueScan v = scan("{\"devices\":[{\"device\":\"phone-1\",\"acked\":15},null,[1],{\"device\":\"web\"}],\"ids\":[\"a\",2]}",
                "devices", "ids");
        assertEquals(List.of("{\"device\":\"phone-1\",\"acked\":15}", "{\"device\":\"web\"}"), v.list("devices"));
        assertEquals(List.of("a", "2"), v.list("ids"));
    }

    @Test
    void nullIsAbsentAndNonJsonIsFlagged() {
        assertNull(scan("{\"id\":null}", "id").text("id"));
        assertFalse(scan("{\"id\":\"a\"", "id").isJson());
        assertFalse(scan("{} {}").isJson());
        assertFalse(scan("not json").isJson());
        assertFalse(scan("").isJson());
        assertTrue(scan("\"just a string\"").isJson());
        assertNull(ValueScan.of(null, ValueScan.Paths.NONE).bytes());
    }

    @Test
    void detectsLineBreaksInWhitespace() {
        assertTrue(scan("{\n\"id\":\"a\"\n}").hasLineBreak());
        assertFalse(scan("{\"id\":\"a\\nb\"}").hasLineBreak(), "an escaped newline is fine on one line");
    }
}
