package io.notify.registry.route;

import io.notify.protocol.stream.StreamId;
import io.notify.registry.ConnectionRef;
import io.notify.registry.RouteFilter;
import io.notify.registry.RouteLookup;
import io.notify.registry.Routes;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The router's {@link RouteLookup} held in memory, for tests of the router (the
 * {@code MockProducer} of the registry; the gateway's double is its {@code InMemoryRegistrar}): same
 * member format, same lease and liveness rule ({@link RouteFilter}), no Redis. Thread-safe;
 * {@link #unavailable(boolean)} simulates a registry that cannot answer.
 */
public final class InMemoryRouteLookup implements RouteLookup {

    private final Clock clock;
    private final Map<StreamId, Map<ConnectionRef, Long>> connections = new HashMap<>();
    private final Map<String, String> alive = new HashMap<>();
    private final List<ConnectionRef> removed = new ArrayList<>();
    private boolean unavailable;

    public InMemoryRouteLookup(Clock clock) {
        this.clock = clock;
    }

    public synchronized void register(StreamId stream, ConnectionRef connection, Duration lease) {
        connections.computeIfAbsent(stream, s -> new LinkedHashMap<>())
                .put(connection, clock.millis() + lease.toMillis());
    }

    public synchronized void unregister(StreamId stream, ConnectionRef connection) {
        Map<ConnectionRef, Long> set = connections.get(stream);
        if (set != null) {
            set.remove(connection);
        }
    }

    public synchronized void setAlive(String nodeId, String incarnation) {
        alive.put(nodeId, incarnation);
    }

    public synchronized void setDead(String nodeId) {
        alive.remove(nodeId);
    }

    public synchronized void unavailable(boolean value) {
        this.unavailable = value;
    }

    /** Members removed through {@link #removeStale}, in order. */
    public synchronized List<ConnectionRef> removed() {
        return List.copyOf(removed);
    }

    public synchronized List<ConnectionRef> members(StreamId stream) {
        return List.copyOf(connections.getOrDefault(stream, Map.of()).keySet());
    }

    @Override
    public synchronized Routes lookup(StreamId stream, Duration timeout) {
        if (unavailable) {
            return Routes.unavailable();
        }
        List<RouteFilter.Lease> leases = new ArrayList<>();
        connections.getOrDefault(stream, Map.of()).forEach((c, exp) -> leases.add(new RouteFilter.Lease(c, exp)));
        return RouteFilter.filter(leases, alive, clock.millis());
    }

    @Override
    public synchronized void removeStale(StreamId stream, List<ConnectionRef> stale) {
        Map<ConnectionRef, Long> set = connections.get(stream);
        for (ConnectionRef c : stale) {
            if (set != null && set.remove(c) != null) {
                removed.add(c);
            }
        }
    }
}
