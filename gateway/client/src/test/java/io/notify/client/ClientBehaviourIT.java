package io.notify.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.notify.client.store.InMemoryPositionStore;
import io.notify.client.support.FakeGateway;
import io.notify.client.support.Recorder;
import io.notify.devstack.Await;
import io.notify.protocol.event.EventClass;
import io.notify.protocol.frame.AckFrame;
import io.notify.protocol.frame.ClientFrame;
import io.notify.protocol.frame.EventFrame;
import io.notify.protocol.frame.FrameCodec;
import io.notify.protocol.frame.PingFrame;
import io.notify.protocol.frame.PongFrame;
import io.notify.protocol.frame.RecalledFrame;
import io.notify.protocol.frame.ResumeFrame;
import io.notify.protocol.frame.ResumePoint;
import io.notify.protocol.frame.WelcomeFrame;
import io.notify.protocol.stream.Position;
import io.notify.protocol.stream.StreamId;
import io.notify.schemas.validation.FrameSchema;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.random.RandomGenerator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Wire-level behaviour against a scripted {@link FakeGateway}: SSE fallback and SSE resume, the
 * first frame, pongs and acks, close-code policies, token refresh, Retry-After, silence, and that
 * only a {@code welcome} resets the backoff.
 */
@Timeout(60)
class ClientBehaviourIT {

    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final StreamId U42 = StreamId.forUser("42");
    private static final FrameCodec CODEC = FrameCodec.v1();

    private final FakeGateway gateway = new FakeGateway();
    private final Recorder recorder = new Recorder();
    private NotifyClient client;

    @AfterEach
    void tearDown() {
        if (client != null) {
            client.close();
        }
        gateway.close();
    }

    private NotifyClientBuilder builder() {
        return gateway.client(recorder);
    }

    private static String welcome() {
        return FakeGateway.welcome();
    }

    private static String event(long seq) {
        return CODEC.encode(new EventFrame(U42, "ep", seq, "ev-" + seq, "demo.hello", EventClass.DURABLE, null, null));
    }

    private static ClientFrame decode(String text) {
        return CODEC.decodeClientFrame(text, FrameSchema.v1());
    }

    @Test
    void fallsBackToSseWhenTheWebSocketUpgradeFailsAndResumesSseFromTheLastDeliveredPosition() throws Exception {
        gateway.wsRefusals.add(new FakeGateway.Refusal(404, null)); // e.g. a proxy that does not route WebSocket
        client = builder().connect();

        FakeGateway.SseRequest first = gateway.nextSse(WAIT);
        assertEquals(null, first.lastEventId);
        first.write("retry: 1000\n\ndata: " + welcome() + "\n\n");
        first.write("id: ep:1\ndata: " + event(1) + "\n\n:\n\nid: ep:2\ndata: " + event(2) + "\n\n");
        recorder.awaitEvents(2, WAIT);
        first.write("retry: 30\n\n"); // a drain: the last thing before the stream ends
        first.end();

        FakeGateway.SseRequest second = gateway.nextSse(WAIT);
        assertEquals("ep:2", second.lastEventId, "resumes from the last delivered position");
        second.write("retry: 1000\n\ndata: " + welcome() + "\n\n");
        second.write("data: " + event(2) + "\n\ndata: " + event(3) + "\n\n");
        recorder.awaitEvents(3, WAIT);

        assertEquals(List.of("ev-1", "ev-2", "ev-3"), recorder.ids());
        assertEquals(Optional.of(TransportMode.SSE), client.transport());
        assertEquals(1, client.stats().duplicatesDropped());
        assertEquals(1, gateway.handshakes.stream().filter(h -> h.path().equals("/v1/ws")).count(), "WebSocket tried once");
        assertEquals(404, recorder.errors.get(0).httpStatus().orElseThrow());
        assertFalse(recorder.errors.get(0).terminal());
    }

