package io.notify.cli.chaos;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class DeliveryPausesTest {

    private static final long MS = 1_000_000L;

    @Test
    void theLongestPauseAfterTheFaultAndWhenDeliveriesCameBack() {
        DeliveryPauses p = new DeliveryPauses();
        long t = 1_000_000 * MS;
        p.delivered(t);
        p.delivered(t + 10 * MS);
        p.delivered(t + 3_010 * MS); // a 3 s pause, 2 s of it after the fault at t + 1010
        p.delivered(t + 3_020 * MS);
        p.delivered(t + 3_520 * MS); // a 500 ms pause
        DeliveryPauses.AfterFault a = p.after(t + 1_010 * MS, t + 3_600 * MS);
        assertEquals(2_000, a.maxPauseMs());
        assertEquals(2_000, a.recoveredAfterMs());
    }

    @Test
    void pausesBeforeTheFaultDoNotCount() {
        DeliveryPauses p = new DeliveryPauses();
        long t = 5_000 * MS;
        p.delivered(t);
        p.delivered(t + 2_000 * MS);
        p.delivered(t + 2_050 * MS);
        assertEquals(new DeliveryPauses.AfterFault(0, 0), p.after(t + 2_010 * MS, t + 2_100 * MS));
    }

    @Test
    void stillPausedHasNoRecoveryTime() {
        DeliveryPauses p = new DeliveryPauses();
        long t = 5_000 * MS;
        p.delivered(t);
        DeliveryPauses.AfterFault a = p.after(t + 100 * MS, t + 4_100 * MS);
        assertEquals(4_000, a.maxPauseMs());
        assertEquals(-1, a.recoveredAfterMs());
    }
}
