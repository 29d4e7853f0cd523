package io.notify.gateway.session;

import java.util.Collection;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.stream.Stream;

/**
 * This node's open sessions, by connection id and by user. Lock-free reads for the delivery
 * thread; a session is findable from before it registers in the registry (so live events routed
 * to it are held, not lost) until it is closed. A user's sessions are an immutable list replaced
 * on each change (a user has a handful at most, bounded by the per-user limit), so a user with
 * one connection costs one map entry and a one-element list, not a set of its own.
 */
public final class SessionTable {

    private final ConcurrentMap<String, Session> byId = new ConcurrentHashMap<>();
    private final ConcurrentMap<String, List<Session>> byUser = new ConcurrentHashMap<>();

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

    public Collection<Session> all() {
        return byId.values();
    }

    public int size() {
        return byId.size();
    }
}