    @Test
    void resumeIsTheFirstFramePingsAreAnsweredAndAcksFollowDeliveries() throws Exception {
        InMemoryPositionStore store = new InMemoryPositionStore();
        store.save(U42, Position.of("ep", 5));
        client = builder().positionStore(store).ackInterval(Duration.ofMillis(100)).connect();
        FakeGateway.Session session = gateway.nextSession(WAIT);
        assertEquals("Bearer t1", gateway.handshakes.get(0).authorization());
        session.send(welcome());
        assertEquals(new ResumeFrame(List.of(new ResumePoint(U42, "ep", 5))), decode(session.next(WAIT)));
        recorder.awaitState(ConnectionState.CONNECTED, 1, WAIT);

        session.send(event(6));
        session.send(event(7));
        session.send(CODEC.encode(PingFrame.INSTANCE));
        List<ClientFrame> sent = new ArrayList<>();
        Await.until(() -> "a pong and an ack of 7, got " + sent, WAIT, () -> {
            try {
                sent.add(decode(session.next(WAIT)));
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
            return sent.contains(PongFrame.INSTANCE) && sent.contains(new AckFrame(U42, 7));
        });
        assertEquals(List.of("ev-6", "ev-7"), recorder.ids());
        assertEquals(Optional.of(Position.of("ep", 7)), client.position(U42));
        assertTrue(sent.stream().filter(f -> f instanceof AckFrame).count() <= 2, "acks are paced: " + sent);
    }

    @Test
    void aRecalledFrameOverWebSocketOrSseReachesOnRecalledAndMovesNoPosition() throws Exception {
        String recalled = CODEC.encode(new RecalledFrame(U42, "ep", 1, "ev-1"));
        client = builder().connect();
        FakeGateway.Session ws = gateway.nextSession(WAIT);
        ws.send(welcome());
        ws.send(event(1));
        ws.send(recalled);
        ws.send(event(2));
        recorder.awaitEvents(2, WAIT);
        assertEquals(List.of("u:42 1 ev-1"), recorder.recalls);
        assertEquals(Optional.of(Position.of("ep", 2)), client.position(U42));
        gateway.wsRefusals.add(new FakeGateway.Refusal(404, null)); // the next WebSocket is refused: SSE
        ws.close(4008, "slow consumer");

        FakeGateway.SseRequest sse = gateway.nextSse(WAIT);
        assertEquals("ep:2", sse.lastEventId, "the recall moved nothing");
        sse.write("retry: 1000\n\ndata: " + welcome() + "\n\n");
        sse.write("data: " + recalled.replace("\"seq\":1,\"id\":\"ev-1\"", "\"seq\":2,\"id\":\"ev-2\"") + "\n\n");
        sse.write("id: ep:3\ndata: " + event(3) + "\n\n");
        recorder.awaitEvents(3, WAIT);
        assertEquals(List.of("u:42 1 ev-1", "u:42 2 ev-2"), recorder.recalls);
        assertEquals(List.of("ev-1", "ev-2", "ev-3"), recorder.ids());
        assertEquals(0, client.stats().duplicatesDropped());
    }

    @Test
    void aReconnectWithAPositionSendsResumeBeforeWelcomeAndOnlyOnce() throws Exception {
        client = builder().ackInterval(Duration.ofHours(1)).connect(); // no ack between the frames read below
        FakeGateway.Session first = gateway.nextSession(WAIT);
        first.send(welcome());
        assertEquals(ResumeFrame.live(), decode(first.next(WAIT)), "no position yet: the resume waits for welcome");
        first.send(event(1));
        first.send(event(2));
        recorder.awaitEvents(2, WAIT);
        first.close(1001, "draining");

        FakeGateway.Session second = gateway.nextSession(WAIT);
        assertEquals(new ResumeFrame(List.of(new ResumePoint(U42, "ep", 2))), decode(second.next(WAIT)),
                "sent right after the upgrade, with no welcome yet");
        second.send(welcome());
        recorder.awaitState(ConnectionState.CONNECTED, 2, WAIT);
        second.send(event(3));
        recorder.awaitEvents(3, WAIT);
        assertEquals(List.of("ev-1", "ev-2", "ev-3"), recorder.ids());
        second.send(CODEC.encode(PingFrame.INSTANCE));
        assertEquals(PongFrame.INSTANCE, decode(second.next(WAIT)), "the welcome was not answered with a second resume");
    }

    @Test
    void aTerminalCloseCodeStopsTheClientUntilTheApplicationReconnects() throws Exception {
        client = builder().connect();
        FakeGateway.Session session = gateway.nextSession(WAIT);
        session.send(welcome());
        recorder.awaitState(ConnectionState.CONNECTED, 1, WAIT);
        session.close(1000, "logged out");

        Await.until("a terminal error", WAIT, () -> recorder.errors.stream().anyMatch(NotifyClientException::terminal));
        NotifyClientException error = recorder.errors.get(0);
        assertEquals(1000, error.closeCode().orElseThrow());
        assertEquals(ConnectionState.DISCONNECTED, client.state());
        assertTrue(gateway.noSessionWithin(Duration.ofMillis(700)), "NEVER: no automatic reconnect");

        client.reconnect();
        gateway.nextSession(WAIT).send(welcome());
        recorder.awaitState(ConnectionState.CONNECTED, 2, WAIT);
    }

    @Test
    void tokenExpiryFetchesAFreshTokenAndReconnectsPromptly() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        client = builder().token(refresh -> "t" + calls.incrementAndGet() + (refresh ? "-fresh" : "")).connect();
        FakeGateway.Session first = gateway.nextSession(WAIT);
        first.send(welcome());
        recorder.awaitState(ConnectionState.CONNECTED, 1, WAIT);
        first.close(4001, "token expired");

        gateway.nextSession(WAIT).send(welcome());
        recorder.awaitState(ConnectionState.CONNECTED, 2, WAIT);
        assertEquals(List.of("Bearer t1", "Bearer t2-fresh"), gateway.handshakes.stream().map(FakeGateway.Handshake::authorization).toList());
        assertTrue(recorder.errors.stream().noneMatch(NotifyClientException::terminal));
    }

