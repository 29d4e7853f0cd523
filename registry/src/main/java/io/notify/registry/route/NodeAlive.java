package io.notify.registry.route;

/**
 * A node's liveness key as read by the router: the incarnation it names (null: no key) and until
 * when, on the router's clock, that reading may be trusted. The key's remaining TTL is read with it
 * ({@code PTTL}), because Redis reports an expired key (and so invalidates caches) only when it gets
 * round to expiring it, which on a large instance can lag; past {@code trustedUntilMs} the router
 * reads the key again instead of routing to a node that stopped heartbeating.
 */
record NodeAlive(String incarnation, long trustedUntilMs) {

    /**
     * @param value  the key's value (null when missing)
     * @param pttlMs {@code PTTL}: -2 missing, -1 no expiry, otherwise ms left
     */
    static NodeAlive read(String value, long pttlMs, long nowMs) {
        if (value == null || pttlMs == -2) {
            return new NodeAlive(null, Long.MAX_VALUE); // absent stays absent until a SET invalidates it
        }
        if (pttlMs < 0) {
            return new NodeAlive(value, Long.MAX_VALUE);
        }
        return new NodeAlive(value, nowMs + pttlMs);
    }

    boolean trustedAt(long nowMs) {
        return nowMs < trustedUntilMs;
    }
}
