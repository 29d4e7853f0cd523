package io.notify.cli.chaos;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class DeliveryPausesTest {

    private static final long MS = 1_000_000L;

    /** Deliveries at {@code t} and at each of {@code msAfter} milliseconds after it. */
    private static DeliveryPauses deliveredAt(long t, long... msAfter) {
        DeliveryPauses p = new DeliveryPauses();
        p.delivered(t);
        for (long ms : msAfter) {
            p.delivered(t + ms * MS);
        }
        return p;
    }

    @Test
    void theLongestPauseAfterTheFaultAndWhenDeliveriesCameBack() {
        long t = 1_000_000 * MS;
        // a 3 s pause before t + 3010 (2 s of it after the fault at t + 1010), then a 500 ms one before t + 3520
        DeliveryPauses p = deliveredAt(t, 10, 3_010, 3_020, 3_520);
        DeliveryPauses.AfterFault a = p.after(t + 1_010 * MS, t + 3_600 * MS);
        assertEquals(2_000, a.maxPauseMs());
        assertEquals(2_000, a.recoveredAfterMs());
    }

    @Test
    void pausesBeforeTheFaultDoNotCount() {
        long t = 5_000 * MS;
        DeliveryPauses p = deliveredAt(t, 2_000, 2_050);
        assertEquals(new DeliveryPauses.AfterFault(0, 0, 0), p.after(t + 2_010 * MS, t + 2_100 * MS));
    }

    @Test
    void stillPausedHasNoRecoveryTime() {
        long t = 5_000 * MS;
        DeliveryPauses p = deliveredAt(t);
        DeliveryPauses.AfterFault a = p.after(t + 100 * MS, t + 4_100 * MS);
        assertEquals(4_000, a.maxPauseMs());
        assertEquals(-1, a.recoveredAfterMs());
    }

    @Test
    void theLongestWaitOfAnEventDeliveredAfterTheFaultEvenWhileOthersFlow() {
        long t = 5_000 * MS;
        DeliveryPauses p = new DeliveryPauses();
        p.delivered(t, 9_000_000); // slow, but before the fault
        p.delivered(t + 100 * MS, 50_000); // after it, quick
        p.delivered(t + 150 * MS, 4_200_000); // a stalled partition's event: waited 4.2 s
        p.delivered(t + 160 * MS, 300_000);
        DeliveryPauses.AfterFault a = p.after(t + 50 * MS, t + 200 * MS);
        assertEquals(0, a.maxPauseMs(), "deliveries never stopped");
        assertEquals(4_200, a.maxLatencyMs());
    }
}
