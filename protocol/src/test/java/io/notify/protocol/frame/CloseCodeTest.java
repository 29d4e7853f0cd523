package io.notify.protocol.frame;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.notify.protocol.frame.CloseCode.Reconnect;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class CloseCodeTest {

    @Test
    void codesAndPolicies() {
        assertEquals(Reconnect.NEVER, CloseCode.NORMAL.policy());
        assertEquals(Reconnect.PROMPTLY, CloseCode.GOING_AWAY.policy());
        assertEquals(Reconnect.PROMPTLY, CloseCode.TOKEN_EXPIRED.policy());
        assertEquals(Reconnect.PROMPTLY, CloseCode.SLOW_CONSUMER.policy());
        assertEquals(Reconnect.BACKOFF, CloseCode.TOO_MANY_CONNECTIONS.policy());
        assertEquals(Reconnect.BACKOFF, CloseCode.RATE_LIMITED.policy());
        assertEquals(Reconnect.BACKOFF, CloseCode.TRY_AGAIN_LATER.policy());
        assertFalse(CloseCode.FORBIDDEN.reconnect());
        assertFalse(CloseCode.POLICY_VIOLATION.reconnect());
        assertTrue(CloseCode.INTERNAL_ERROR.reconnect());
        assertEquals(4008, CloseCode.SLOW_CONSUMER.code());
        assertEquals(Optional.of(CloseCode.RATE_LIMITED), CloseCode.of(4029));
        assertEquals(Optional.empty(), CloseCode.of(4999));
    }

    @Test
    void unknownCodesAndAbnormalClosuresBackOff() {
        assertEquals(Reconnect.BACKOFF, CloseCode.policyFor(1006));
        assertEquals(Reconnect.BACKOFF, CloseCode.policyFor(4321));
        assertEquals(Reconnect.NEVER, CloseCode.policyFor(4003));
    }

    @Test
    void codesAreUniqueInRangeAndReasonsFitACloseFrame() {
        Set<Integer> seen = new HashSet<>();
        for (CloseCode c : CloseCode.values()) {
            assertTrue(seen.add(c.code()), c.name());
            assertTrue((c.code() >= 1000 && c.code() <= 1014) || (c.code() >= 4000 && c.code() <= 4999), c.name());
            assertTrue(c.reason().getBytes(StandardCharsets.UTF_8).length <= 123, c.name());
        }
    }
}
