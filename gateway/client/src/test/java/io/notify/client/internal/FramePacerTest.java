package io.notify.client.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.notify.protocol.frame.SubscribeFrame;
import org.junit.jupiter.api.Test;

class FramePacerTest {

    private static final long MS = 1_000_000L;

    @Test
    void aBurstGoesAtOnceAndTheRestAtTheRateWellUnderTheGatewaysLimit() {
        FramePacer pacer = new FramePacer();
        pacer.reset(0);
        for (int i = 0; i < 50; i++) {
            pacer.offer(SubscribeFrame.fresh("r:room-" + i));
        }
        int now = 0;
        while (pacer.poll(0) != null) {
            now++;
        }
        assertEquals(FramePacer.BURST, now, "the burst");
        assertEquals(125 * MS, pacer.nanosUntilNext(0), "then one every 125 ms (8/s; the gateway allows 10/s)");
        assertNull(pacer.poll(124 * MS));
        assertEquals(SubscribeFrame.fresh("r:room-10"), pacer.poll(125 * MS));
        // over any second from the start the pacer sends at most BURST + 8 frames: under the gateway's 20 + 10
        int sent = FramePacer.BURST + 1;
        for (long t = 126 * MS; t <= 1000 * MS; t += MS) {
            while (pacer.poll(t) != null) {
                sent++;
            }
        }
        assertEquals(FramePacer.BURST + 8, sent);
        assertEquals(50 - sent, pacer.queued());
    }

    @Test
    void aNewConnectionStartsWithAFullBucketAndNothingQueued() {
        FramePacer pacer = new FramePacer();
        pacer.reset(0);
        pacer.offer(SubscribeFrame.fresh("r:a"));
        pacer.reset(5 * MS);
        assertEquals(-1, pacer.nanosUntilNext(5 * MS));
        assertEquals(0, pacer.queued());
    }
}
