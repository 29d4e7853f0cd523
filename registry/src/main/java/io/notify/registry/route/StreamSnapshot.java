package io.notify.registry.route;

import io.lettuce.core.ScoredValue;
import io.notify.registry.ConnectionRef;
import io.notify.registry.RouteFilter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * One stream's connection set as read from Redis ({@code ZRANGE .. WITHSCORES}): the parsed leases,
 * the members that are not {@code <node>|<incarnation>|<conn>} (kept aside, never routed, never
 * removed: they may be written by a newer version), and the nodes named. Immutable; what the router
 * caches per stream. Which of the leases are live is decided at lookup time by {@link RouteFilter}.
 */
record StreamSnapshot(List<RouteFilter.Lease> leases, List<String> unparseable, Set<String> nodes) {

    static final StreamSnapshot EMPTY = new StreamSnapshot(List.of(), List.of(), Set.of());

    StreamSnapshot {
        leases = List.copyOf(leases);
        unparseable = List.copyOf(unparseable);
        nodes = Collections.unmodifiableSet(new LinkedHashSet<>(nodes));
    }

    static StreamSnapshot of(List<ScoredValue<String>> members) {
        if (members.isEmpty()) {
            return EMPTY;
        }
        List<RouteFilter.Lease> leases = new ArrayList<>(members.size());
        List<String> unparseable = new ArrayList<>();
        Set<String> nodes = new LinkedHashSet<>();
        for (ScoredValue<String> scored : members) {
            String member = scored.getValue();
            long expiresAt = toMillis(scored.getScore());
            var ref = ConnectionRef.tryParse(member);
            if (ref.isEmpty()) {
                unparseable.add(member);
                continue;
            }
            leases.add(new RouteFilter.Lease(ref.get(), expiresAt));
            nodes.add(ref.get().nodeId());
        }
        return new StreamSnapshot(leases, unparseable, nodes);
    }

    /** The lease expiry this snapshot saw for the member, or -1 when it did not see it. */
    long scoreOf(ConnectionRef connection) {
        for (RouteFilter.Lease lease : leases) {
            if (lease.connection().equals(connection)) {
                return lease.expiresAtMs();
            }
        }
        return -1;
    }

    /** Scores are epoch ms written by gateways; anything odd (NaN, ±inf) is clamped, never thrown. */
    static long toMillis(double score) {
        if (Double.isNaN(score)) {
            return Long.MIN_VALUE;
        }
        return (long) score; // saturates at Long.MIN/MAX_VALUE for ±inf
    }
}
