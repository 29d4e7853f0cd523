package io.notify.registry;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The routing rule of docs/architecture.md ("The registry: one rule, two sides") as a pure function: a member is live when its lease has
 * not expired and its node's liveness key exists and names the member's incarnation; everything
 * else is stale. Used by every {@link RouteLookup} so the rule exists once.
 */
public final class RouteFilter {

    /** A registry member with its lease expiry (the sorted-set score). */
    public record Lease(ConnectionRef connection, long expiresAtMs) {
    }

    private RouteFilter() {
    }

    /**
     * @param aliveIncarnations node id → incarnation currently alive (absent: node key missing)
     * @param unparseable members that are not {@code node|incarnation|conn} are reported by the caller
     */
    public static Routes filter(List<Lease> leases, Map<String, String> aliveIncarnations, long nowMs) {
        List<ConnectionRef> live = new ArrayList<>();
        List<ConnectionRef> stale = new ArrayList<>();
        for (Lease l : leases) {
            String alive = aliveIncarnations.get(l.connection().nodeId());
            boolean ok = l.expiresAtMs() > nowMs && l.connection().incarnation().equals(alive);
            (ok ? live : stale).add(l.connection());
        }
        return Routes.of(live, stale);
    }
}
