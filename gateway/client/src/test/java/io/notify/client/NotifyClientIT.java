package io.notify.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.notify.client.store.FilePositionStore;
import io.notify.client.support.Recorder;
import io.notify.devstack.Await;
import io.notify.devstack.Infra;
import io.notify.devstack.NotifyInfraExtension;
import io.notify.platform.Platform;
import io.notify.platform.PlatformConfig;
import io.notify.platform.ServiceProcess;
import io.notify.protocol.inbox.EventState;
import io.notify.protocol.inbox.ReceiptKind;
import io.notify.protocol.stream.Position;
import io.notify.protocol.stream.StreamId;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The SDK against the real platform: Kafka and Redis from the devstack, ingest, fanout-streams and
 * gateway nodes, events published through ingest's HTTP API. Node death is a real {@code kill -9}
 * of a gateway running in a child JVM.
 */
@ExtendWith(NotifyInfraExtension.class)
@Timeout(150)
class NotifyClientIT {

    private static final Duration WAIT = Duration.ofSeconds(30);

    @TempDir
    static Path dir;
    static Infra infra;
    static Platform stack;
    static URI gatewayB;

    @BeforeAll
    static void startStack() throws Exception {
        // one partition of notify.events: the order of publishing is the order of the seqs
        stack = Platform.forTest(infra, dir).partitions(PlatformConfig.Partitions.TEST.withEvents(1)).start();
        gatewayB = Platform.http(stack.startGateway("gw-b").port());
    }

    @AfterAll
    static void stopStack() {
        if (stack != null) {
            stack.close();
        }
    }

    private static List<String> ids(String prefix, int from, int to) {
        List<String> ids = new ArrayList<>();
        for (int i = from; i <= to; i++) {
            ids.add(prefix + i);
        }
        return ids;
    }

    private static void publish(String user, List<String> ids) {
        ids.forEach(id -> stack.publish(user, id));
    }

    @Test
    void resumesOnTheOtherNodeAfterItsNodeIsKilledWithZeroLossAndZeroDuplicates() throws Exception {
        String user = "failover-user";
        ServiceProcess nodeA = stack.startChildGateway("gw-a");
        Recorder recorder = new Recorder();
        AtomicInteger tokenCalls = new AtomicInteger();
        AtomicReference<CountDownLatch> gate = new AtomicReference<>(new CountDownLatch(0));
        FilePositionStore store = new FilePositionStore(dir.resolve("failover-positions.txt"));
        try (NotifyClient client = NotifyClient.builder()
                .gateways(List.of(URI.create(nodeA.baseUrl()), gatewayB))
                .token(refresh -> {
                    tokenCalls.incrementAndGet();
                    if (!gate.get().await(30, TimeUnit.SECONDS)) {
                        throw new IllegalStateException("test gate never opened");
                    }
                    return stack.config().keys().token(user, Duration.ofMinutes(10));
                })
                .positionStore(store)
                .listener(recorder)
                .connect()) {
            recorder.awaitState(ConnectionState.CONNECTED, 1, WAIT);
            assertEquals(Optional.of("gw-a"), client.nodeId());
            List<String> expected = new ArrayList<>(ids("fo-", 1, 20));
            publish(user, ids("fo-", 1, 20));
            recorder.awaitEvents(20, WAIT);

            // node A dies while the client holds its connection; the reconnect is held at the token
            // supplier until the events of the outage are published, so they really are published
            // while the client is connected nowhere
            gate.set(new CountDownLatch(1));
            int callsBefore = tokenCalls.get();
            long killedAt = System.nanoTime();
            nodeA.kill();
            Await.until("the client trying to reconnect", WAIT, () -> tokenCalls.get() > callsBefore);
            assertEquals(ConnectionState.CONNECTING, client.state());
            publish(user, ids("fo-", 21, 40));
            expected.addAll(ids("fo-", 21, 40));
            gate.get().countDown();

            recorder.awaitState(ConnectionState.CONNECTED, 2, WAIT);
            long reconnectedAt = System.nanoTime();
            assertEquals(Optional.of("gw-b"), client.nodeId());
            publish(user, ids("fo-", 41, 60));
            expected.addAll(ids("fo-", 41, 60));
            recorder.awaitEvents(60, WAIT);
            long allAt = System.nanoTime();

            assertEquals(expected, recorder.ids(), "every event once, in publish order, nothing lost");
            assertEquals(LongStream.rangeClosed(1, 60).boxed().toList(), recorder.seqs(), "gapless seqs 1..60, no duplicate");
            assertEquals(1, recorder.epochs().size());
            StreamId stream = StreamId.forUser(user);
            assertEquals(Optional.of(Position.of(recorder.epochs().get(0), 60)), store.load(stream), "persisted");
            assertEquals(Optional.of(Position.of(recorder.epochs().get(0), 60)),
                    new FilePositionStore(store.file()).load(stream), "persisted on disk");
            assertEquals(List.of(), recorder.resets);
            Await.until("gw-b counting the client's acks", WAIT, () -> stack.gateway("gw-b").metrics().count("notify.gateway.acks") > 0);
            assertTrue(recorder.errors.isEmpty(), "a node death is no error: " + recorder.errors);
            assertEquals(1, recorder.threads().size(), "callbacks on the client's one thread: " + recorder.threads());
            ClientStats stats = client.stats();
            System.out.printf("NotifyClientIT failover: 60/60 events exactly once in order; welcome on gw-b %d ms after "
                            + "the kill (the reconnect was held for the 20 outage events); last event %d ms after the "
                            + "reconnect; %s%n", TimeUnit.NANOSECONDS.toMillis(reconnectedAt - killedAt),
                    TimeUnit.NANOSECONDS.toMillis(allAt - reconnectedAt), stats);
        }
    }

