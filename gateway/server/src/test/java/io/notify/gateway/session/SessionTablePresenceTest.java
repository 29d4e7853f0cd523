package io.notify.gateway.session;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.notify.devstack.Await;
import io.notify.protocol.stream.StreamId;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Presence announcements of one node are bounded per user and room: a return within the linger announces nothing. */
class SessionTablePresenceTest {

    private static final StreamId ROOM = StreamId.forRoom("team-1");
    private static final Duration LONG = Duration.ofMinutes(1); // never runs out within a test

    private final SessionTable table = new SessionTable();
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
    private final AtomicInteger joins = new AtomicInteger();
    private final AtomicInteger leaves = new AtomicInteger();
    private final AtomicInteger coalesced = new AtomicInteger();

    @AfterEach
    void stop() {
        timer.shutdownNow();
    }

    private void join(String user) {
        table.presenceJoin(ROOM, user, joins::incrementAndGet, coalesced::incrementAndGet);
    }

    private void leave(String user, Duration linger) {
        table.presenceLeave(ROOM, user, linger, timer, leaves::incrementAndGet);
    }

    @Test
    void aUserTogglingASubscriptionAnnouncesOneJoinAndNoLeaveWithinTheLinger() {
        join("alice");
        for (int i = 0; i < 1_000; i++) {
            leave("alice", LONG);
            join("alice");
        }
        assertEquals(1, joins.get(), "only the first join is announced");
        assertEquals(0, leaves.get());
        assertEquals(1_000, coalesced.get(), "every leave-and-return is counted");
        assertEquals(0, table.pendingPresenceLeaves(), "each return cancelled its leave");
        leave("alice", LONG);
        assertEquals(1, table.pendingPresenceLeaves(), "the last leave waits out the linger");
    }

    @Test
    void aLastLeaveIsAnnouncedOnceTheLingerHasPassed_andAConnectionThatStaysKeepsTheUserIn() {
        join("bob");
        join("bob"); // a second device
        leave("bob", Duration.ofMillis(50));
        assertEquals(0, table.pendingPresenceLeaves(), "bob is still in the room on his other device");
        leave("bob", Duration.ofMillis(50));
        Await.until("bob's leave announced after the linger", Duration.ofSeconds(5), () -> leaves.get() == 1);
        assertEquals(0, table.pendingPresenceLeaves());
        join("bob");
        assertEquals(2, joins.get(), "a return after the linger is a new join");
        assertEquals(0, coalesced.get());
    }

    @Test
    void withoutALingerEveryLastLeaveIsAnnouncedAtOnce() {
        join("carol");
        leave("carol", Duration.ZERO);
        assertEquals(1, leaves.get());
        join("carol");
        assertEquals(2, joins.get());
    }
}
