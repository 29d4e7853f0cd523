package io.notify.registry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RouteFilterTest {

    private static final long NOW = 1_700_000_000_000L;
    private final ConnectionRef a1 = new ConnectionRef("a", "inc1", "c1");
    private final ConnectionRef a2 = new ConnectionRef("a", "inc1", "c2");
    private final ConnectionRef b1 = new ConnectionRef("b", "incB", "c1");

    @Test
    void liveWhenLeaseValidAndNodeAliveWithSameIncarnation() {
        Routes routes = RouteFilter.filter(List.of(lease(a1, NOW + 1), lease(b1, NOW + 45_000)),
                Map.of("a", "inc1", "b", "incB"), NOW);
        assertTrue(routes.available());
        assertEquals(List.of(a1, b1), routes.live());
        assertEquals(List.of(), routes.stale());
        assertEquals(Map.of("a", List.of("c1"), "b", List.of("c1")), routes.connectionsByNode());
    }

    @Test
    void expiredLeaseIsStaleAtAndAfterItsExpiry() {
        Map<String, String> alive = Map.of("a", "inc1");
        assertEquals(List.of(a1), RouteFilter.filter(List.of(lease(a1, NOW)), alive, NOW).stale());
        assertEquals(List.of(a1), RouteFilter.filter(List.of(lease(a1, NOW - 1)), alive, NOW).stale());
        assertEquals(List.of(a1), RouteFilter.filter(List.of(lease(a1, NOW + 1)), alive, NOW).live());
    }

    @Test
    void deadNodeMakesAllItsMembersStale() {
        Routes routes = RouteFilter.filter(List.of(lease(a1, NOW + 1000), lease(a2, NOW + 1000), lease(b1, NOW + 1000)),
                Map.of("b", "incB"), NOW);
        assertEquals(List.of(b1), routes.live());
        assertEquals(List.of(a1, a2), routes.stale());
    }

    @Test
    void oldIncarnationIsStaleEvenWithAValidLease() {
        ConnectionRef old = new ConnectionRef("a", "inc0", "c9");
        Routes routes = RouteFilter.filter(List.of(lease(old, NOW + 40_000), lease(a1, NOW + 40_000)),
                Map.of("a", "inc1"), NOW);
        assertEquals(List.of(a1), routes.live());
        assertEquals(List.of(old), routes.stale());
    }

    private static RouteFilter.Lease lease(ConnectionRef c, long expiresAt) {
        return new RouteFilter.Lease(c, expiresAt);
    }
}
