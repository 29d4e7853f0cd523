package io.notify.gateway.admission;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * Counts this node's open connections per user and refuses more than {@code maxPerUser}.
 * Guarantees: {@link #tryAcquire} and {@link #release} are atomic per user; every successful
 * acquire must be released exactly once (the session does it on close); the map holds only users
 * with at least one connection.
 */
public final class ConnectionLimiter {

    private final int maxPerUser;
    private final ConcurrentMap<String, Integer> open = new ConcurrentHashMap<>();

    public ConnectionLimiter(int maxPerUser) {
        this.maxPerUser = maxPerUser;
    }

    public boolean tryAcquire(String userId) {
        boolean[] ok = {false};
        open.compute(userId, (u, n) -> {
            int current = n == null ? 0 : n;
            if (current >= maxPerUser) {
                return n;
            }
            ok[0] = true;
            return current + 1;
        });
        return ok[0];
    }

    public void release(String userId) {
        open.computeIfPresent(userId, (u, n) -> n <= 1 ? null : n - 1);
    }

    public int openFor(String userId) {
        return open.getOrDefault(userId, 0);
    }
}
