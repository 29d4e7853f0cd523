package io.notify.registry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.notify.protocol.stream.StreamId;
import io.notify.registry.lease.NodePresence;
import io.notify.registry.lease.NodeRegistry;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Presence kept in the registry (NodePresence) against the real Redis: several nodes, a dead one, a lost write. */
class PresenceIT extends SharedRedisIT {

    static final StreamId ROOM = StreamId.forRoom("team-1");
    static final Duration WAIT = Duration.ofSeconds(10);

    private static NodePresence.Page read(NodePresence p, String after, int limit) throws Exception {
        return p.read(ROOM, after, limit).toCompletableFuture().get(5, TimeUnit.SECONDS);
    }

    @Test
    void membersOfEveryLiveNodeCountOnceInOrderAndADeadNodesStopCounting() throws Exception {
        NodeRegistry a = t.started("p-a", RegistryTesting.FAST);
        NodeRegistry b = t.started("p-b", RegistryTesting.FAST);
        NodePresence pa = t.presence(a, Duration.ofSeconds(60));
        NodePresence pb = t.presence(b, Duration.ofSeconds(60));
        pa.join(ROOM, "carol").toCompletableFuture().get(5, TimeUnit.SECONDS);
        pa.join(ROOM, "alice").toCompletableFuture().get(5, TimeUnit.SECONDS);
        pb.join(ROOM, "bob").toCompletableFuture().get(5, TimeUnit.SECONDS);
        pb.join(ROOM, "alice").toCompletableFuture().get(5, TimeUnit.SECONDS); // her second device, on the other node

        NodePresence.Page all = read(pb, null, 10);
        assertEquals(3, all.online());
        assertEquals(List.of("alice", "bob", "carol"), all.members());
        assertNull(all.next());
        NodePresence.Page first = read(pa, null, 2);
        assertEquals(List.of("alice", "bob"), first.members());
        assertEquals("bob", first.next());
        assertEquals(List.of("carol"), read(pa, first.next(), 2).members());

        pa.leave(ROOM, "carol").toCompletableFuture().get(5, TimeUnit.SECONDS);
        assertEquals(List.of("alice", "bob"), read(pb, null, 10).members());

        // b dies: its liveness key goes (as after alive-ttl), and its members stop counting at once, before their lease runs out
        t.raw().del(t.keys.alive("p-b"));
        b.close();
        assertEquals(List.of("alice"), read(pa, null, 10).members(), "bob was only on the dead node; alice is still on p-a");
    }

    @Test
    void aNodesMembersLostInRedisAreWrittenAgainByItsRefresh() throws Exception {
        NodeRegistry a = t.started("p-c", RegistryTesting.FAST);
        NodePresence pa = t.presence(a, Duration.ofMillis(900)); // refreshed every 300 ms
        pa.join(ROOM, "dave").toCompletableFuture().get(5, TimeUnit.SECONDS);
        t.raw().del(t.keys.presence(ROOM)); // a lost write, a flush, a failover
        RegistryTesting.await(WAIT, "dave written again", () -> t.raw().zcard(t.keys.presence(ROOM)) == 1);
        assertEquals(List.of("dave"), read(pa, null, 10).members());
        RegistryTesting.await(WAIT, "the lease kept fresh past its first expiry", () -> {
            try {
                return t.raw().zscore(t.keys.presence(ROOM), "dave|p-c|" + a.incarnation()) > System.currentTimeMillis() + 300;
            } catch (RuntimeException e) {
                return false;
            }
        });
    }

    @Test
    void aJoinRacingAnotherUsersLastLeaveIsNeverLost() throws Exception {
        NodeRegistry a = t.started("p-d", RegistryTesting.FAST);
        NodePresence p = t.presence(a, Duration.ofSeconds(60));
        StreamId room = StreamId.forRoom("race-1");
        // "b" toggles alone; "a" joins while b's leave may be emptying the room's set: a must always be held after its join
        java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
        Thread toggler = new Thread(() -> {
            for (int i = 1; !stop.get(); i++) {
                p.join(room, "b");
                var left = p.leave(room, "b");
                if (i % 200 == 0) {
                    left.toCompletableFuture().join(); // keep Redis's backlog short: the race is in the local set
                }
            }
        });
        toggler.start();
        int lost = 0;
        try {
            for (int i = 0; i < 30_000 && lost == 0; i++) {
                p.join(room, "a");
                if (!p.local(room).contains("a")) {
                    lost = i + 1;
                }
                var left = p.leave(room, "a");
                if (i % 200 == 0) {
                    left.toCompletableFuture().join();
                }
            }
        } finally {
            stop.set(true);
            toggler.join();
        }
        assertEquals(0, lost, "join " + lost + " was lost: it added to a set another user's leave had just removed");
    }
}