    @Test
    void sseModeReceivesAndResumesFromLastEventIdAcrossAClientRestart() {
        String user = "sse-user";
        Path positions = dir.resolve("sse-positions.txt");
        Recorder first = new Recorder();
        try (NotifyClient client = NotifyClient.builder()
                .gateways(List.of(gatewayB))
                .transport(TransportMode.SSE)
                .token(stack.config().keys().token(user, Duration.ofMinutes(10)))
                .positionStore(new FilePositionStore(positions))
                .listener(first)
                .connect()) {
            first.awaitState(ConnectionState.CONNECTED, 1, WAIT);
            assertEquals(Optional.of(TransportMode.SSE), client.transport());
            publish(user, ids("sse-", 1, 5));
            first.awaitEvents(5, WAIT);
        }
        assertEquals(ids("sse-", 1, 5), first.ids());
        assertEquals(ConnectionState.CLOSED, first.states.get(first.states.size() - 1));

        publish(user, ids("sse-", 6, 10)); // while no client runs

        Recorder second = new Recorder();
        try (NotifyClient client = NotifyClient.builder()
                .gateways(List.of(gatewayB))
                .transport(TransportMode.SSE)
                .token(stack.config().keys().token(user, Duration.ofMinutes(10)))
                .positionStore(new FilePositionStore(positions))
                .listener(second)
                .connect()) {
            second.awaitEvents(5, WAIT);
            publish(user, ids("sse-", 11, 13));
            second.awaitEvents(8, WAIT);
            assertEquals(Optional.of(TransportMode.SSE), client.transport());
        }
        List<String> expected = new ArrayList<>(ids("sse-", 6, 13));
        assertEquals(expected, second.ids(), "resumed after sse-5 from Last-Event-ID, then live");
        assertEquals(LongStream.rangeClosed(6, 13).boxed().toList(), second.seqs());
        assertTrue(second.errors.isEmpty(), "errors: " + second.errors);
    }

    /** A room's events as one client's {@link RoomListener} saw them, with its confirmations and refusals. */
    private static final class RoomLog implements RoomListener {
        final List<String> ids = java.util.Collections.synchronizedList(new ArrayList<>());
        final List<String> notes = java.util.Collections.synchronizedList(new ArrayList<>());

        @Override
        public void onEvent(ClientEvent event) {
            if (event.durable()) {
                ids.add(event.id());
            }
        }

        @Override
        public void onSubscribed(StreamId stream, Optional<Position> head) {
            notes.add("subscribed " + stream);
        }

        @Override
        public void onRefused(StreamId stream, String reason) {
            notes.add("refused " + stream + " " + reason);
        }

        @Override
        public void onReset(StreamId stream, io.notify.protocol.frame.ResetReason reason, Optional<Position> head) {
            notes.add("reset " + stream + " " + reason.wireName());
        }

        void awaitIds(int n) {
            Await.until(n + " room events (have " + ids + ")", WAIT, () -> ids.size() >= n);
        }
    }

    private static void publishTo(String toJson, List<String> ids) {
        ids.forEach(id -> stack.publishing().publishJson(io.notify.platform.Publishing.event(toJson, id, "durable")));
    }

