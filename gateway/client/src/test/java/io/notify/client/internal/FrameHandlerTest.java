package io.notify.client.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.notify.client.ClientEvent;
import io.notify.client.NotifyClientException;
import io.notify.client.NotifyListener;
import io.notify.client.TransportMode;
import io.notify.client.store.InMemoryPositionStore;
import io.notify.protocol.event.EventClass;
import io.notify.protocol.frame.AckFrame;
import io.notify.protocol.frame.EventFrame;
import io.notify.protocol.frame.FrameCodec;
import io.notify.protocol.frame.PingFrame;
import io.notify.protocol.frame.PongFrame;
import io.notify.protocol.frame.ResetFrame;
import io.notify.protocol.frame.ResetReason;
import io.notify.protocol.frame.ResumeFrame;
import io.notify.protocol.frame.ResumePoint;
import io.notify.protocol.frame.WelcomeFrame;
import io.notify.protocol.stream.Position;
import io.notify.protocol.stream.StreamId;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class FrameHandlerTest {

    private static final StreamId U42 = StreamId.forUser("42");

    private final InMemoryPositionStore store = new InMemoryPositionStore();
    private final List<String> seen = new ArrayList<>();
    private final List<NotifyClientException> errors = new ArrayList<>();
    private final ClientCounters counters = new ClientCounters();
    private final FakeTransport ws = new FakeTransport(TransportMode.WEBSOCKET);
    private RuntimeException throwOn;

    private final NotifyListener listener = new NotifyListener() {
        @Override
        public void onEvent(ClientEvent event) {
            // the position is stored only after this returns
            String stored = store.load(event.stream()).map(Position::format).orElse("none");
            seen.add(event.id() + "@" + event.position().map(Position::format).orElse("-") + " stored=" + stored);
            if (throwOn != null) {
                throw throwOn;
            }
        }

        @Override
        public void onReset(StreamId stream, ResetReason reason, Optional<Position> head) {
            seen.add("reset " + reason.wireName() + " head=" + head.map(Position::format).orElse("none")
                    + " stored=" + store.load(stream).map(Position::format).orElse("none"));
        }
    };

    private final FrameHandler handler = new FrameHandler(listener, new StreamPositions(store), errors::add, counters);

    private static EventFrame durable(String epoch, long seq) {
        return new EventFrame(U42, epoch, seq, "ev-" + seq, "demo.hello", EventClass.DURABLE, null, null);
    }

    /** Through the real codec, as the loop does. */
    private FrameHandler.Outcome receive(Object frame) {
        String text = FrameCodec.v1().encode((io.notify.protocol.frame.Frame) frame);
        return handler.handle(FrameCodec.v1().decodeServerFrame(text), ws);
    }

    private void welcome() {
        receive(WelcomeFrame.v1("gw-1", "c-1", List.of(U42), 25_000, 1));
    }

    @Test
    void aResumeGoesBeforeWelcomeOnlyWhenTheLastWelcomesStreamsAllHaveAPositionAndThenTheWelcomeSendsNone() {
        store.save(U42, Position.of("ep", 7));
        handler.connecting();
        assertEquals(Optional.empty(), handler.resumeBeforeWelcome(), "never welcomed: its streams are not known yet");
        welcome();
        assertEquals(1, ws.sent.size(), "the first connection's resume follows its welcome");

        handler.connecting(); // a reconnect
        ResumeFrame early = handler.resumeBeforeWelcome().orElseThrow();
        assertEquals(new ResumeFrame(List.of(new ResumePoint(U42, "ep", 7))), early);
        welcome();
        assertEquals(1, ws.sent.size(), "no second resume on the welcome");

        FrameHandler fresh = new FrameHandler(listener, new StreamPositions(new InMemoryPositionStore()), errors::add, counters);
        fresh.handle(WelcomeFrame.v1("gw-1", "c-1", List.of(U42), 25_000, 1), ws);
        fresh.connecting();
        assertEquals(Optional.empty(), fresh.resumeBeforeWelcome(), "a stream without a position: the resume waits for welcome");
        fresh.handle(WelcomeFrame.v1("gw-1", "c-2", List.of(U42), 25_000, 1), ws);
        assertEquals(ResumeFrame.live(), ws.sent.get(ws.sent.size() - 1));
    }

    @Test
    void welcomeIsAnsweredWithAResumeOfTheStoredPositionsOfTheStreamsItNamesOnly() {
        store.save(U42, Position.of("ep", 7));
        store.save(StreamId.forUser("someone-else"), Position.of("ep", 3));
        assertTrue(receive(WelcomeFrame.v1("gw-1", "c-1", List.of(U42), 25_000, 1)).welcomed());
        assertEquals(List.of(new ResumeFrame(List.of(new ResumePoint(U42, "ep", 7)))), ws.sent);
    }

    @Test
    void everyWelcomeReAcksTheUserStreamAtItsStoredPosition_makingGoodAnAckTheLastConnectionLost() {
        store.save(U42, Position.of("ep", 7));
        welcome();
        receive(durable("ep", 8));
        ws.sent.clear(); // the connection drops before its ack goes out: the loop's drop discards what was noted
        handler.takeAcks();
        welcome();
        assertEquals(List.of(new AckFrame(U42, 8)), handler.takeAcks(), "the position acked again after the welcome");
    }

    @Test
    void withoutAPositionTheResumeStartsLive() {
        welcome();
        assertEquals(List.of(ResumeFrame.live()), ws.sent);
    }

    @Test
    void duplicatesAndOldPositionsNeverReachTheListenerAndPositionsArePersistedAfterIt() {
        store.save(U42, Position.of("ep", 2));
        welcome();
        for (long seq : new long[] {1, 2, 3, 3, 4, 2, 5}) {
            assertFalse(receive(durable("ep", seq)).resync());
        }
        assertEquals(List.of("ev-3@ep:3 stored=ep:2", "ev-4@ep:4 stored=ep:3", "ev-5@ep:5 stored=ep:4"), seen);
        assertEquals(Optional.of(Position.of("ep", 5)), store.load(U42));
        assertEquals(4, counters.snapshot().duplicatesDropped());
        assertEquals(List.of(new AckFrame(U42, 5)), handler.takeAcks(), "one cumulative ack");
        assertEquals(List.of(), handler.takeAcks());
    }

    @Test
    void aGapOrAForeignEpochAsksForAResyncAndDeliversNothing() {
        store.save(U42, Position.of("ep", 2));
        welcome();
        FrameHandler.Outcome gap = receive(durable("ep", 5));
        assertTrue(gap.resync(), "a gap");
        FrameHandler.Outcome foreign = receive(durable("other", 3));
        assertTrue(foreign.resync(), "another epoch");
        assertEquals(List.of(), seen);
        assertEquals(Optional.of(Position.of("ep", 2)), store.load(U42));
    }

    @Test
    void aResetIsReportedBeforeItsHeadIsAdoptedThenLiveEventsOfTheNewEpochFollow() {
        store.save(U42, Position.of("old", 40));
        welcome();
        receive(ResetFrame.epochMismatch(U42, Position.of("new", 3), 1));
        receive(durable("old", 41)); // a straggler of the old history
        receive(durable("new", 3));
        receive(durable("new", 4));
        assertEquals(List.of("reset epoch_mismatch head=new:3 stored=old:40", "ev-4@new:4 stored=new:3"), seen);
        assertEquals(Optional.of(Position.of("new", 4)), store.load(U42));
        assertEquals(1, counters.snapshot().resets());
    }

    @Test
    void anUnknownStreamResetForgetsThePosition() {
        store.save(U42, Position.of("old", 40));
        welcome();
        receive(ResetFrame.unknownStream(U42));
        assertEquals(Optional.empty(), store.load(U42));
        receive(durable("fresh", 1));
        assertEquals(Optional.of(Position.of("fresh", 1)), store.load(U42));
    }

    @Test
    void ephemeralEventsAreDeliveredWithoutPositionAndNeverDeduplicated() {
        welcome();
        EventFrame typing = new EventFrame(U42, null, null, "typing-1", "chat.typing", EventClass.EPHEMERAL, null, null);
        receive(typing);
        receive(typing);
        assertEquals(List.of("typing-1@- stored=none", "typing-1@- stored=none"), seen);
        assertEquals(Optional.empty(), store.load(U42));
        assertEquals(List.of(), handler.takeAcks());
    }

    @Test
    void pingsAreAnsweredWithPong() {
        welcome();
        ws.sent.clear();
        receive(PingFrame.INSTANCE);
        assertEquals(List.of(PongFrame.INSTANCE), ws.sent);
    }

    @Test
    void aThrowingListenerIsReportedAndTheEventStillCountsAsDelivered() {
        welcome();
        throwOn = new IllegalStateException("boom");
        receive(durable("ep", 1));
        throwOn = null;
        receive(durable("ep", 1));
        receive(durable("ep", 2));
        assertEquals(2, seen.size());
        assertEquals(1, errors.size());
        assertEquals(NotifyClientException.Kind.LISTENER, errors.get(0).kind());
        assertEquals(Optional.of(Position.of("ep", 2)), store.load(U42));
    }

    @Test
    void overSseNothingIsSentAndTheResumePositionIsTheSingleStreamsOne() {
        FakeTransport sse = new FakeTransport(TransportMode.SSE);
        assertEquals(Optional.empty(), handler.ssePosition());
        store.save(U42, Position.of("ep", 9));
        assertEquals(Optional.of(Position.of("ep", 9)), handler.ssePosition(), "before any welcome: the store's one stream");
        handler.handle(WelcomeFrame.v1("gw-1", "c-1", List.of(U42), 25_000, 1), sse);
        handler.handle(PingFrame.INSTANCE, sse);
        assertEquals(List.of(), sse.sent);
        store.save(StreamId.forUser("other"), Position.of("x", 1));
        assertEquals(Optional.of(Position.of("ep", 9)), handler.ssePosition(), "after a welcome: its stream");
    }
}
