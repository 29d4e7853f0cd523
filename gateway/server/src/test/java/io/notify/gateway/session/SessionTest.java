package io.notify.gateway.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.notify.gateway.admission.ConnectionLimiter;
import io.notify.gateway.config.GatewayConfig;
import io.notify.gateway.delivery.OutboundFrame;
import io.notify.gateway.metrics.GatewayMetrics;
import io.notify.gateway.registry.InMemoryRegistrar;
import io.notify.gateway.resume.FetchRequest;
import io.notify.gateway.resume.FetchResult;
import io.notify.gateway.resume.ResumeSource;
import io.notify.gateway.support.Await;
import io.notify.gateway.support.Events;
import io.notify.gateway.support.FakeTransport;
import io.notify.gateway.support.TestConfig;
import io.notify.schemas.protocol.CloseCode;
import io.notify.schemas.protocol.EventFrame;
import io.notify.schemas.protocol.PingFrame;
import io.notify.schemas.protocol.ResetFrame;
import io.notify.schemas.protocol.ServerFrame;
import io.notify.schemas.protocol.WelcomeFrame;
import io.notify.schemas.stream.Position;
import io.notify.schemas.stream.SequencedEvent;
import io.notify.schemas.stream.StreamId;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The session's protocol logic over a fake transport and a scripted query API. */
class SessionTest {

    private static final StreamId U = StreamId.forUser("42");
    private static final String E = "ep1";

    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
    private final InMemoryRegistrar registrar = new InMemoryRegistrar();
    private final ScriptedSource source = new ScriptedSource();
    private final GatewayMetrics metrics = new GatewayMetrics(new SimpleMeterRegistry());
    private final SessionTable table = new SessionTable();
    private final ConnectionLimiter limiter = new ConnectionLimiter(10);
    // drives the sessions' periodic rechecks as the node's sweeper does
    private final LivenessSweeper sweeper = new LivenessSweeper(table, Clock.systemUTC(), timer, Duration.ofMillis(10));

    @AfterEach
    void stop() {
        sweeper.close();
        timer.shutdownNow();
    }

    /** Answers fetches with futures the test completes. */
    static final class ScriptedSource implements ResumeSource {
        final List<FetchRequest> requests = new CopyOnWriteArrayList<>();
        final List<CompletableFuture<FetchResult>> answers = new CopyOnWriteArrayList<>();

        @Override
        public CompletionStage<FetchResult> fetch(FetchRequest request) {
            requests.add(request);
            CompletableFuture<FetchResult> f = new CompletableFuture<>();
            answers.add(f);
            return f;
        }

        @Override
        public CompletionStage<List<FetchResult>> fetchAll(List<FetchRequest> requests) {
            throw new UnsupportedOperationException();
        }
    }

    private Session open(FakeTransport transport, Map<String, String> config, Instant expiresAt, Position ssePosition) {
        return open(transport, config, expiresAt, ssePosition, null);
    }

    /**
     * Opens a session; unless it resumes (SSE position), answers the head read made before
     * {@code welcome} with {@code anchorHead} (null: no history) and forgets that request, so
     * tests count the fetches after the welcome from 0.
     */
    private Session open(FakeTransport transport, Map<String, String> config, Instant expiresAt, Position ssePosition,
                         Position anchorHead) {
        GatewayConfig c = TestConfig.with(config);
        SessionContext ctx = new SessionContext(c, metrics, registrar, source, table, limiter, timer, Clock.systemUTC());
        limiter.tryAcquire("42");
        Session s = new Session("c-1", "42", expiresAt, transport, ctx);
        s.open(ssePosition);
        if (ssePosition == null) {
            Await.until("the head read before welcome", Duration.ofSeconds(5), () -> source.requests.size() == 1);
            assertNull(source.requests.get(0).after());
            assertEquals(1, source.requests.get(0).limit());
            assertTrue(transport.frames().isEmpty(), "no welcome before the anchor is known");
            CompletableFuture<FetchResult> anchor = source.answers.get(0);
            source.requests.remove(0);
            source.answers.remove(0);
            anchor.complete(new FetchResult.Page(U, List.of(), false, anchorHead));
        }
        Await.until("welcome", Duration.ofSeconds(5), () -> !transport.frames().isEmpty());
        return s;
    }

    private Session open(FakeTransport transport) {
        return open(transport, Map.of(), Instant.now().plusSeconds(3600), null);
    }

    /** A fresh client (no position) on a stream whose head was seq 7 at its welcome, live from then on. */
    private Session freshAtSeven(FakeTransport t, Map<String, String> config) {
        Session s = open(t, config, Instant.now().plusSeconds(3600), null, new Position(E, 7));
        s.text("{\"t\":\"resume\",\"streams\":[]}");
        return s;
    }

    private static List<Long> seqs(FakeTransport t) {
        return t.frames().stream().filter(EventFrame.class::isInstance).map(f -> ((EventFrame) f).seq()).toList();
    }

