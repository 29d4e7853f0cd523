package io.notify.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.notify.client.support.FakeGateway.InboxAnswer;
import io.notify.client.support.FakeGateway.InboxRequest;
import io.notify.client.support.FakeGateway;
import io.notify.client.support.Recorder;
import io.notify.devstack.Await;
import io.notify.protocol.NotifyJson;
import io.notify.protocol.frame.FrameCodec;
import io.notify.protocol.frame.StateFrame;
import io.notify.protocol.inbox.EventState;
import io.notify.protocol.inbox.ReceiptKind;
import io.notify.protocol.stream.Position;
import io.notify.protocol.stream.StreamId;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The inbox side of the SDK on the wire, against a scripted {@link FakeGateway}: the device id at
 * connect and in marks, the counts read after a welcome, state frames, the bearer token and its
 * refresh on a 401, Retry-After on a 503, problem answers as errors.
 */
@Timeout(60)
class InboxBehaviourIT {

    private static final Duration WAIT = Duration.ofSeconds(10);

    private final FakeGateway gateway = new FakeGateway();
    private final Recorder recorder = new Recorder();
    private final List<InboxChange> changes = new CopyOnWriteArrayList<>();
    private final List<String> callbackThreads = new CopyOnWriteArrayList<>();

    private final InboxListener inboxListener = new InboxListener() {
        @Override
        public void onState(InboxChange change) {
            callbackThreads.add(Thread.currentThread().getName());
            changes.add(change);
        }

        @Override
        public void onUnread(InboxCounts estimate) {
            callbackThreads.add(Thread.currentThread().getName());
        }
    };

    @AfterEach
    void stopGateway() {
        gateway.close();
    }

    /** A state frame of u:42 at head ep:2, encoded. */
    private static String state(long unread, long version, ReceiptKind kind, long upTo, String device) {
        return FrameCodec.v1().encode(new StateFrame(StreamId.forUser("42"), "ep", 2, unread, unread, version, kind, upTo, null, device));
    }

    private static JsonNode json(String text) throws Exception {
        return NotifyJson.mapper().readTree(text);
    }

    private static Throwable failure(Runnable call) {
        return assertThrows(CompletionException.class, call::run).getCause();
    }

    @Test
    void theDeviceIsInTheConnectUrlTheCountsAreReadAfterWelcomeAndStateFramesMoveTheEstimate() throws Exception {
        gateway.inboxAnswers.add(InboxAnswer.json(200, "{\"unread\":2,\"unseen\":2,\"version\":3,\"head\":{\"epoch\":\"ep\",\"seq\":2}}"));
        try (NotifyClient client = gateway.client(recorder).device("phone-1").inbox(inboxListener).connect()) {
            connectedWithDeviceAndInbox(client);
        }
    }

    private void connectedWithDeviceAndInbox(NotifyClient client) throws Exception {
        FakeGateway.Session session = gateway.nextSession(WAIT);
        assertEquals("device=phone-1", gateway.handshakes.get(0).query());
        session.send(FakeGateway.welcome());

        InboxRequest refresh = gateway.nextInbox(WAIT);
        assertEquals("GET /v1/inbox/unread Bearer t1", refresh.method() + " " + refresh.path() + " " + refresh.authorization());
        Await.until("the estimate from the counts", WAIT, () -> client.unread().equals(OptionalLong.of(2)));

        session.send(state(1, 4, ReceiptKind.READ, 1, "laptop-1"));
        Await.until("the state frame applied", WAIT, () -> client.unread().equals(OptionalLong.of(1)));
        session.send(state(2, 3, ReceiptKind.SEEN, 1, "laptop-1")); // stale
        session.send(state(0, 5, ReceiptKind.READ, 2, "phone-1"));
        Await.until("the newest state", WAIT, () -> changes.size() == 2);
        assertEquals(OptionalLong.of(0), client.unread());
        assertEquals(List.of(4L, 5L), changes.stream().map(InboxChange::version).toList(), "the stale change is not told");
        assertEquals(List.of(false, true), changes.stream().map(InboxChange::fromThisDevice).toList());
        assertEquals(1, new java.util.HashSet<>(callbackThreads).size(), "one thread: " + callbackThreads);
        assertTrue(callbackThreads.get(0).startsWith("notify-client-"), callbackThreads.get(0));

        client.inbox().mark(ReceiptKind.READ, Position.of("ep", 2)).join();
        InboxRequest mark = gateway.nextInbox(WAIT);
        assertEquals("POST /v1/inbox/read application/json", mark.method() + " " + mark.path() + " " + mark.contentType());
        assertEquals(json("{\"upTo\":2,\"epoch\":\"ep\",\"device\":\"phone-1\"}"), json(mark.body()));
        client.inbox().archive(List.of("ev-1", "ev-2")).join();
        assertEquals(json("{\"ids\":[\"ev-1\",\"ev-2\"],\"device\":\"phone-1\"}"), json(gateway.nextInbox(WAIT).body()));
        assertEquals(List.of(), recorder.errors);
    }

