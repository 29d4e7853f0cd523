package io.notify.cli.chaos;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
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
        assertEquals(List.of("device 0: first event of user at e1:3"), verdict.anomalies());
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

    @Test
    void roomEventsAreJudgedPerSubscribedDeviceAndPerStream() {
        // 2 users × 2 devices, 2 rooms: room 0 is devices 0 and 2, room 1 devices 1 and 3.
        Verifier v = new Verifier(new Audience(2, 2, 2));
        int room0 = v.audience().roomTarget(0);
        v.subscribed(0, "r:chat-0", "e9", 40); // joined at the head: the next room event is 41
        v.subscribed(2, "r:chat-0", "e9", 40);
        v.subscribed(2, "r:chat-0", "e9", 45); // a later confirmation (after a resume) does not move it
        v.acked("u1", 0);
        v.acked("r1", room0);
        v.delivered(0, "user", "u1", "e1", 1, -1);
        v.delivered(1, "user", "u1", "e1", 1, -1);
        v.delivered(0, "r:chat-0", "r1", "e9", 41, -1);
        assertEquals(1, v.missing(), "device 2 has not had the room event yet");
        assertEquals(1, v.devicesWithEvents(), "only device 0 has had an event on both of its streams");
        v.delivered(2, "r:chat-0", "r1", "e9", 41, -1);
        Verifier.Verdict verdict = v.verdict();
        assertTrue(verdict.passed(), verdict.toString());
        assertEquals(2 + 2, verdict.expectedDeliveries(), "a user event to 2 devices, a room event to 2");
        assertEquals(1, verdict.roomAcked());
        assertEquals(2, verdict.roomDelivered());
    }

    @Test
    void aRoomStreamHasItsOwnSeqsAndItsOwnLosses() {
        Verifier v = new Verifier(new Audience(1, 2, 1));
        int room = v.audience().roomTarget(0);
        v.subscribed(0, "r:a", "e1", 0);
        v.subscribed(1, "r:a", "e1", 0);
        v.acked("r1", room);
        v.acked("r2", room);
        v.acked("r3", room);
        v.delivered(0, "user", "u1", "e7", 1, -1);      // the user stream's seq 1 ...
        v.delivered(0, "r:a", "r1", "e1", 1, -1);       // ... does not collide with the room's
        v.delivered(0, "r:a", "r3", "e1", 3, -1);       // r2 skipped on device 0
        v.delivered(1, "r:a", "r1", "e1", 1, -1);
        v.delivered(1, "r:a", "r2", "e1", 2, -1);
        v.delivered(1, "r:a", "r2", "e1", 2, -1);       // twice on device 1
        v.delivered(1, "r:a", "r3", "e1", 3, -1);
        v.reset(1, "r:a", "TRIMMED", "e1", 10);
        Verifier.Verdict verdict = v.verdict();
        assertEquals(1, verdict.lost());
        assertEquals(List.of("r2→room-0/device-0"), verdict.lostSamples());
        assertEquals(1, verdict.gaps());
        assertEquals(1, verdict.duplicates());
        assertEquals(0, verdict.outOfOrder());
        assertEquals(1, verdict.resets());
        assertEquals(1, verdict.unackedDeliveries(), "u1 was never acknowledged");
        assertFalse(verdict.passed());
    }

    @Test
    void theAudienceSpreadsDevicesOverRooms() {
        Audience a = new Audience(3, 2, 4);
        assertEquals(7, a.targets());
        assertEquals(List.of(4, 5), java.util.Arrays.stream(a.devicesOf(2)).boxed().toList());
        assertEquals(List.of(1, 5), java.util.Arrays.stream(a.devicesOf(a.roomTarget(1))).boxed().toList());
        assertEquals(List.of(3), java.util.Arrays.stream(a.devicesOf(a.roomTarget(3))).boxed().toList());
        assertEquals("room-3", a.describe(a.roomTarget(3)));
    }

    @Test
    void anExpiredEventThatNeverArrivesIsNotLost() {
        Verifier v = new Verifier(1, 2);
        v.withheld("x", Withheld.Fate.EXPIRING); // told before it is published
        v.acked("a", 0);
        v.acked("x", 0);
        v.acked("c", 0);
        for (int d = 0; d < 2; d++) {
            v.delivered(d, "user", "a", "e1", 1, -1);
        }
        v.delivered(0, "user", "x", "e1", 2, -1, System.currentTimeMillis() + 60_000); // device 0 got it live
        v.collapsed(1, "user", 2, 2, "expired"); // device 1 was cut off: it caught up past it, expired
        for (int d = 0; d < 2; d++) {
            v.delivered(d, "user", "c", "e1", 3, -1);
        }
        assertEquals(0, v.missing(), "nothing expected is missing");
        Verifier.Verdict verdict = v.verdict();
        assertTrue(verdict.passed(), verdict.toString());
        assertEquals(0, verdict.lost());
        assertEquals(0, verdict.gaps(), "the collapsed seq 2 continues device 1's stream");
        assertEquals(4, verdict.expectedDeliveries(), "a and c to two devices; x is not expected");
        assertEquals(4, verdict.delivered(), "x's arrival is counted as an expiring event's, not as an expected delivery");
        assertEquals(new Withheld.Expiry(1, 2, 1, 1, 0), verdict.expiry());
        assertEquals(Map.of("expired", 1L), verdict.collapsed());
    }

    @Test
    void anExpiringEventThatArrivesIsStillJudgedForDuplicatesAndOrder() {
        Verifier v = new Verifier(1, 1);
        v.withheld("x", Withheld.Fate.EXPIRING);
        v.acked("x", 0);
        v.acked("b", 0);
        v.delivered(0, "user", "b", "e1", 2, -1);
        v.delivered(0, "user", "x", "e1", 1, -1, System.currentTimeMillis() - 1_000); // behind b, and after its expiry
        v.delivered(0, "user", "x", "e1", 1, -1);
        Verifier.Verdict verdict = v.verdict();
        assertEquals(1, verdict.outOfOrder());
        assertEquals(1, verdict.duplicates());
        assertEquals(1, verdict.gaps(), "b came first, past seq 1");
        assertEquals(1, verdict.expiry().late(), "told, not judged");
        assertFalse(verdict.passed());
    }

    @Test
    void aRecalledEventThatArrivedAndThenItsRecalledFrameIsFine() {
        Verifier v = new Verifier(1, 2);
        v.withheld("r", Withheld.Fate.RECALLED);
        v.acked("a", 0);
        v.acked("r", 0);
        v.acked("c", 0);
        for (int d = 0; d < 2; d++) {
            v.delivered(d, "user", "a", "e1", 1, -1);
        }
        v.delivered(0, "user", "r", "e1", 2, -1);
        v.recallSent("r");
        v.recalled(0, "user", 2, "r"); // the recalled frame: device 0 had been sent it
        v.recalled(1, "user", 2, null); // device 1 caught up past it: collapsed with reason recalled
        for (int d = 0; d < 2; d++) {
            v.delivered(d, "user", "c", "e1", 3, -1);
        }
        Verifier.Verdict verdict = v.verdict();
        assertTrue(verdict.passed(), verdict.toString());
        assertEquals(0, verdict.lost(), "r never reached device 1, rightly");
        assertEquals(0, verdict.gaps());
        assertEquals(0, verdict.outOfOrder(), "a recalled frame moves no position: c follows at 3");
        assertEquals(4, verdict.expectedDeliveries());
        assertEquals(new Withheld.Recalls(1, 1, 1, 1, 1, 0, 0), verdict.recalls());
    }

    @Test
    void aCollapsedRecalledRangeIsNoGap() {
        Verifier v = new Verifier(new Audience(1, 1, 1));
        int room = v.audience().roomTarget(0);
        v.subscribed(0, "r:a", "e1", 4);
        v.withheld("r", Withheld.Fate.RECALLED);
        v.acked("r", room);
        v.acked("s", room);
        v.recalled(0, "r:a", 5, null);
        v.delivered(0, "r:a", "s", "e1", 6, -1);
        Verifier.Verdict verdict = v.verdict();
        assertEquals(0, verdict.gaps(), verdict.toString());
        assertEquals(0, verdict.lost());
        assertEquals(Map.of("recalled", 1L), verdict.collapsed());
        assertEquals(1, verdict.recalls().collapsed());
        assertTrue(verdict.passed(), verdict.toString());
    }

    @Test
    void aCollapsedRangeIsJudgedLikeTheEventsItStandsFor() {
        Verifier v = new Verifier(1, 1);
        v.acked("a", 0);
        v.delivered(0, "user", "a", "e1", 1, -1);
        v.collapsed(0, "user", 2, 4, "collapsed");
        v.collapsed(0, "user", 6, 6, "muted"); // seq 5 skipped
        v.collapsed(0, "user", 3, 3, "collapsed"); // behind the position
        Verifier.Verdict verdict = v.verdict();
        assertEquals(1, verdict.gaps());
        assertEquals(1, verdict.outOfOrder());
        assertEquals(Map.of("collapsed", 4L, "muted", 1L), verdict.collapsed());
    }

    @Test
    void anOrdinaryEventThatOnlyCameCollapsedIsLost() {
        Verifier v = new Verifier(1, 1);
        v.acked("a", 0);
        v.collapsed(0, "user", 1, 1, "collapsed"); // expired, though it had no ttl
        Verifier.Verdict verdict = v.verdict();
        assertEquals(1, verdict.lost());
        assertFalse(verdict.passed());
    }

    @Test
    void contentAfterTheRecallFailsTheRun() {
        Verifier v = new Verifier(1, 2);
        v.withheld("r", Withheld.Fate.RECALLED);
        v.acked("a", 0);
        v.acked("r", 0);
        for (int d = 0; d < 2; d++) {
            v.delivered(d, "user", "a", "e1", 1, -1);
        }
        v.recalled(0, "user", 2, null); // collapsed(recalled) first ...
        v.delivered(0, "user", "r", "e1", 2, -1); // ... then its content
        v.delivered(1, "user", "r", "e1", 2, -1);
        v.recalled(1, "user", 2, "r"); // the recalled frame ...
        v.delivered(1, "user", "r", "e1", 2, -1); // ... then the content again
        Verifier.Verdict verdict = v.verdict();
        assertEquals(2, verdict.recalls().afterRecall());
        assertEquals(1, verdict.duplicates());
        assertEquals(1, verdict.outOfOrder(), "device 0's seq 2 came again");
        assertEquals(0, verdict.lost());
        assertFalse(verdict.passed());
    }

    @Test
    void aRecalledFrameForAnEventNeverRecalledFailsTheRun() {
        Verifier v = new Verifier(1, 1);
        v.acked("a", 0);
        v.delivered(0, "user", "a", "e1", 1, -1);
        v.recalled(0, "user", 1, "a");
        Verifier.Verdict verdict = v.verdict();
        assertEquals(1, verdict.recalls().unexpected());
        assertEquals(0, verdict.lost());
        assertFalse(verdict.passed());
    }
}
