package io.notify.gateway.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.notify.devstack.Await;
import io.notify.gateway.auth.AuthResult;
import io.notify.gateway.resume.FetchResult;
import io.notify.gateway.support.Events;
import io.notify.gateway.support.FakeTransport;
import io.notify.protocol.frame.CloseCode;
import io.notify.protocol.frame.ResetFrame;
import io.notify.protocol.frame.ServerFrame;
import io.notify.protocol.frame.WelcomeFrame;
import io.notify.protocol.inbox.Receipt;
import io.notify.protocol.stream.Position;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The session's protocol logic over a fake transport and a scripted query API. */
class SessionTest extends SessionFixture {

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
    void aResumeWithAPositionSentBeforeWelcomeIsWelcomedAtOnceAndTheLateAnchorIsIgnored() {
        FakeTransport t = new FakeTransport("ws", 100, 1 << 20);
        Session s = openAwaitingAnchor(t);
        assertTrue(t.frames().isEmpty(), "a fresh client waits for its anchor");
        s.text("{\"t\":\"resume\",\"streams\":[{\"stream\":\"u:42\",\"epoch\":\"ep1\",\"seq\":9}]}");
        assertInstanceOf(WelcomeFrame.class, t.frames().get(0), "welcomed without the anchor");
        assertEquals(new Position(E, 9), source.requests.get(1).after(), "the replay from its position");
        source.answers.get(0).complete(new FetchResult.Page(U, List.of(), false, new Position(E, 20))); // the anchor, late
        source.answers.get(1).complete(new FetchResult.Page(U, Events.range(U, E, 10, 12), false));
        assertEquals(List.of(10L, 11L, 12L), seqs(t));
        assertEquals(1, t.frames().stream().filter(WelcomeFrame.class::isInstance).count());
    }

    @Test
    void aResumeBeforeWelcomeWithdrawsTheHeadReadSoABatcherDoesNotSendIt() {
        FakeTransport t = new FakeTransport("ws", 100, 1 << 20);
        Session s = openAwaitingAnchor(t);
        s.text("{\"t\":\"resume\",\"streams\":[{\"stream\":\"u:42\",\"epoch\":\"ep1\",\"seq\":9}]}");
        assertTrue(source.answers.get(0).isDone(), "the head read is withdrawn (BatchingResumeSource skips a fetch already done)");
        assertInstanceOf(FetchResult.Failed.class, source.answers.get(0).join());
        source.answers.get(1).complete(new FetchResult.Page(U, Events.range(U, E, 10, 11), false));
        assertEquals(List.of(10L, 11L), seqs(t));
        assertEquals(0.0, metrics.count("notify.gateway.anchor.unknown"), "a withdrawn head read is no missing anchor");
    }

    @Test
    void aResumeThatCameWithTheHandshakeIsWelcomedWithNoHeadReadAtAll() {
        FakeTransport t = new FakeTransport("ws", 100, 1 << 20);
        limiter.tryAcquire("42");
        Session s = new Session("c-1", new AuthResult.Authenticated("42", Instant.now().plusSeconds(3600)), null, t, context(Map.of()));
        s.text("{\"t\":\"resume\",\"streams\":[{\"stream\":\"u:42\",\"epoch\":\"ep1\",\"seq\":9}]}"); // before open()
        assertTrue(t.frames().isEmpty(), "not welcomed before it is in the session table");
        s.open();
        assertInstanceOf(WelcomeFrame.class, t.frames().get(0));
        assertEquals(1, source.requests.size(), "only the replay: no head read");
        assertEquals(new Position(E, 9), source.requests.get(0).after());
        assertEquals(List.of("register u:42 c-1"), registrar.calls());
        live(s, Events.durable(U, E, 12)); // held while the replay is in flight
        source.answers.get(0).complete(new FetchResult.Page(U, Events.range(U, E, 10, 11), false));
        assertEquals(List.of(10L, 11L, 12L), seqs(t));
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
        Session s = openAwaitingAnchor(t);
        source.answers.get(0).complete(new FetchResult.Failed(U, "query API down"));
        Await.until("welcome", Duration.ofSeconds(5), () -> !t.frames().isEmpty());
        s.text("{\"t\":\"resume\",\"streams\":[]}");
        live(s, Events.durable(U, E, 5));
        assertEquals(List.of(5L), seqs(t));
        assertEquals(1.0, metrics.count("notify.gateway.anchor.unknown"));
    }

    @Test
    void anAckOfTheOwnStreamIsNotedForItsDeviceWithTheFollowedEpoch_othersAreOnlyCounted() {
        FakeTransport t = new FakeTransport("ws", 100, 1 << 20);
        Session s = open(t);
        s.text("{\"t\":\"resume\",\"streams\":[{\"stream\":\"u:42\",\"epoch\":\"ep1\",\"seq\":9}]}");
        source.answers.get(0).complete(new FetchResult.Page(U, Events.range(U, E, 10, 11), false));
        s.text("{\"t\":\"ack\",\"stream\":\"u:42\",\"seq\":11}");
        s.text("{\"t\":\"ack\",\"stream\":\"u:42\",\"seq\":10}");
        s.text("{\"t\":\"ack\",\"stream\":\"u:43\",\"seq\":5}"); // another user's stream: never a receipt
        s.text("{\"t\":\"ack\",\"stream\":\"r:lobby\",\"seq\":3}"); // a room: metrics only
        assertEquals(4.0, metrics.count("notify.gateway.acks"));
        assertEquals(1, receipts.pending());
        receipts.flush();
        Receipt ack = receiptSink.received().get(0);
        assertEquals(Receipt.ack(U, E, 11, "c-1", ack.at()), ack, "the device is the connection without ?device=");
        assertEquals(1, receiptSink.received().size());
        assertEquals(null, t.closedWith(), "acks never close the connection");
    }
}
