package io.notify.ingest.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class RequestBodyTest {

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void mediaTypes() {
        assertEquals(RequestBody.Format.JSON, RequestBody.formatOf("application/json"));
        assertEquals(RequestBody.Format.JSON, RequestBody.formatOf("Application/JSON; charset=utf-8"));
        assertEquals(RequestBody.Format.NDJSON, RequestBody.formatOf("application/x-ndjson"));
        assertNull(RequestBody.formatOf("text/plain"));
        assertNull(RequestBody.formatOf(null));
    }

    @Test
    void objectIsSingleArrayIsBatch() throws Exception {
        assertFalse(RequestBody.split(b("{\"a\":1}"), RequestBody.Format.JSON, 1000, 10).batch());
        var split = RequestBody.split(b("[{\"a\":1},{\"a\":2}]"), RequestBody.Format.JSON, 1000, 10);
        assertTrue(split.batch());
        assertEquals(2, split.candidates().size());
    }

    @Test
    void ndjsonLinesAreItemsAndABadLineSpoilsOnlyItself() throws Exception {
        var split = RequestBody.split(b("{\"a\":1}\r\n\n{oops\n{\"a\":3}"), RequestBody.Format.NDJSON, 1000, 10);
        assertEquals(3, split.candidates().size());
        assertNull(split.candidates().get(0).problem());
        assertEquals(400, split.candidates().get(1).problem().status());
        assertEquals(3, split.candidates().get(2).document().get("a").asInt());
    }

    @Test
    void boundsAreEnforced() {
        var tooMany = assertThrows(RequestBody.Rejected.class,
                () -> RequestBody.split(b("[{},{},{}]"), RequestBody.Format.JSON, 1000, 2));
        assertEquals(413, tooMany.problem.status());
        var tooBig = assertThrows(RequestBody.Rejected.class,
                () -> RequestBody.split(b("{\"a\":\"" + "x".repeat(100) + "\"}"), RequestBody.Format.JSON, 50, 2));
        assertEquals("urn:notify:problem:event-too-large", tooBig.problem.type());
        var malformed = assertThrows(RequestBody.Rejected.class,
                () -> RequestBody.split(b("[{"), RequestBody.Format.JSON, 1000, 2));
        assertEquals(400, malformed.problem.status());
        var scalar = assertThrows(RequestBody.Rejected.class,
                () -> RequestBody.split(b("42"), RequestBody.Format.JSON, 1000, 2));
        assertEquals("urn:notify:problem:invalid-body", scalar.problem.type());
    }
}
