package io.notify.gateway.session;

import java.util.Collection;
import java.util.List;
import io.notify.schemas.stream.StreamId;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
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
     * Presence: counts {@code session}'s user in {@code room} on this node; runs {@code onFirst} (under
     * the entry's lock, as {@link #join}) when it is the user's first connection in the room here.
     */
    public void presenceJoin(StreamId room, String userId, Runnable onFirst) {
        present.compute(new Present(room, userId), (k, n) -> {
            if (n == null) {
                onFirst.run();
                return 1;
            }
            return n + 1;
        });
    }

    /** Presence: one connection of the user left the room here; runs {@code onLast} when it was the last. */
    public void presenceLeave(StreamId room, String userId, Runnable onLast) {
        present.computeIfPresent(new Present(room, userId), (k, n) -> {
            if (n > 1) {
                return n - 1;
            }
            onLast.run();
            return null;
        });
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