    @Test
    void aRefusedHandshakesRetryAfterIsHonouredWithoutFallingBackToSse() throws Exception {
        gateway.wsRefusals.add(new FakeGateway.Refusal(503, "1"));
        client = builder().connect();
        gateway.nextSession(WAIT).send(welcome());
        recorder.awaitState(ConnectionState.CONNECTED, 1, WAIT);
        long waited = gateway.handshakes.get(1).atNanos() - gateway.handshakes.get(0).atNanos();
        assertTrue(waited >= Duration.ofMillis(950).toNanos(), "retried after " + waited / 1_000_000 + " ms despite Retry-After: 1");
        assertEquals(Optional.of(TransportMode.WEBSOCKET), client.transport());
        assertEquals(503, recorder.errors.get(0).httpStatus().orElseThrow());
    }

    @Test
    void aConnectionThatNeverSendsWelcomeIsGivenUpAndRetried() throws Exception {
        client = builder().connectTimeout(Duration.ofMillis(500)).connect();
        FakeGateway.Session silent = gateway.nextSession(WAIT);
        gateway.nextSession(WAIT).send(welcome());
        recorder.awaitState(ConnectionState.CONNECTED, 1, WAIT);
        Await.until("the silent connection closed by the client", WAIT, () -> !silent.isOpen());
    }

    @Test
    void aWelcomedConnectionThatFallsSilentIsGivenUpAfterPingIntervalPlusSlack() throws Exception {
        client = builder().connect();
        FakeGateway.Session frozen = gateway.nextSession(WAIT);
        frozen.send(CODEC.encode(WelcomeFrame.v1("gw-fake", "c-1", List.of(U42), 1_000, System.currentTimeMillis())));
        recorder.awaitState(ConnectionState.CONNECTED, 1, WAIT);
        long welcomed = System.nanoTime();
        FakeGateway.Session next = gateway.nextSession(WAIT); // like a frozen node: the socket stays open, nothing comes
        long silentFor = System.nanoTime() - welcomed;
        long limit = Duration.ofMillis(WelcomeFrame.clientSilenceMs(1_000)).toNanos();
        assertTrue(silentFor >= limit - Duration.ofMillis(50).toNanos(), "gave up after " + silentFor / 1_000_000 + " ms");
        assertTrue(next.isOpen());
        Await.until("the silent connection closed by the client", WAIT, () -> !frozen.isOpen());
    }

    @Test
    void onlyAWelcomeResetsTheBackoffNotAnUpgrade() throws Exception {
        List<Long> ceilings = new CopyOnWriteArrayList<>();
        RandomGenerator recording = new RandomGenerator() {
            @Override
            public long nextLong() {
                return 0;
            }

            @Override
            public long nextLong(long bound) {
                ceilings.add(bound - 1);
                return 0; // no waiting: the test only looks at the windows
            }
        };
        client = builder().backoff(Duration.ofMillis(8), Duration.ofSeconds(1)).random(recording).connect();
        for (int i = 0; i < 3; i++) {
            gateway.nextSession(WAIT).close(1011, "upgraded, then failed"); // TCP + 101, no welcome
        }
        FakeGateway.Session opened = gateway.nextSession(WAIT);
        opened.send(welcome());
        recorder.awaitState(ConnectionState.CONNECTED, 1, WAIT);
        opened.close(1011, "failed after a successful open");
        gateway.nextSession(WAIT).close(1011, "again, no welcome");
        gateway.nextSession(WAIT).send(welcome());
        recorder.awaitState(ConnectionState.CONNECTED, 2, WAIT);
        assertEquals(List.of(8L, 16L, 32L, 8L, 16L), ceilings, "windows of the backoff delays taken");
    }
}