    @Test
    void aRoomResumesOnTheOtherNodeAfterItsNodeIsKilledWithNoGapAndNoDuplicateAndAForbiddenRoomIsRefused() throws Exception {
        String room = "it-room-kill";
        String to = "{\"rooms\":[\"" + room + "\"]}";
        ServiceProcess nodeA = stack.startChildGateway("gw-room-a");
        RoomLog onA = new RoomLog();
        RoomLog onB = new RoomLog();
        List<String> claim = List.of("it-room-*");
        try (NotifyClient a = NotifyClient.builder()
                .gateways(List.of(URI.create(nodeA.baseUrl()), gatewayB))
                .token(stack.token("room-user-a", claim))
                .listener(e -> { })
                .subscribe(room, onA)
                .connect();
             NotifyClient b = NotifyClient.builder().gateways(List.of(gatewayB)).token(stack.token("room-user-b", claim))
                     .listener(e -> { }).connect()) {
            b.subscribe(room, onB);
            b.subscribe("secret-1", onB); // not in the claim, and not public
            Await.until("both subscribed", WAIT, () -> onA.notes.contains("subscribed r:" + room)
                    && onB.notes.contains("subscribed r:" + room) && onB.notes.size() >= 2);
            // two rooms, two answers in either order: the refusal needs no head read, the subscribe does
            assertEquals(java.util.Set.of("subscribed r:" + room, "refused r:secret-1 forbidden"), java.util.Set.copyOf(onB.notes));
            assertEquals(2, onB.notes.size(), "one answer per subscribe: " + onB.notes);
            assertEquals(java.util.Set.of(StreamId.forRoom(room)), b.subscriptions(), "a refused room is dropped");
            assertEquals(Optional.of("gw-room-a"), a.nodeId());

            publishTo(to, ids("rk-", 1, 10));
            onA.awaitIds(10);
            nodeA.kill();
            publishTo(to, ids("rk-", 11, 30)); // while client a reconnects to gw-b
            onA.awaitIds(30);
            onB.awaitIds(30);
            assertEquals(ids("rk-", 1, 30), List.copyOf(onA.ids), "no gap, no duplicate, in order across the kill");
            assertEquals(ids("rk-", 1, 30), List.copyOf(onB.ids));
            assertEquals(Optional.of("gw-b"), a.nodeId());
            assertEquals(0, a.stats().resets(), "resumed from its position, not reset: " + onA.notes);
        }
    }

    @Test
    void anSseClientGetsItsRoomsAndTheBroadcastAndResumesThemWhenItsRoomSetChanges() throws Exception {
        String room = "it-room-sse";
        RoomLog roomLog = new RoomLog();
        RoomLog broadcast = new RoomLog();
        RoomLog second = new RoomLog();
        try (NotifyClient c = NotifyClient.builder().gateways(List.of(gatewayB)).transport(TransportMode.SSE)
                .sseFallback(false).token(stack.token("room-user-sse", List.of("it-room-*"))).listener(e -> { })
                .subscribe(room, roomLog).subscribeBroadcast(broadcast).connect()) {
            Await.until("subscribed over SSE", WAIT, () -> roomLog.notes.size() == 1 && broadcast.notes.size() == 1);
            publishTo("{\"rooms\":[\"" + room + "\"]}", ids("rs-", 1, 5));
            publishTo("{\"broadcast\":true}", List.of("bc-1"));
            roomLog.awaitIds(5);
            broadcast.awaitIds(1);

            c.subscribe("it-room-sse-2", second); // SSE: a new request with the new set, resumed by the composite cursor
            publishTo("{\"rooms\":[\"" + room + "\"]}", ids("rs-", 6, 15)); // partly while it reconnects
            publishTo("{\"broadcast\":true}", List.of("bc-2"));
            roomLog.awaitIds(15);
            broadcast.awaitIds(2);
            assertEquals(ids("rs-", 1, 15), List.copyOf(roomLog.ids));
            assertEquals(List.of("bc-1", "bc-2"), List.copyOf(broadcast.ids));
            assertEquals(List.of("subscribed r:it-room-sse-2"), List.copyOf(second.notes));
            assertEquals(Optional.of(TransportMode.SSE), c.transport());
        }
    }

    private static List<String> pageIds(InboxPage page) {
        return page.events().stream().map(i -> i.event().id()).toList();
    }