    private static void live(Session s, SequencedEvent e) {
        s.deliver(e, OutboundFrame.event(e, true));
    }

    @Test
    void welcomeFirstThenReplayThenHeldLiveEventsInOrderExactlyOnce() {
        FakeTransport t = new FakeTransport("ws", 100, 1 << 20);
        Session s = open(t);
        ServerFrame welcome = t.frames().get(0);
        assertEquals(List.of(U), assertInstanceOf(WelcomeFrame.class, welcome).streams());
        assertEquals(List.of("register u:42 c-1"), registrar.calls());
        live(s, Events.durable(U, E, 12)); // before resume: held
        s.text("{\"t\":\"resume\",\"streams\":[{\"stream\":\"u:42\",\"epoch\":\"ep1\",\"seq\":9}]}");
        assertEquals(new Position(E, 9), source.requests.get(0).after());
        live(s, Events.durable(U, E, 13)); // while the fetch is in flight: held
        assertEquals(List.of(), seqs(t));
        source.answers.get(0).complete(new FetchResult.Page(U, Events.range(U, E, 10, 12), false));
        assertEquals(List.of(10L, 11L, 12L, 13L), seqs(t));
        live(s, Events.durable(U, E, 13));
        live(s, Events.durable(U, E, 14));
        assertEquals(List.of(10L, 11L, 12L, 13L, 14L), seqs(t));
        assertEquals(2.0, metrics.count("notify.gateway.duplicates.dropped"));
    }

    @Test
    void sseStartsFromLastEventIdAndResetsATooOldPosition() {
        FakeTransport t = new FakeTransport("sse", 100, 1 << 20);
        open(t, Map.of(), Instant.now().plusSeconds(3600), new Position(E, 3));
        assertEquals(new Position(E, 3), source.requests.get(0).after(), "no resume frame over SSE");
        ResetFrame reset = ResetFrame.positionTooOld(U, new Position(E, 500), 200);
        source.answers.get(0).complete(new FetchResult.Reset(reset));
        assertEquals(reset, t.frames().get(1));
        assertEquals(1.0, metrics.count("notify.gateway.resets", "reason", "position_too_old"));
    }

    @Test
    void aLiveGapIsFilledFromTheQueryApiBeforeLaterEvents() {
        FakeTransport t = new FakeTransport("ws", 100, 1 << 20);
        Session s = open(t);
        s.text("{\"t\":\"resume\",\"streams\":[]}");
        live(s, Events.durable(U, E, 1));
        live(s, Events.durable(U, E, 4));
        assertEquals(List.of(1L), seqs(t));
        assertEquals(new Position(E, 1), source.requests.get(0).after());
        source.answers.get(0).complete(new FetchResult.Page(U, Events.range(U, E, 2, 4), false));
        assertEquals(List.of(1L, 2L, 3L, 4L), seqs(t));
        assertEquals(1.0, metrics.count("notify.gateway.gap.fills"));
    }

    @Test
    void aFailingQueryApiIsRetriedWithBackoffWhileLiveEventsWait() {
        FakeTransport t = new FakeTransport("ws", 100, 1 << 20);
        Session s = open(t, Map.of("notify.gateway.resume-retry-max", "20ms"), Instant.now().plusSeconds(3600), null);
        s.text("{\"t\":\"resume\",\"streams\":[{\"stream\":\"u:42\",\"epoch\":\"ep1\",\"seq\":1}]}");
        source.answers.get(0).complete(new FetchResult.Failed(U, "503"));
        live(s, Events.durable(U, E, 3));
        Await.until("a retry", Duration.ofSeconds(5), () -> source.answers.size() == 2);
        source.answers.get(1).complete(new FetchResult.Page(U, Events.range(U, E, 2, 2), false));
        // the retry's callback may attach after the answer is complete: it then runs on the timer thread
        Await.until(() -> "2, 3 after the retry, got " + seqs(t), Duration.ofSeconds(5), () -> seqs(t).equals(List.of(2L, 3L)));
        assertTrue(metrics.count("notify.gateway.resume.retries") >= 1);
        assertNull(t.closedWith());
    }

    @Test
    void aDurableEventThatDoesNotFitClosesTheSlowConsumerWith4008() {
        FakeTransport t = new FakeTransport("ws", 4, 1 << 20);
        Session s = open(t);
        s.text("{\"t\":\"resume\",\"streams\":[]}");
        t.stall();
        for (int seq = 1; seq <= 5; seq++) {
            live(s, Events.durable(U, E, seq));
        }
        assertEquals(CloseCode.SLOW_CONSUMER, t.closedWith());
        assertEquals(1.0, metrics.count("notify.gateway.queue.overflows", "action", "closed"));
        assertEquals(List.of("register u:42 c-1", "unregister u:42 c-1"), registrar.calls());
        assertEquals(0, limiter.openFor("42"));
        assertEquals(0, table.size());
    }

