package io.notify.cli.chaos;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class VerifierTest {

    @Test
    void everyAckedEventOnEveryDeviceInOrderPasses() {
        Verifier v = new Verifier(2, 2);
        v.acked("a", 0);
        v.acked("b", 0);
        v.acked("c", 1);
        for (int d = 0; d < 2; d++) {
            v.delivered(d, "a", "e1", 1, 1000);
            v.delivered(d, "b", "e1", 2, 2000);
        }
        assertEquals(2, v.missing(), "c has not reached user 1's two devices yet");
        v.delivered(2, "c", "e1", 1, 3000);
        v.delivered(3, "c", "e1", 1, 3000);
        assertEquals(0, v.missing());
        Verifier.Verdict verdict = v.verdict();
        assertTrue(verdict.passed(), verdict.toString());
        assertEquals(3, verdict.acked());
        assertEquals(6, verdict.expectedDeliveries());
        assertEquals(6, verdict.delivered());
        assertEquals(6, verdict.latencyMs().count());
    }

    @Test
    void aDeviceThatMissedAnEventIsLossWithASample() {
        Verifier v = new Verifier(1, 2);
        v.acked("a", 0);
        v.delivered(0, "a", "e1", 1, -1);
        Verifier.Verdict verdict = v.verdict();
        assertFalse(verdict.passed());
        assertEquals(1, verdict.lost());
        assertEquals("a→user-0/device-1", verdict.lostSamples().get(0));
    }

    @Test
    void duplicatesOutOfOrderAndSilentGapsAreCounted() {
        Verifier v = new Verifier(1, 1);
        v.delivered(0, "a", "e1", 1, -1);
        v.delivered(0, "a", "e1", 1, -1); // same id again
        v.delivered(0, "c", "e1", 3, -1); // seq 2 skipped
        v.delivered(0, "b", "e1", 2, -1); // too late: out of order
        v.acked("a", 0);
        Verifier.Verdict verdict = v.verdict();
        assertEquals(1, verdict.duplicates());
        assertEquals(1, verdict.gaps());
        assertEquals(1, verdict.outOfOrder());
        assertEquals(2, verdict.unackedDeliveries(), "b and c were never acknowledged");
        assertFalse(verdict.passed());
    }

    @Test
    void aFirstEventPastSeqOneIsAGapAndANewEpochRestartsTheCount() {
        Verifier v = new Verifier(1, 1);
        v.delivered(0, "x", "e1", 3, -1);
        v.delivered(0, "y", "e2", 7, -1);
        v.delivered(0, "z", "e2", 8, -1);
        Verifier.Verdict verdict = v.verdict();
        assertEquals(2, verdict.gaps());
        assertEquals(List.of("device 0: first event at e1:3"), verdict.anomalies());
    }

    @Test
    void aResetMovesTheDeviceToTheHeadAndWhatItSkippedIsLost() {
        Verifier v = new Verifier(1, 1);
        v.acked("a", 0);
        v.acked("b", 0);
        v.acked("c", 0);
        v.delivered(0, "a", "e1", 1, -1);
        v.reset(0, "TRIMMED", "e1", 2);
        v.delivered(0, "c", "e1", 3, -1);
        Verifier.Verdict verdict = v.verdict();
        assertEquals(1, verdict.resets());
        assertEquals(0, verdict.gaps(), "the client was told; it is not a silent gap");
        assertEquals(1, verdict.lost(), "but b never reached the app");
    }

    @Test
    void aVerdictJudgesOnlyItsWindow() {
        Verifier v = new Verifier(1, 1);
        v.acked("a", 0);
        assertEquals(1, v.verdict().lost());
        v.acked("b", 0);
        v.delivered(0, "b", "e1", 2, -1);
        Verifier.Verdict second = v.verdict();
        assertEquals(1, second.acked());
        assertEquals(0, second.lost());
    }

    @Test
    void noAcknowledgedEventIsNoPass() {
        assertFalse(new Verifier(1, 1).verdict().passed(), "a run that published nothing proves nothing");
    }
}
