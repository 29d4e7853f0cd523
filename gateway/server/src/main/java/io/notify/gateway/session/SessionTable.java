package io.notify.gateway.session;

import io.notify.protocol.stream.StreamId;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

/**
 * This node's open sessions, by connection id, by user, and by room or broadcast stream they
 * subscribed to. Lock-free reads for the delivery
 * thread; a session is findable from before it registers in the registry (so live events routed
 * to it are held, not lost) until it is closed. A user's sessions are an immutable list replaced
 * on each change (a user has a handful at most, bounded by the per-user limit), so a user with
 * one connection costs one map entry and a one-element list, not a set of its own. A room's
 * subscribers are a concurrent set (a room may have 100,000 of them on one node), created with the
 * first and dropped with the last.
 */
public final class SessionTable {

    private final ConcurrentMap<String, Session> byId = new ConcurrentHashMap<>();
    private final ConcurrentMap<String, List<Session>> byUser = new ConcurrentHashMap<>();
    private final ConcurrentMap<StreamId, Set<Session>> byRoom = new ConcurrentHashMap<>();
    private final AtomicInteger subscriptions = new AtomicInteger();
    private final ConcurrentMap<Present, Integer> present = new ConcurrentHashMap<>(); // presence rooms only
    private final ConcurrentMap<Present, PendingLeave> leaving = new ConcurrentHashMap<>();

    public void add(Session session) {
        byId.put(session.id(), session);
        byUser.merge(session.userId(), List.of(session), (list, one) -> Stream.concat(list.stream(), one.stream()).toList());
    }

    public void remove(Session session) {
        byId.remove(session.id(), session);
        byUser.computeIfPresent(session.userId(), (u, list) -> {
            List<Session> rest = list.stream().filter(s -> s != session).toList();
            return rest.isEmpty() ? null : rest;
        });
    }

    public Session byId(String connectionId) {
        return byId.get(connectionId);
    }

    public Collection<Session> ofUser(String userId) {
        List<Session> list = byUser.get(userId);
        return list == null ? List.of() : list;
    }

    /**
     * Adds {@code session} to the subscribers of {@code stream} (a room or b:all); when it is the
     * node's first, runs {@code onFirst} while no other join or leave of that stream can interleave,
     * so the registry writes of one stream (register on first, unregister on last) go out in the
     * order the table changed. {@code onFirst} must not block. Adding twice is a no-op.
     */
    public void join(StreamId stream, Session session, Runnable onFirst) {
        byRoom.compute(stream, (k, set) -> {
            Set<Session> subscribers = set;
            if (subscribers == null) {
                subscribers = ConcurrentHashMap.newKeySet();
                onFirst.run();
            }
            if (subscribers.add(session)) {
                subscriptions.incrementAndGet();
            }
            return subscribers;
        });
    }

    /** Removes {@code session} from the subscribers of {@code stream}; runs {@code onLast} when none is left (as {@link #join}). */
    public void leave(StreamId stream, Session session, Runnable onLast) {
        byRoom.computeIfPresent(stream, (k, set) -> {
            if (set.remove(session)) {
                subscriptions.decrementAndGet();
            }
            if (set.isEmpty()) {
                onLast.run();
                return null;
            }
            return set;
        });
    }

    /**
     * Presence: counts the user's connections in {@code room} on this node. At the user's first here,
     * runs {@code onFirst} (under the entry's lock, as {@link #join}) — unless the user's last one left
     * less than the linger ago: then that leave is cancelled instead, nothing is announced (the user
     * never looked gone) and {@code onRejoin} runs.
     */
    public void presenceJoin(StreamId room, String userId, Runnable onFirst, Runnable onRejoin) {
        Present key = new Present(room, userId);
        present.compute(key, (k, n) -> {
            if (n != null) {
                return n + 1;
            }
            PendingLeave pending = leaving.remove(k);
            if (pending != null) {
                ScheduledFuture<?> due = pending.due;
                if (due != null) {
                    due.cancel(false); // if it runs anyway, it finds itself gone from leaving and does nothing
                }
                onRejoin.run();
            } else {
                onFirst.run();
            }
            return 1;
        });
    }

    /**
     * Presence: one connection of the user left the room here. When it was the last, {@code onLast}
     * runs once the user has stayed away for {@code linger} (at once when it is zero), under the
     * entry's lock, so it never overtakes a join; a join within the linger cancels it. So one user
     * toggling a subscription announces at most one join and one leave per linger per room and node.
     */
    public void presenceLeave(StreamId room, String userId, Duration linger, ScheduledExecutorService timer, Runnable onLast) {
        Present key = new Present(room, userId);
        present.computeIfPresent(key, (k, n) -> {
            if (n > 1) {
                return n - 1;
            }
            if (linger.isZero()) {
                onLast.run();
                return null;
            }
            PendingLeave pending = new PendingLeave();
            leaving.put(k, pending);
            pending.due = timer.schedule(() -> present.compute(k, (k2, m) -> {
                if (m == null && leaving.remove(k2, pending)) { // by identity: not cancelled by a join since
                    onLast.run();
                }
                return m;
            }), linger.toMillis(), TimeUnit.MILLISECONDS);
            return null;
        });
    }

    /** Presence leaves waiting out their linger (tests, metrics). */
    public int pendingPresenceLeaves() {
        return leaving.size();
    }

    /** A last leave waiting out its linger (compared by identity); {@code due} its timer, to cancel. */
    private static final class PendingLeave {
        volatile ScheduledFuture<?> due;
    }

    private record Present(StreamId room, String userId) {
    }

    /** The sessions subscribed to a room or b:all (a live view). */
    public Collection<Session> subscribers(StreamId stream) {
        Set<Session> set = byRoom.get(stream);
        return set == null ? List.of() : set;
    }

    /** Rooms (and b:all) with at least one local subscriber. */
    public int rooms() {
        return byRoom.size();
    }

    /** Subscriptions held by this node's sessions, all rooms together. */
    public int subscriptions() {
        return subscriptions.get();
    }

    public Collection<Session> all() {
        return byId.values();
    }

    public int size() {
        return byId.size();
    }
}