    @Test
    void protocolViolationsCloseWith1002AndTheCodecMessage() {
        FakeTransport garbage = new FakeTransport("ws", 100, 1 << 20);
        open(garbage).text("{\"t\":\"resume\",\"streams\":[{\"stream\":\"u:42\",\"epoch\":\"ep1\",\"seq\":0}]}");
        assertEquals(CloseCode.PROTOCOL_ERROR, garbage.closedWith());
        assertTrue(garbage.closeReason().contains("/streams/0/seq"), garbage.closeReason());

        FakeTransport notFirst = new FakeTransport("ws", 100, 1 << 20);
        open(notFirst).text("{\"t\":\"ping\"}");
        assertEquals(CloseCode.PROTOCOL_ERROR, notFirst.closedWith());

        FakeTransport twice = new FakeTransport("ws", 100, 1 << 20);
        Session s = open(twice);
        s.text("{\"t\":\"resume\",\"streams\":[]}");
        s.text("{\"t\":\"resume\",\"streams\":[]}");
        assertEquals(CloseCode.PROTOCOL_ERROR, twice.closedWith());

        FakeTransport foreign = new FakeTransport("ws", 100, 1 << 20);
        open(foreign).text("{\"t\":\"resume\",\"streams\":[{\"stream\":\"u:43\",\"epoch\":\"ep1\",\"seq\":1}]}");
        assertEquals(CloseCode.FORBIDDEN, foreign.closedWith());
    }

    @Test
    void tooManyInboundFramesCloseWith4029() {
        FakeTransport t = new FakeTransport("ws", 100, 1 << 20);
        Session s = open(t, Map.of("notify.gateway.inbound-rate", "1", "notify.gateway.inbound-burst", "3"),
                Instant.now().plusSeconds(3600), null);
        s.text("{\"t\":\"resume\",\"streams\":[]}");
        s.text("{\"t\":\"ping\"}");
        s.text("{\"t\":\"ping\"}");
        assertNull(t.closedWith());
        s.text("{\"t\":\"ping\"}");
        assertEquals(CloseCode.RATE_LIMITED, t.closedWith());
    }

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
        s.tick(System.nanoTime() + Duration.ofSeconds(20).toNanos(), System.currentTimeMillis());
        assertNull(t.closedWith());
        assertEquals(java.time.Duration.ZERO, TestConfig.with(Map.of()).maxConnectionLifetime());
    }

    @Test
    void timersPingExpireTokensAndDropSilentClients() {
        FakeTransport pinged = new FakeTransport("ws", 100, 1 << 20);
        // ticks far ahead would also run the periodic recheck (a fetch); this test is about the other timers
        Session s = open(pinged, Map.of("notify.gateway.recheck-after", "0s"), Instant.now().plusSeconds(3600), null);
        s.text("{\"t\":\"resume\",\"streams\":[]}");
        long now = System.nanoTime();
        s.tick(now + Duration.ofSeconds(26).toNanos(), System.currentTimeMillis());
        assertInstanceOf(PingFrame.class, pinged.frames().get(pinged.frames().size() - 1));
        s.tick(now + Duration.ofSeconds(56).toNanos(), System.currentTimeMillis());
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

    @Test
    void liveEventsHeldBeforeTheResumeAreDeliveredEvenAtOrBelowTheAnchor() {
        FakeTransport t = new FakeTransport("ws", 100, 1 << 20);
        Session s = open(t, Map.of(), Instant.now().plusSeconds(3600), null, new Position(E, 7));
        live(s, Events.durable(U, E, 7)); // sequenced after the head read, before the client's resume
        live(s, Events.durable(U, E, 8));
        s.text("{\"t\":\"resume\",\"streams\":[]}");
        assertEquals(List.of(7L, 8L), seqs(t));
        assertEquals(0, source.requests.size(), "a preset anchor needs no fetch");
    }

    @Test
    void withoutAnAnchorTheFirstLiveEventIsTheStart() {
        FakeTransport t = new FakeTransport("ws", 100, 1 << 20);
        GatewayConfig c = TestConfig.with(Map.of());
        SessionContext ctx = new SessionContext(c, metrics, registrar, source, table, limiter, timer, Clock.systemUTC());
        limiter.tryAcquire("42");
        Session s = new Session("c-1", "42", Instant.now().plusSeconds(3600), t, ctx);
        s.open(null);
        Await.until("the head read", Duration.ofSeconds(5), () -> source.answers.size() == 1);
        source.answers.get(0).complete(new FetchResult.Failed(U, "query API down"));
        Await.until("welcome", Duration.ofSeconds(5), () -> !t.frames().isEmpty());
        s.text("{\"t\":\"resume\",\"streams\":[]}");
        live(s, Events.durable(U, E, 5));
        assertEquals(List.of(5L), seqs(t));
        assertEquals(1.0, metrics.count("notify.gateway.anchor.unknown"));
    }
}
