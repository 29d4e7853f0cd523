package io.notify.registry.route;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.lettuce.core.ScoredValue;
import io.notify.registry.ConnectionRef;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Which score a stale removal may compare on. */
class StaleDecisionTest {

    private final ConnectionRef deadNode = new ConnectionRef("b", "incB", "c1");
    private final ConnectionRef oldIncarnation = new ConnectionRef("a", "inc0", "c2");
    private final ConnectionRef expiredOnly = new ConnectionRef("a", "inc1", "c3");
    private final StreamSnapshot snapshot = StreamSnapshot.of(List.of(
            ScoredValue.just(1000, deadNode.member()),
            ScoredValue.just(2000, oldIncarnation.member()),
            ScoredValue.just(3000, expiredOnly.member())));

    @Test
    void onlyMembersWhoseNodeWasJudgedGoneMayBeRemovedByScore() {
        StaleObservations observations = new StaleObservations(10);
        observations.record("k", snapshot, Map.of("a", "inc1"));
        StaleObservations.Observation seen = observations.take("k");

        assertEquals(1000, seen.scoreIfNodeGone(deadNode));
        assertEquals(2000, seen.scoreIfNodeGone(oldIncarnation));
        assertEquals(StaleRemover.UNSEEN, seen.scoreIfNodeGone(expiredOnly)); // only expiry may remove it
        assertEquals(StaleRemover.UNSEEN, seen.scoreIfNodeGone(new ConnectionRef("z", "i", "never-seen")));
        assertNull(observations.take("k"), "an observation is used once");
    }

    @Test
    void observationsAreBounded() {
        StaleObservations observations = new StaleObservations(2);
        for (int i = 0; i < 5; i++) {
            observations.record("k" + i, snapshot, Map.of());
        }
        assertEquals(2, observations.size());
        assertNull(observations.take("k0"));
        assertEquals(snapshot, observations.take("k4").snapshot());
    }
}
