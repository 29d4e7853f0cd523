package io.notify.registry.route;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lettuce.core.ScoredValue;
import io.notify.registry.ConnectionRef;
import io.notify.registry.Routes;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What the router reads: a stream's set as a snapshot, and how long a liveness reading is trusted. */
class StreamSnapshotTest {

    private static final long NOW = 1_700_000_000_000L;
    private final ConnectionRef a1 = new ConnectionRef("a", "inc1", "c1");
    private final ConnectionRef a2 = new ConnectionRef("a", "inc1", "c2");
    private final ConnectionRef b1 = new ConnectionRef("b", "incB", "c1");

    @Test
    void unparseableMembersAreSetAsideNeitherRoutedNorStale() {
        StreamSnapshot snapshot = StreamSnapshot.of(List.of(
                ScoredValue.just(NOW + 1000, a1.member()),
                ScoredValue.just(NOW + 1000, "garbage"),
                ScoredValue.just(NOW + 1000, "a|inc1|c1|extra"),
                ScoredValue.just(NOW + 1000, "v2:a|inc1|c3")));
        assertEquals(List.of("garbage", "a|inc1|c1|extra", "v2:a|inc1|c3"), snapshot.unparseable());
        assertEquals(java.util.Set.of("a"), snapshot.nodes());
        RouteReader.Result result = new RouteReader.Result(snapshot, Map.of("a", new NodeAlive("inc1", Long.MAX_VALUE)));
        Routes routes = result.routes(NOW);
        assertEquals(List.of(a1), routes.live());
        assertEquals(List.of(), routes.stale());
    }

    @Test
    void snapshotKeepsScoresAndClampsOddOnes() {
        StreamSnapshot snapshot = StreamSnapshot.of(List.of(ScoredValue.just(NOW + 5, a1.member()),
                ScoredValue.just(Double.POSITIVE_INFINITY, a2.member()), ScoredValue.just(Double.NaN, b1.member())));
        assertEquals(NOW + 5, snapshot.scoreOf(a1));
        assertEquals(Long.MAX_VALUE, snapshot.scoreOf(a2));
        assertEquals(Long.MIN_VALUE, snapshot.scoreOf(b1));
        assertEquals(StaleRemover.UNSEEN, snapshot.scoreOf(new ConnectionRef("z", "i", "c")));
        assertEquals(StreamSnapshot.EMPTY, StreamSnapshot.of(List.of()));
    }

    @Test
    void livenessIsTrustedOnlyUntilItsKnownTtlRunsOut() {
        assertEquals(new NodeAlive(null, Long.MAX_VALUE), NodeAlive.read(null, -2, NOW));
        assertEquals(new NodeAlive(null, Long.MAX_VALUE), NodeAlive.read("inc1", -2, NOW)); // expired between MGET and PTTL
        assertEquals(new NodeAlive("inc1", Long.MAX_VALUE), NodeAlive.read("inc1", -1, NOW));
        NodeAlive alive = NodeAlive.read("inc1", 3000, NOW);
        assertTrue(alive.trustedAt(NOW + 2999));
        assertTrue(!alive.trustedAt(NOW + 3000));

        StreamSnapshot snapshot = StreamSnapshot.of(List.of(ScoredValue.just(NOW + 60_000, a1.member())));
        RouteReader.Result result = new RouteReader.Result(snapshot, Map.of("a", alive));
        assertEquals(List.of(a1), result.routes(NOW + 2999).live());
        assertEquals(List.of(a1), result.routes(NOW + 3000).stale()); // liveness key's TTL ran out: node dead
    }
}
