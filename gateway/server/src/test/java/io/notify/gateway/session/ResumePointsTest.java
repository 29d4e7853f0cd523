package io.notify.gateway.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.notify.protocol.frame.ResumePoint;
import io.notify.protocol.stream.StreamId;
import java.util.List;
import org.junit.jupiter.api.Test;

class ResumePointsTest {

    static final StreamId OWN = StreamId.forUser("42");

    private static ResumePoint at(StreamId s, long seq) {
        return new ResumePoint(s, "e1", seq);
    }

    @Test
    void ownRoomsAndForeignStreamsAreToldApart() {
        ResumePoint own = at(OWN, 3);
        ResumePoint room = at(StreamId.forRoom("chat"), 7);
        ResumePoint all = at(StreamId.BROADCAST, 2);
        ResumePoints plan = ResumePoints.of(List.of(room, own, all), OWN);
        assertEquals(own, plan.own());
        assertEquals(List.of(room, all), plan.subscriptions());
        assertNull(plan.foreign());
        assertTrue(ResumePoints.namesOwn(List.of(room, own), OWN));
        assertFalse(ResumePoints.namesOwn(List.of(room), OWN));
        ResumePoints foreign = ResumePoints.of(List.of(room, at(StreamId.forUser("43"), 1), own), OWN);
        assertEquals(StreamId.forUser("43"), foreign.foreign());
        assertEquals(List.of(), foreign.subscriptions(), "nothing is subscribed when the resume names another user");
        assertNull(ResumePoints.of(List.of(), OWN).own());
    }
}
