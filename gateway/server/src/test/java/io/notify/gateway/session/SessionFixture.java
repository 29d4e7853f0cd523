package io.notify.gateway.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.notify.devstack.Await;
import io.notify.gateway.admission.ConnectionLimiter;
import io.notify.gateway.auth.AuthResult;
import io.notify.gateway.config.GatewayConfig;
import io.notify.gateway.metrics.GatewayMetrics;
import io.notify.gateway.receipts.ReceiptBatcher;
import io.notify.gateway.registry.InMemoryRegistrar;
import io.notify.gateway.resume.FetchRequest;
import io.notify.gateway.resume.FetchResult;
import io.notify.gateway.resume.ResumeSource;
import io.notify.gateway.support.CollectingReceiptSink;
import io.notify.gateway.support.FakeTransport;
import io.notify.gateway.support.TestConfig;
import io.notify.gateway.transport.OutboundFrame;
import io.notify.gateway.transport.SseStart;
import io.notify.protocol.frame.CollapsedFrame;
import io.notify.protocol.frame.EventFrame;
import io.notify.protocol.frame.ServerFrame;
import io.notify.protocol.stream.Position;
import io.notify.protocol.stream.SequencedEvent;
import io.notify.protocol.stream.StreamId;
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

/**
 * What the session tests share: a node's collaborators (in-memory registry, a scripted query API,
 * receipts collected in memory and flushed when the test says so, a sweeper ticking every 10 ms as
 * the node's does) and the connect sequence up to {@code welcome}.
 */
abstract class SessionFixture {

    static final StreamId U = StreamId.forUser("42");
    static final String E = "ep1";

    final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
    final InMemoryRegistrar registrar = new InMemoryRegistrar();
    final ScriptedSource source = new ScriptedSource();
    final GatewayMetrics metrics = new GatewayMetrics(new SimpleMeterRegistry());
    final SessionTable table = new SessionTable();
    final ConnectionLimiter limiter = new ConnectionLimiter(10);
    final CollectingReceiptSink receiptSink = new CollectingReceiptSink();
    final ReceiptBatcher receipts = new ReceiptBatcher(receiptSink, 1000, Clock.systemUTC(), metrics.inbox());
    // drives the sessions' periodic rechecks as the node's sweeper does
    final LivenessSweeper sweeper = new LivenessSweeper(table, Clock.systemUTC(), timer, Duration.ofMillis(10));

    @AfterEach
    void stop() {
        sweeper.close();
        timer.shutdownNow();
    }

    /** The node's shared parts, with these settings over the test defaults. */
    SessionContext context(Map<String, String> config) {
        GatewayConfig c = TestConfig.with(config);
        return new SessionContext(c, metrics, registrar, source, table, limiter, timer, Clock.systemUTC(), Announcer.NONE, receipts);
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

    Session open(FakeTransport transport, Map<String, String> config, Instant expiresAt, Position ssePosition) {
        return open(transport, config, expiresAt, ssePosition, null);
    }

    /**
     * Opens a session; unless it resumes (SSE position), answers the head read made before
     * {@code welcome} with {@code anchorHead} (null: no history) and forgets that request, so
     * tests count the fetches after the welcome from 0.
     */
    Session open(FakeTransport transport, Map<String, String> config, Instant expiresAt, Position ssePosition,
                         Position anchorHead) {
        limiter.tryAcquire("42");
        Session s = new Session("c-1", new AuthResult.Authenticated("42", expiresAt), null, transport, context(config));
        if (ssePosition != null) { // SSE: its transport reports the position when started
            transport.startingAt(new SseStart(List.of(io.notify.protocol.frame.ResumePoint.of(s.stream(), ssePosition)), List.of()));
        }
        s.open();
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

    /** A WebSocket session opened with no position, its head read made and not answered yet. */
    Session openAwaitingAnchor(FakeTransport transport) {
        limiter.tryAcquire("42");
        Session s = new Session("c-1", new AuthResult.Authenticated("42", Instant.now().plusSeconds(3600)), null, transport, context(Map.of()));
        s.open();
        Await.until("the head read", Duration.ofSeconds(5), () -> source.answers.size() == 1);
        return s;
    }

    Session open(FakeTransport transport) {
        return open(transport, Map.of(), Instant.now().plusSeconds(3600), null);
    }

    /** A fresh client (no position) on a stream whose head was seq 7 at its welcome, live from then on. */
    Session freshAtSeven(FakeTransport t, Map<String, String> config) {
        Session s = open(t, config, Instant.now().plusSeconds(3600), null, new Position(E, 7));
        s.text("{\"t\":\"resume\",\"streams\":[]}");
        return s;
    }

    static List<Long> seqs(FakeTransport t) {
        return t.frames().stream().filter(EventFrame.class::isInstance).map(f -> ((EventFrame) f).seq()).toList();
    }

    static void live(Session s, SequencedEvent e) {
        s.deliver(e, OutboundFrame.event(e, true));
    }

    /** Each event or collapsed frame continues exactly where the previous one ended: the client sees no gap. */
    static void assertGapless(FakeTransport t, long after) {
        long at = after;
        for (ServerFrame f : t.frames()) {
            if (f instanceof EventFrame e) {
                assertEquals(at + 1, e.seq(), "event after " + at);
                at = e.seq();
            } else if (f instanceof CollapsedFrame c) {
                assertEquals(at + 1, c.from(), "collapsed after " + at);
                at = c.to();
            }
        }
    }

    /** A WebSocket session of user 42 resuming u:42 after ep1:100; its replay request is pending in {@code source}. */
    Session resumedAt100(FakeTransport t, Map<String, String> config) {
        Session s = open(t, config, Instant.now().plusSeconds(3600), null);
        s.text("{\"t\":\"resume\",\"streams\":[{\"stream\":\"u:42\",\"epoch\":\"ep1\",\"seq\":100}]}");
        assertEquals(new Position(E, 100), source.requests.get(0).after());
        return s;
    }
}
