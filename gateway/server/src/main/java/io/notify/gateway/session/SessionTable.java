package io.notify.gateway.session;

import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * This node's open sessions, by connection id and by user. Lock-free reads for the delivery
 * thread; a session is findable from before it registers in the registry (so live events routed
 * to it are held, not lost) until it is closed.
 */
public final class SessionTable {

    private final ConcurrentMap<String, Session> byId = new ConcurrentHashMap<>();
    private final ConcurrentMap<String, Set<Session>> byUser = new ConcurrentHashMap<>();

    public void add(Session session) {
        byId.put(session.id(), session);
        byUser.computeIfAbsent(session.userId(), u -> ConcurrentHashMap.newKeySet()).add(session);
    }

    public void remove(Session session) {
        byId.remove(session.id(), session);
        byUser.computeIfPresent(session.userId(), (u, set) -> {
            set.remove(session);
            return set.isEmpty() ? null : set;
        });
    }

    public Session byId(String connectionId) {
        return byId.get(connectionId);
    }

    public Collection<Session> ofUser(String userId) {
        Set<Session> set = byUser.get(userId);
        return set == null ? List.of() : set;
    }

    public Collection<Session> all() {
        return byId.values();
    }

    public int size() {
        return byId.size();
    }
}
