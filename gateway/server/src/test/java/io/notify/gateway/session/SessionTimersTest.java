package io.notify.gateway.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.notify.devstack.Await;
import io.notify.gateway.resume.FetchResult;
import io.notify.gateway.support.Events;
import io.notify.gateway.support.FakeTransport;
import io.notify.gateway.support.TestConfig;
import io.notify.protocol.frame.CloseCode;
import io.notify.protocol.frame.PingFrame;
import io.notify.protocol.frame.ResetFrame;
import io.notify.protocol.stream.Position;
import io.notify.protocol.stream.SequencedEvent;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The session's timers: pings, deadlines, token expiry, recycling and rechecks, as the sweeper drives them. */
class SessionTimersTest extends SessionFixture {

    @Test
    void aConnectionIsRecycledWith4010AtTheEndOfItsLifetimeWithinTheJitter() {
        FakeTransport exact = new FakeTransport("ws", 100, 1 << 20);
        Session s = open(exact, Map.of("notify.gateway.max-connection-lifetime", "1m", "notify.gateway.connection-lifetime-jitter", "0s",
                "notify.gateway.recheck-after", "0s", "notify.gateway.pong-timeout", "10m"), Instant.now().plusSeconds(3600), null);
        s.text("{\"t\":\"resume\",\"streams\":[]}");
        long welcomed = System.nanoTime();
        s.tick(welcomed + Duration.ofSeconds(50).toNanos(), System.currentTimeMillis());
        assertNull(exact.closedWith(), "before its lifetime");
        s.tick(welcomed + Duration.ofSeconds(61).toNanos(), System.currentTimeMillis());
        assertEquals(CloseCode.RECYCLED, exact.closedWith());
        s.tick(welcomed + Duration.ofSeconds(62).toNanos(), System.currentTimeMillis()); // closing, not closed yet
        assertEquals(CloseCode.Reconnect.PROMPTLY, CloseCode.RECYCLED.policy(), "the client reconnects at once, to any node");
        assertEquals(1.0, metrics.count("notify.gateway.recycled"), "counted once, not once per tick while closing");

        FakeTransport jittered = new FakeTransport("sse", 100, 1 << 20);
        Session j = open(jittered, Map.of("notify.gateway.max-connection-lifetime", "10m", "notify.gateway.recheck-after", "0s"),
                Instant.now().plusSeconds(3600), Position.parse("ep1:1"));
        long start = System.nanoTime();
        j.tick(start + Duration.ofMinutes(8).toNanos() - Duration.ofSeconds(1).toNanos(), System.currentTimeMillis());
        assertNull(jittered.closedWith(), "the default jitter is a fifth of the lifetime: not before 8 min");
        j.tick(start + Duration.ofMinutes(10).toNanos() + Duration.ofSeconds(1).toNanos(), System.currentTimeMillis());
        assertEquals(CloseCode.RECYCLED, jittered.closedWith());
    }

    @Test
    void recyclingIsOffByDefault() {
        FakeTransport t = new FakeTransport("ws", 100, 1 << 20);
        Session s = open(t, Map.of("notify.gateway.recheck-after", "0s"), Instant.now().plusSeconds(3600), null);
        s.text("{\"t\":\"resume\",\"streams\":[]}");
        s.tick(System.nanoTime() + Duration.ofSeconds(14).toNanos(), System.currentTimeMillis()); // within pong-timeout (15 s)
        assertNull(t.closedWith());
        assertEquals(java.time.Duration.ZERO, TestConfig.with(Map.of()).maxConnectionLifetime());
    }