    @Test
    void twoDevicesOfOneUserOnTwoNodesShareTheInboxsReadStateAndCounts() throws Exception {
        String user = "inbox-user";
        URI gatewayC = Platform.http(stack.startGateway("gw-c").port());
        List<InboxChange> onPhone = new CopyOnWriteArrayList<>();
        List<InboxChange> onLaptop = new CopyOnWriteArrayList<>();
        Recorder phoneEvents = new Recorder();
        Recorder laptopEvents = new Recorder();
        try (NotifyClient phone = NotifyClient.builder().gateways(List.of(gatewayB)).token(stack.token(user)).device("phone-1")
                .listener(phoneEvents).inbox(new InboxListener() {
                    public void onState(InboxChange change) {
                        onPhone.add(change);
                    }
                }).connect();
             NotifyClient laptop = NotifyClient.builder().gateways(List.of(gatewayC)).token(stack.token(user)).device("laptop-1")
                     .listener(laptopEvents).inbox(new InboxListener() {
                         public void onState(InboxChange change) {
                             onLaptop.add(change);
                         }
                     }).connect()) {
            phoneEvents.awaitState(ConnectionState.CONNECTED, 1, WAIT);
            laptopEvents.awaitState(ConnectionState.CONNECTED, 1, WAIT);
            publish(user, ids("ib-", 1, 5));
            phoneEvents.awaitEvents(5, WAIT);
            laptopEvents.awaitEvents(5, WAIT);
            Await.until("5 unread on the gateway", WAIT, () -> phone.inbox().unreadCount().join().unread() == 5);
            InboxCounts counts = laptop.inbox().unreadCount().join();
            assertEquals(5, counts.unseen());
            assertEquals(Optional.of(phoneEvents.events.get(4).position().orElseThrow()), counts.head());
            Await.until("both estimates at 5", WAIT, () -> phone.unread().equals(OptionalLong.of(5))
                    && laptop.unread().equals(OptionalLong.of(5)));

            long t0 = System.nanoTime();
            phone.inbox().mark(ReceiptKind.READ, phoneEvents.events.get(2).position().orElseThrow()).join(); // "mark all read" up to ib-3
            Await.until("the laptop told of the phone's mark", WAIT, () -> !onLaptop.isEmpty() && laptop.unread().equals(OptionalLong.of(2)));
            long toLaptopMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
            InboxChange read = onLaptop.get(0);
            assertEquals(List.of(ReceiptKind.READ, 2L, 3L, "phone-1", false), List.of(read.kind(), read.unread(),
                    read.upTo().orElseThrow(), read.device().orElseThrow(), read.fromThisDevice()));
            Await.until("the phone told of its own mark", WAIT, () -> !onPhone.isEmpty() && phone.unread().equals(OptionalLong.of(2)));
            assertTrue(onPhone.get(0).fromThisDevice());

            InboxPage page = laptop.inbox().page().join();
            assertEquals(List.of("ib-5", "ib-4", "ib-3", "ib-2", "ib-1"), pageIds(page), "newest first");
            assertEquals(List.of(EventState.UNSEEN, EventState.UNSEEN, EventState.READ, EventState.READ, EventState.READ),
                    page.events().stream().map(InboxPage.Item::state).toList());
            assertEquals(2, page.unread());

            laptop.inbox().archive(List.of("ib-5")).join();
            Await.until("the phone told of the laptop's archive", WAIT, () -> onPhone.size() >= 2 && phone.unread().equals(OptionalLong.of(1)));
            InboxChange archived = onPhone.get(1);
            assertEquals(List.of(ReceiptKind.ARCHIVE, List.of(5L), "laptop-1"), List.of(archived.kind(), archived.seqs(),
                    archived.device().orElseThrow()));
            assertEquals(List.of("ib-4", "ib-3", "ib-2", "ib-1"), pageIds(phone.inbox().page().join()), "archived left out");
            InboxPage only = phone.inbox().page(null, 10, NotifyInbox.Archived.ONLY).join();
            assertEquals(List.of("ib-5"), pageIds(only));
            assertEquals(EventState.ARCHIVED, only.events().get(0).state());

            publish(user, List.of("ib-6")); // beyond the head the state was counted up to: unread on both
            Await.until("both estimates count ib-6", WAIT, () -> phone.unread().equals(OptionalLong.of(2))
                    && laptop.unread().equals(OptionalLong.of(2)));
            assertEquals(2, laptop.inbox().unreadCount().join().unread());
            assertTrue(phoneEvents.errors.isEmpty() && laptopEvents.errors.isEmpty(), phoneEvents.errors + " " + laptopEvents.errors);
            System.out.printf("NotifyClientIT inbox: a read mark on gw-b reached the laptop on gw-c %d ms after it was sent%n", toLaptopMs);
        }
    }
}
