package io.notify.registry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.notify.registry.lease.NodeRegistry;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ConnectionRefTest {

    @Test
    void memberRoundTrips() {
        ConnectionRef ref = new ConnectionRef("gw-1", "lx2a-9f3k", "c.17_x");
        assertEquals("gw-1|lx2a-9f3k|c.17_x", ref.member());
        assertEquals(ref, ConnectionRef.parse(ref.member()));
        assertEquals(Optional.of(ref), ConnectionRef.tryParse(ref.member()));
    }

    @Test
    void aWholeNodeMemberIsNodeAndIncarnation() {
        ConnectionRef node = ConnectionRef.wholeNode("gw-1", "lx2a-9f3k");
        assertTrue(node.isWholeNode());
        assertEquals("gw-1|lx2a-9f3k", node.member());
        assertEquals(node, ConnectionRef.parse("gw-1|lx2a-9f3k"));
        assertEquals(node, new ConnectionRef("gw-1", "lx2a-9f3k", ConnectionRef.WHOLE_NODE));
        assertEquals("nf:subs:{r:chat-1}", RegistryKeys.production().connections(io.notify.protocol.stream.StreamId.forRoom("chat-1")));
        assertEquals("p.nf:subs:{b:all}", new RegistryKeys("p.").connections(io.notify.protocol.stream.StreamId.BROADCAST));
        assertEquals("nf:conns:{u:42}", RegistryKeys.production().connections(io.notify.protocol.stream.StreamId.forUser("42")));
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "", "|", "||", "a", "a|", "|b", "a|b|", "a|b|*", "a|*", "|b|c", "a||c", "a|b|c|d", "a|b|c|",
            "a b|inc|c", "node:1|inc|c", "a|in{c|c", "a|inc|c}", "a|inc|c d", "ä|inc|c"})
    void malformedMembersAreRejectedByParseAndEmptyFromTryParse(String member) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ConnectionRef.parse(member));
        assertTrue(e.getMessage().contains("'"), e.getMessage());
        assertEquals(Optional.empty(), ConnectionRef.tryParse(member));
    }

    @Test
    void tooLongIdsAreUnparseable() {
        String long65 = "x".repeat(65);
        assertEquals(Optional.empty(), ConnectionRef.tryParse(long65 + "|inc|c"));
        assertEquals(Optional.empty(), ConnectionRef.tryParse("n|" + long65 + "|c"));
        assertEquals(Optional.empty(), ConnectionRef.tryParse("n|inc|" + long65));
        assertEquals("x".repeat(64), ConnectionRef.parse("x".repeat(64) + "|inc|c").nodeId());
    }

    @Test
    void nullIsUnparseable() {
        assertEquals(Optional.empty(), ConnectionRef.tryParse(null));
    }

    @Test
    void newIncarnationsAreValidConnectionIdsAndDistinct() {
        java.util.Set<String> seen = new java.util.HashSet<>();
        for (int i = 0; i < 1000; i++) {
            String inc = NodeRegistry.newIncarnation();
            assertTrue(io.notify.protocol.stream.Endpoints.CONNECTION_ID.matcher(inc).matches(), inc);
            assertTrue(seen.add(inc), "duplicate " + inc);
        }
    }
}
