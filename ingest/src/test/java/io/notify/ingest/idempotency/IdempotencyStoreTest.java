package io.notify.ingest.idempotency;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import com.fasterxml.jackson.databind.JsonNode;
import io.notify.ingest.produce.Accepted;
import io.notify.protocol.event.EventEnvelope;
import io.notify.schemas.validation.EventValidator;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class IdempotencyStoreTest {

    private static EventEnvelope event(String json) {
        JsonNode n = EventValidator.readTree(json.getBytes(StandardCharsets.UTF_8));
        return EventValidator.v1().toEnvelope(n);
    }

    @Test
    void sameIdSameBodySharesTheFirstResultEvenWhilePending() {
        IdempotencyStore store = new IdempotencyStore(Duration.ofMinutes(1), 100);
        byte[] d = EventDigest.of(event("{\"id\":\"a\",\"type\":\"t\",\"to\":{\"users\":[\"1\"]}}"));
        var fresh = assertInstanceOf(IdempotencyStore.Fresh.class, store.claim("a", d));
        var replay = assertInstanceOf(IdempotencyStore.Replay.class, store.claim("a", d));
        assertSame(fresh.slot(), replay.original());
        Accepted a = new Accepted("a", "notify.events", 1, 7, 0);
        fresh.slot().complete(a);
        assertSame(a, replay.original().join());
    }

    @Test
    void sameIdOtherBodyIsAConflict() {
        IdempotencyStore store = new IdempotencyStore(Duration.ofMinutes(1), 100);
        store.claim("a", EventDigest.of(event("{\"id\":\"a\",\"type\":\"t\",\"to\":{\"users\":[\"1\"]}}")));
        assertInstanceOf(IdempotencyStore.Conflict.class,
                store.claim("a", EventDigest.of(event("{\"id\":\"a\",\"type\":\"t\",\"to\":{\"users\":[\"2\"]}}"))));
    }

    @Test
    void releasedClaimCanBeRetriedButANewerClaimIsKept() {
        IdempotencyStore store = new IdempotencyStore(Duration.ofMinutes(1), 100);
        byte[] d = new byte[] {1};
        var first = assertInstanceOf(IdempotencyStore.Fresh.class, store.claim("a", d));
        store.release("a", first.slot());
        var second = assertInstanceOf(IdempotencyStore.Fresh.class, store.claim("a", d));
        store.release("a", first.slot());
        assertInstanceOf(IdempotencyStore.Replay.class, store.claim("a", d));
        assertNotEquals(first.slot(), second.slot());
    }

    @Test
    void boundedByCount() {
        IdempotencyStore store = new IdempotencyStore(Duration.ofMinutes(1), 10);
        for (int i = 0; i < 1000; i++) {
            store.claim("id" + i, new byte[] {1});
        }
        assertEquals(10, store.size(), 2);
    }

    @Test
    void disabledWindowNeverRemembers() {
        IdempotencyStore store = new IdempotencyStore(Duration.ZERO, 100);
        assertInstanceOf(IdempotencyStore.Fresh.class, store.claim("a", new byte[] {1}));
        assertInstanceOf(IdempotencyStore.Fresh.class, store.claim("a", new byte[] {2}));
    }

    @Test
    void digestIgnoresKeyOrderWhitespaceAndExplicitDefaults() {
        byte[] a = EventDigest.of(event("{\"id\":\"a\",\"type\":\"t\",\"to\":{\"users\":[\"1\"]},\"data\":{\"x\":1,\"y\":[1,2]}}"));
        byte[] b = EventDigest.of(event("{ \"to\":{\"users\":[\"1\"]}, \"class\":\"durable\", \"data\":{\"y\":[1,2],\"x\":1.0},"
                + " \"type\":\"t\", \"id\":\"a\"}"));
        byte[] c = EventDigest.of(event("{\"id\":\"a\",\"type\":\"t\",\"to\":{\"users\":[\"1\"]},\"data\":{\"x\":1,\"y\":[2,1]}}"));
        assertEquals(java.util.HexFormat.of().formatHex(a), java.util.HexFormat.of().formatHex(b));
        assertNotEquals(java.util.HexFormat.of().formatHex(a), java.util.HexFormat.of().formatHex(c));
    }

    @Test
    void digestSortsNestedKeysAndReadsNumbersByValue() {
        byte[] a = EventDigest.of(event("{\"id\":\"a\",\"type\":\"t\",\"to\":{\"users\":[\"1\"]},"
                + "\"data\":{\"o\":{\"b\":[{\"z\":1,\"y\":2}],\"a\":100,\"c\":0.5}}}"));
        byte[] b = EventDigest.of(event("{\"id\":\"a\",\"type\":\"t\",\"to\":{\"users\":[\"1\"]},"
                + "\"data\":{\"o\":{\"c\":5e-1,\"a\":1e2,\"b\":[{\"y\":2.00,\"z\":1}]}}}"));
        byte[] c = EventDigest.of(event("{\"id\":\"a\",\"type\":\"t\",\"to\":{\"users\":[\"1\"]},"
                + "\"data\":{\"o\":{\"b\":[{\"z\":1,\"y\":2}],\"a\":100,\"c\":\"0.5\"}}}"));
        assertArrayEquals(a, b);
        assertFalse(Arrays.equals(a, c), "a number and a string are different events");
    }
}