    @Test
    void thePongDeadlineCountsFromThePingsWriteNotFromItsQueueing() {
        FakeTransport behind = new FakeTransport("ws", 100, 1 << 20);
        Session s = open(behind, Map.of("notify.gateway.recheck-after", "0s"), Instant.now().plusSeconds(3600), null);
        s.text("{\"t\":\"resume\",\"streams\":[]}");
        behind.stall(); // the node's own writes lag: the ping waits in the queue behind what it is catching up on
        long now = System.nanoTime();
        s.tick(now + Duration.ofSeconds(6).toNanos(), System.currentTimeMillis()); // ping queued, not written
        s.tick(now + Duration.ofSeconds(40).toNanos(), System.currentTimeMillis());
        assertNull(behind.closedWith(), "no ping reached the client: nothing to answer yet");
        behind.unstall(); // the ping is written now
        long written = System.nanoTime();
        s.tick(written + Duration.ofSeconds(14).toNanos(), System.currentTimeMillis());
        assertNull(behind.closedWith(), "within pong-timeout (15 s) of the ping's write");
        s.pong();
        s.tick(written + Duration.ofSeconds(20).toNanos(), System.currentTimeMillis());
        assertNull(behind.closedWith(), "the pong answered every ping written before it");
        s.tick(now + Duration.ofSeconds(50).toNanos(), System.currentTimeMillis()); // the next ping, written at once
        long pinged = System.nanoTime();
        s.tick(pinged + Duration.ofSeconds(16).toNanos(), System.currentTimeMillis());
        assertEquals(CloseCode.GOING_AWAY, behind.closedWith(), "the next ping, written and unanswered for pong-timeout");
    }

    @Test
    void timersPingExpireTokensAndDropSilentClients() {
        FakeTransport pinged = new FakeTransport("ws", 100, 1 << 20);
        // ticks far ahead would also run the periodic recheck (a fetch); this test is about the other timers
        Session s = open(pinged, Map.of("notify.gateway.recheck-after", "0s"), Instant.now().plusSeconds(3600), null);
        s.text("{\"t\":\"resume\",\"streams\":[]}");
        long now = System.nanoTime();
        s.tick(now + Duration.ofSeconds(6).toNanos(), System.currentTimeMillis()); // ping-interval 5 s
        assertInstanceOf(PingFrame.class, pinged.frames().get(pinged.frames().size() - 1));
        s.tick(now + Duration.ofSeconds(16).toNanos(), System.currentTimeMillis()); // pong-timeout 2 × 5 s + 5 s
        assertEquals(CloseCode.GOING_AWAY, pinged.closedWith(), "two pings unanswered");

        FakeTransport expiring = new FakeTransport("sse", 100, 1 << 20);
        Session e = open(expiring, Map.of(), Instant.now().plusSeconds(1), null);
        e.tick(System.nanoTime(), System.currentTimeMillis() + 1_001);
        assertEquals(CloseCode.TOKEN_EXPIRED, expiring.closedWith());

        FakeTransport mute = new FakeTransport("ws", 100, 1 << 20);
        Session m = open(mute);
        m.tick(System.nanoTime() + Duration.ofSeconds(11).toNanos(), System.currentTimeMillis());
        assertEquals(CloseCode.PROTOCOL_ERROR, mute.closedWith(), "no resume within 10 s");
        m.tick(System.nanoTime() + Duration.ofSeconds(12).toNanos(), System.currentTimeMillis());
        assertEquals(1.0, metrics.count("notify.gateway.limit.hits", "limit", "resume_timeout"), "one limit hit per connection");
    }

    @Test
    void aFreshClientGetsAnEventThatWasNeverRoutedToItThroughARecheck() {
        FakeTransport t = new FakeTransport("ws", 100, 1 << 20);
        Session s = freshAtSeven(t, Map.of("notify.gateway.recheck-after", "50ms"));
        assertEquals(List.of(), seqs(t), "history before the anchor is not replayed");
        // seq 8 is sequenced after the welcome but routed elsewhere (the router has not seen the registration yet)
        Await.until("the recheck", Duration.ofSeconds(5), () -> source.requests.size() == 1);
        assertEquals(new Position(E, 7), source.requests.get(0).after());
        long tenSecondsAgo = System.currentTimeMillis() - 10_000; // past the recheck grace: a real miss
        source.answers.get(0).complete(new FetchResult.Page(U, List.of(Events.durableAt(U, E, 8, tenSecondsAgo)), false,
                new Position(E, 8)));
        Await.until(() -> "8 after the recheck, got " + seqs(t), Duration.ofSeconds(5), () -> seqs(t).equals(List.of(8L)));
        assertEquals(1.0, metrics.count("notify.gateway.rechecks"));
        assertEquals(1.0, metrics.count("notify.gateway.recheck.found"));
        assertNull(t.closedWith());
    }

