package io.notify.cli.bench.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The per-client verifier: exactly the missed seqs, in order, once. */
class ResumeTallyTest {

    @Test
    void exactlyTheMissedEventsCompleteTheRound() {
        ResumeTally t = new ResumeTally("e1", 10);
        t.expect(3);
        assertFalse(t.complete());
        t.onEvent("e1", 11);
        t.onEvent("e1", 12);
        assertFalse(t.complete());
        t.onEvent("e1", 13);
        assertTrue(t.complete());
        assertEquals(13, t.position());
        assertEquals(3, t.received());
        assertEquals(0, t.lost());
        assertEquals(0, t.duplicates());
    }

    @Test
    void duplicatesGapsOtherEpochsAndMissingAreCounted() {
        ResumeTally t = new ResumeTally("e1", 10);
        t.expect(5);
        t.onEvent("e1", 10); // already processed before the round
        t.onEvent("e1", 11);
        t.onEvent("e1", 11); // twice
        t.onEvent("e1", 13); // 12 skipped
        t.onEvent("e2", 14); // another history
        t.onReset();
        assertEquals(2, t.duplicates());
        assertEquals(1, t.outOfOrder());
        assertEquals(1, t.otherEpoch());
        assertEquals(1, t.resets());
        assertEquals(13, t.position());
        assertEquals(1 + 2, t.lost()); // 12 skipped; 14 and 15 still missing
        assertFalse(t.complete());
    }

    @Test
    void eventsBeyondTheRoundAreFlaggedAndTheNextRoundStartsFromThePosition() {
        ResumeTally t = new ResumeTally("e1", 0);
        t.expect(1);
        t.onEvent("e1", 1);
        t.onEvent("e1", 2);
        assertEquals(1, t.beyond());
        t.expect(2);
        assertEquals(0, t.beyond());
        t.onEvent("e1", 3);
        t.onEvent("e1", 4);
        assertTrue(t.complete());
        assertEquals(0, t.lost());
    }

    @Test
    void aClientWithoutPositionStartsAtTheFirstEventItSees() {
        ResumeTally t = new ResumeTally(null, 0);
        t.onEvent("e9", 41);
        t.onEvent("e9", 42);
        assertEquals("e9", t.epoch());
        assertEquals(42, t.position());
        assertEquals(0, t.duplicates());
    }
}
