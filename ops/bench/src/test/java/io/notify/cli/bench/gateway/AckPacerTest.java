package io.notify.cli.bench.gateway;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.notify.protocol.frame.AckFrame;
import io.notify.protocol.frame.FrameCodec;
import io.notify.protocol.frame.WsOpcode;
import io.notify.schemas.validation.FrameSchema;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The load agents' acks: cumulative (the position), at most one per connection and stream per interval, the highest seq. */
class AckPacerTest {

    private static final long MS = 1_000_000L;
    private static final String EPOCH = "k3x9m2p8q7rdw5ta";

    /** An ack as the gateway reads it, and when the agent wrote it. */
    private record Sent(int client, long atMs, String stream, long seq) {
    }

    private final List<Sent> sent = new ArrayList<>();
    private long nowMs;
    private final List<ClientConn> clients = new ArrayList<>();
    private final AckPacer pacer;

    AckPacerTest() {
        for (int i = 40; i < 43; i++) {
            ClientConn c = new ClientConn(i, BenchUsers.user(i), InetAddress.getLoopbackAddress(), "token", new ResumeTally(null, 0));
            c.state = ClientConn.State.OPEN;
            c.welcomed = true;
            clients.add(c);
        }
        pacer = new AckPacer(clients, (c, frame) -> {
            WsCodec.Frame f = WsCodec.decode(ByteBuffer.wrap(frame));
            assertEquals(WsOpcode.TEXT, f.opcode());
            AckFrame ack = (AckFrame) FrameCodec.v1().decodeClientFrame(f.text(), FrameSchema.v1());
            sent.add(new Sent(c.index, nowMs, ack.stream().value(), ack.seq()));
        });
    }

    /** Client {@code i} (offset) processes {@code seq} at the current time. */
    private void event(int i, long seq) {
        ClientConn c = clients.get(i);
        c.tally.onEvent(EPOCH, seq);
        pacer.received(c, nowMs * MS);
    }

    /** The agent's loop turns until {@code untilMs}, one sweep a millisecond. */
    private void runUntil(long untilMs) {
        while (nowMs < untilMs) {
            nowMs++;
            pacer.sweep(nowMs * MS);
        }
    }

    private List<Sent> of(int i) {
        return sent.stream().filter(s -> s.client() == clients.get(i).index).toList();
    }

    @Test
    void acksAreCumulativeAtMostOncePerIntervalAndCarryTheHighestSeq() {
        pacer.set(100 * MS);
        for (long seq = 1; seq <= 50; seq++) { // one event every 5 ms for 250 ms
            event(0, seq);
            runUntil(nowMs + 5);
        }
        runUntil(1_000);
        List<Sent> acks = of(0);
        assertEquals(List.of(new Sent(40, 100, "u:gw-user-40", 20), new Sent(40, 200, "u:gw-user-40", 40),
                new Sent(40, 300, "u:gw-user-40", 50)), acks, "the first event starts the wait; the ack carries the highest seq by then");
        for (int k = 1; k < acks.size(); k++) {
            assertTrue(acks.get(k).atMs() - acks.get(k - 1).atMs() >= 100, "at most one per 100 ms: " + acks);
            assertTrue(acks.get(k).seq() > acks.get(k - 1).seq(), "cumulative, increasing: " + acks);
        }
        assertEquals(3, pacer.sent());
    }

    @Test
    void eachConnectionIsPacedOnItsOwnAndQuietOnesSendNothing() {
        pacer.set(100 * MS);
        event(0, 1);
        runUntil(30);
        event(1, 7);
        event(1, 8);
        runUntil(99);
        assertEquals(List.of(), sent, "nothing before an interval has passed");
        runUntil(100);
        event(0, 2); // after its ack went out: a new wait
        runUntil(1_000);
        assertEquals(List.of(new Sent(40, 100, "u:gw-user-40", 1), new Sent(40, 200, "u:gw-user-40", 2)), of(0));
        assertEquals(List.of(new Sent(41, 130, "u:gw-user-41", 8)), of(1));
        assertEquals(List.of(), of(2), "a client that received nothing acks nothing");
        pacer.received(clients.get(0), nowMs * MS); // no new position (a repeat the app dropped): nothing to ack
        runUntil(2_000);
        assertEquals(3, sent.size());
    }

    @Test
    void aConnectionThatEndedDropsItsAckAndOffDropsTheWaitingOnes() {
        assertEquals("acks on", pacer.command(new String[] {"acks", "on", "100"}));
        event(0, 1);
        event(1, 1);
        clients.get(0).state = ClientConn.State.IDLE; // closed before the ack was due, as the SDK drops it
        runUntil(200);
        assertEquals(List.of(new Sent(41, 100, "u:gw-user-41", 1)), sent);
        clients.get(0).state = ClientConn.State.OPEN; // reconnected
        event(0, 2);
        event(1, 2);
        assertEquals(50, pacer.waitMs(250 * MS, 50), "the agent's selector waits no longer than the next due ack");
        assertEquals(0, pacer.waitMs(300 * MS, 50));
        assertEquals("acks off", pacer.command(new String[] {"acks", "off"}));
        assertEquals(50, pacer.waitMs(250 * MS, 50));
        event(0, 3);
        runUntil(1_000);
        assertEquals(1, sent.size(), "off: nothing waits, nothing is sent");
        assertTrue(pacer.command(new String[] {"acks", "on", "0"}).startsWith("error"));
        assertTrue(pacer.command(new String[] {"acks", "sometimes"}).startsWith("error"));
    }

    @Test
    void theFrameIsWhatTheCodecWouldWriteMaskedAndSized() {
        int mask = 0x5A17C3E1;
        assertArrayEquals(WsCodec.text("{\"t\":\"ack\",\"stream\":\"u:gw-user-7\",\"seq\":1234567890123}", mask),
                AckPacer.frame("gw-user-7", 1234567890123L, mask));
        assertArrayEquals(WsCodec.text("{\"t\":\"ack\",\"stream\":\"u:gw-user-0\",\"seq\":9}", mask), AckPacer.frame("gw-user-0", 9, mask));
        String longUser = "u".repeat(120); // a payload over 125 bytes: the 16-bit length form
        assertArrayEquals(WsCodec.text("{\"t\":\"ack\",\"stream\":\"u:" + longUser + "\",\"seq\":42}", mask),
                AckPacer.frame(longUser, 42, mask));
    }
}