    @Test
    void aLostRegistrationBringsQuickRechecksThenOnlyThePeriodicOnes() {
        registrar.failing(true); // Redis failing over: the registration write fails
        FakeTransport t = new FakeTransport("ws", 100, 1 << 20);
        Session s = freshAtSeven(t, Map.of("notify.gateway.recheck-after", "50ms", "notify.gateway.recheck-interval", "1h",
                "notify.gateway.recheck-grace", "0s"));
        assertEquals(1.0, metrics.count("notify.gateway.registry.failures", "op", "register"));
        // the first recheck at recheck-after, then 3 more at 100, 200, 400 ms: not at the hour's interval
        for (int n = 1; n <= 1 + StreamSync.QUICK_RECHECKS; n++) {
            int asked = n;
            Await.until(() -> "recheck " + asked + " of a stream whose registration was lost; asked " + source.requests.size(),
                    Duration.ofSeconds(5), () -> source.requests.size() == asked);
            long missedAt = System.currentTimeMillis() - 10_000; // routed nowhere while the registration was lost
            source.answers.get(n - 1).complete(n == 3
                    ? new FetchResult.Page(U, List.of(Events.durableAt(U, E, 8, missedAt)), false, new Position(E, 8))
                    : new FetchResult.Page(U, List.of(), false, new Position(E, n < 3 ? 7 : 8)));
        }
        assertEquals(List.of(8L), seqs(t), "the event routed nowhere came by the third quick recheck");
        assertTrue(quietFor(Duration.ofMillis(1_500), () -> source.requests.size() > 1 + StreamSync.QUICK_RECHECKS),
                "then only the periodic rechecks (1 h): " + source.requests.size());
        assertNull(t.closedWith());
    }

    /** True when {@code happened} stays false for {@code window} (a bounded negative check, polled). */
    private static boolean quietFor(Duration window, java.util.function.BooleanSupplier happened) {
        long end = System.nanoTime() + window.toNanos();
        while (System.nanoTime() - end < 0) {
            if (happened.getAsBoolean()) {
                return false;
            }
            java.util.concurrent.locks.LockSupport.parkNanos(10_000_000L);
        }
        return !happened.getAsBoolean();
    }

    @Test
    void aRecheckLeavesAnEventStillOnTheLivePathToItAndLooksAgainAfterTheGrace() {
        FakeTransport t = new FakeTransport("ws", 100, 1 << 20);
        Session s = freshAtSeven(t, Map.of("notify.gateway.recheck-after", "50ms", "notify.gateway.recheck-grace", "300ms"));
        Await.until("the recheck", Duration.ofSeconds(5), () -> source.requests.size() == 1);
        SequencedEvent eight = Events.durableAt(U, E, 8, System.currentTimeMillis()); // just sequenced
        source.answers.get(0).complete(new FetchResult.Page(U, List.of(eight), false, new Position(E, 8)));
        assertEquals(List.of(), seqs(t), "8 is younger than the grace: left to the live path");
        Await.until("the follow-up recheck", Duration.ofSeconds(5), () -> source.requests.size() == 2);
        assertEquals(new Position(E, 7), source.requests.get(1).after(), "8 never came live: asked again from 7");
        source.answers.get(1).complete(new FetchResult.Page(U, List.of(eight), false, new Position(E, 8)));
        Await.until(() -> "8 after the follow-up, got " + seqs(t), Duration.ofSeconds(5), () -> seqs(t).equals(List.of(8L)));
        assertEquals(1.0, metrics.count("notify.gateway.recheck.found"), "counted once, when it was really missing");
        live(s, eight);
        assertEquals(List.of(8L), seqs(t), "a late live copy is a duplicate");
    }