    @Test
    void aGeneratedDeviceGoesInTheSseUrlToo() throws Exception {
        try (NotifyClient client = gateway.client(recorder).transport(TransportMode.SSE).connect()) {
            gateway.nextSse(WAIT);
            assertTrue(client.device().startsWith("java-"), client.device());
            assertEquals("device=" + client.device(), gateway.handshakes.get(0).query());
            client.inbox().markSeen(7).join(); // a mark sent without an epoch names the device too
            assertEquals(json("{\"upTo\":7,\"device\":\"" + client.device() + "\"}"), json(gateway.nextInbox(WAIT).body()));
        }
    }

    @Test
    void a401GetsOneFreshTokenAndA503IsRepeatedAfterItsRetryAfterBeforeTheClientEvenConnects() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        try (NotifyClient client = gateway.client(recorder).token(refresh -> "t" + calls.incrementAndGet() + (refresh ? "-fresh" : ""))
                .build()) { // not started
            refreshedAndRetried(client, calls);
        }
    }

    private void refreshedAndRetried(NotifyClient client, AtomicInteger calls) throws Exception {
        gateway.inboxAnswers.add(InboxAnswer.problem(401, "unauthenticated", "token refused: token_expired", null));
        gateway.inboxAnswers.add(InboxAnswer.problem(503, "overloaded", "too many", "1"));
        gateway.inboxAnswers.add(InboxAnswer.json(200, "{\"stream\":\"u:42\",\"head\":{\"epoch\":\"ep\",\"seq\":2},\"firstSeq\":1,"
                + "\"unread\":1,\"unseen\":0,\"version\":3,\"events\":[{\"event\":{\"stream\":\"u:42\",\"epoch\":\"ep\",\"seq\":2,"
                + "\"id\":\"ev-2\",\"type\":\"demo\",\"data\":{}},\"state\":\"seen\"}],\"next\":2}"));

        InboxPage page = client.inbox().page(10L, 1, NotifyInbox.Archived.INCLUDE).join();
        assertEquals(List.of(EventState.SEEN), page.events().stream().map(InboxPage.Item::state).toList());
        assertEquals(OptionalLong.of(2), page.next());
        InboxRequest first = gateway.nextInbox(WAIT);
        InboxRequest second = gateway.nextInbox(WAIT);
        InboxRequest third = gateway.nextInbox(WAIT);
        assertEquals("limit=1&archived=include&before=10", first.query());
        assertEquals(List.of("Bearer t1", "Bearer t2-fresh", "Bearer t2-fresh"),
                List.of(first.authorization(), second.authorization(), third.authorization()));
        long waited = third.atNanos() - second.atNanos();
        assertTrue(waited >= Duration.ofMillis(950).toNanos(), "repeated after " + waited / 1_000_000 + " ms despite Retry-After: 1");

        client.inbox().unreadCount().join();
        assertEquals("Bearer t2-fresh", gateway.nextInbox(WAIT).authorization(), "the fresh token is kept");
        assertEquals(2, calls.get());
    }

    @Test
    void refusalsFailTheFutureWithTheProblemAndA503IsRepeatedABoundedNumberOfTimes() throws Exception {
        NotifyClient client = gateway.client(recorder).build(); // a fixed token: a 401 cannot be helped
        gateway.inboxAnswers.add(InboxAnswer.problem(401, "unauthenticated", "token refused: token_expired", null));
        NotifyClientException unauthenticated = (NotifyClientException) failure(() -> client.inbox().unreadCount().join());
        assertEquals(NotifyClientException.Kind.INBOX, unauthenticated.kind());
        assertEquals(OptionalInt.of(401), unauthenticated.httpStatus());
        assertEquals(Optional.of("urn:notify:problem:unauthenticated"), unauthenticated.problemType());
        assertEquals(1, gateway.inboxRequests.size(), "the same token is not sent again");
        gateway.inboxRequests.clear();

        for (int i = 0; i < 5; i++) {
            gateway.inboxAnswers.add(InboxAnswer.problem(503, "unavailable", "the inbox cannot be reached", "0"));
        }
        NotifyClientException unavailable = (NotifyClientException) failure(() -> client.inbox().markRead(3).join());
        assertEquals(OptionalInt.of(503), unavailable.httpStatus());
        assertEquals(Optional.of("the inbox cannot be reached"), unavailable.problemDetail());
        assertEquals(1 + io.notify.client.internal.InboxHttp.MAX_RETRIES, gateway.inboxRequests.size());
        gateway.inboxAnswers.clear();

        gateway.inboxAnswers.add(InboxAnswer.problem(400, "invalid-body", "ids: unknown", null));
        NotifyClientException invalid = (NotifyClientException) failure(() -> client.inbox().markRead(List.of("a")).join());
        assertEquals(Optional.of("urn:notify:problem:invalid-body"), invalid.problemType());
        assertThrows(IllegalArgumentException.class, () -> client.inbox().markRead(List.of()));
        assertThrows(IllegalArgumentException.class, () -> client.inbox().markRead(0));
        assertThrows(IllegalArgumentException.class, () -> client.inbox().page(null, 101, NotifyInbox.Archived.EXCLUDE));
        assertThrows(IllegalArgumentException.class, () -> client.inbox().mark(ReceiptKind.ACK, List.of("a")), "an ack is no mark");

        client.close();
        Throwable closed = failure(() -> client.inbox().unreadCount().join());
        assertEquals(NotifyClientException.Kind.INBOX, ((NotifyClientException) closed).kind(), "a closed client: " + closed);
    }
}
