package io.notify.cli.bench.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.BitSet;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The by-id account: every accepted event of the tracked run, to its own recipient, once. */
class IdLedgerTest {

    @Test
    void lostDuplicatedUnexpectedAndMisaddressedEventsAreTold() {
        IdLedger l = new IdLedger();
        l.track("m1", 4); // event n goes to user n % 4; this agent holds clients 2 and 3
        assertTrue(l.record(2, "m1", 2));
        assertTrue(l.record(3, "m1", 3));
        assertFalse(l.record(3, "m1", 3), "a second delivery of an id does not count");
        assertTrue(l.record(2, "m1", 10), "10 was never accepted");
        assertFalse(l.record(3, "m1", 5), "5 is user 1's");
        assertFalse(l.record(2, "w1", 6), "another run");
        l.late(3, "m1", 7); // 7's frame came after a later seq: dropped by position, never reached the app
        BitSet accepted = new BitSet();
        accepted.set(0, 8); // 0..7; this agent's are 2, 3, 6, 7
        IdCheck c = l.check(accepted, 2, 2);
        assertEquals(4, c.expected());
        assertEquals(2, c.delivered());
        assertEquals(2, c.lost());
        assertEquals(List.of(6L, 7L), c.lostSamples());
        assertEquals(1, c.duplicates());
        assertEquals(1, c.unexpected());
        assertEquals(1, c.misaddressed());
        assertEquals(1, c.otherRuns());
        assertEquals(1, c.lostLate());
        assertTrue(l.arrivedLate(7));
        assertFalse(l.arrivedLate(6));
    }

    @Test
    void trackingAnotherRunForgetsTheLastAndChecksSum() {
        IdLedger l = new IdLedger();
        assertFalse(l.tracking());
        l.track("a", 1);
        l.record(0, "a", 0);
        l.track("b", 1);
        assertTrue(l.record(0, "b", 0), "a new run starts empty");
        BitSet one = new BitSet();
        one.set(0);
        IdCheck c = l.check(one, 0, 1);
        assertEquals(0, c.lost());
        IdCheck sum = c.plus(new IdCheck(3, 1, 2, 0, 0, 0, 0, 1, List.of(4L, 5L), List.of()));
        assertEquals(4, sum.expected());
        assertEquals(2, sum.lost());
        assertEquals(List.of(4L, 5L), sum.lostSamples());
    }
}