    @Test
    void liveEventsHeldDuringARecheckCountAsLiveNotAsFoundByIt() {
        FakeTransport t = new FakeTransport("ws", 100, 1 << 20);
        Session s = freshAtSeven(t, Map.of("notify.gateway.recheck-after", "50ms"));
        Await.until("the recheck", Duration.ofSeconds(5), () -> source.requests.size() == 1);
        live(s, Events.durable(U, E, 8)); // arrives while the recheck is in flight: held
        live(s, Events.durable(U, E, 9));
        source.answers.get(0).complete(new FetchResult.Page(U, List.of(), false, new Position(E, 7))); // nothing missed
        assertEquals(List.of(8L, 9L), seqs(t));
        assertEquals(0.0, metrics.count("notify.gateway.recheck.found"), "the recheck found nothing; 8 and 9 came live");
        assertEquals(0.0, metrics.count("notify.gateway.events.replayed"));
        assertEquals(2.0, metrics.count("notify.gateway.events.delivered", "class", "durable", "path", "live"));
    }

    @Test
    void anInboxACommitBehindTheLivePathIsAskedAgainNeverReset() {
        FakeTransport t = new FakeTransport("ws", 100, 1 << 20);
        Session s = freshAtSeven(t, Map.of("notify.gateway.recheck-after", "50ms", "notify.gateway.resume-retry-max", "20ms"));
        live(s, Events.durable(U, E, 8));
        live(s, Events.durable(U, E, 9));
        Await.until("the recheck", Duration.ofSeconds(5), () -> source.requests.size() == 1);
        assertEquals(new Position(E, 9), source.requests.get(0).after());
        // 9 came live, but the inbox (its own commit) still ends at 8: the query API says epoch_mismatch
        source.answers.get(0).complete(new FetchResult.Reset(ResetFrame.epochMismatch(U, new Position(E, 8), 1)));
        Await.until("asked again", Duration.ofSeconds(5), () -> source.requests.size() == 2);
        assertEquals(new Position(E, 9), source.requests.get(1).after(), "from the same position, not from the stale head");
        source.answers.get(1).complete(new FetchResult.Page(U, List.of(), false, new Position(E, 9)));
        live(s, Events.durable(U, E, 10));
        Await.until(() -> "8, 9, 10, got " + seqs(t), Duration.ofSeconds(5), () -> seqs(t).equals(List.of(8L, 9L, 10L)));
        assertTrue(t.frames().stream().noneMatch(ResetFrame.class::isInstance), "no reset reached the client: " + t.frames());
        assertEquals(1.0, metrics.count("notify.gateway.inbox.behind"));
        assertEquals(0.0, metrics.count("notify.gateway.resets", "reason", "epoch_mismatch"));
    }

    @Test
    void aHeadStillBehindThePositionAfterTheGraceIsARealMismatchAndResets() {
        FakeTransport t = new FakeTransport("ws", 100, 1 << 20);
        Session s = freshAtSeven(t, Map.of("notify.gateway.recheck-after", "50ms", "notify.gateway.resume-retry-max", "20ms",
                "notify.gateway.recheck-grace", "100ms"));
        live(s, Events.durable(U, E, 8));
        ResetFrame behind = ResetFrame.epochMismatch(U, new Position(E, 5), 1); // e.g. a history lost and re-created
        Await.until("the recheck", Duration.ofSeconds(5), () -> source.requests.size() == 1);
        source.answers.get(0).complete(new FetchResult.Reset(behind));
        Await.until("a reset once the grace is over", Duration.ofSeconds(5), () -> {
            int n = source.answers.size();
            if (!source.answers.get(n - 1).isDone()) {
                source.answers.get(n - 1).complete(new FetchResult.Reset(behind));
            }
            return t.frames().contains(behind);
        });
        assertEquals(1.0, metrics.count("notify.gateway.resets", "reason", "epoch_mismatch"));
        assertTrue(metrics.count("notify.gateway.inbox.behind") >= 1);
    }
}
