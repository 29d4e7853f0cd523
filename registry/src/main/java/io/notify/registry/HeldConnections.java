package io.notify.registry;

import io.notify.schemas.stream.StreamId;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A node's connections by stream: the local truth that the registry in Redis is made to converge
 * to. Thread-safe; adding and removing are atomic per stream, and {@link #size()} is exact.
 */
final class HeldConnections {

    private final ConcurrentHashMap<StreamId, Set<String>> byStream = new ConcurrentHashMap<>();
    private final AtomicInteger size = new AtomicInteger();

    void add(StreamId stream, String connectionId) {
        byStream.compute(stream, (s, set) -> {
            Set<String> out = set == null ? ConcurrentHashMap.newKeySet() : set;
            if (out.add(connectionId)) {
                size.incrementAndGet();
            }
            return out;
        });
    }

    void remove(StreamId stream, String connectionId) {
        byStream.computeIfPresent(stream, (s, set) -> {
            if (set.remove(connectionId)) {
                size.decrementAndGet();
            }
            return set.isEmpty() ? null : set;
        });
    }

    boolean contains(StreamId stream, String connectionId) {
        Set<String> set = byStream.get(stream);
        return set != null && set.contains(connectionId);
    }

    /** A copy: stream → connection ids. */
    Map<StreamId, List<String>> snapshot() {
        Map<StreamId, List<String>> out = new HashMap<>();
        byStream.forEach((stream, set) -> {
            List<String> ids = List.copyOf(set);
            if (!ids.isEmpty()) {
                out.put(stream, ids);
            }
        });
        return out;
    }

    int size() {
        return size.get();
    }

    void clear() {
        byStream.clear();
        size.set(0);
    }

    /** Redis key → members of {@code byStream} (as from {@link #snapshot()}) for one node incarnation. */
    static Map<String, List<String>> membersByKey(Map<StreamId, List<String>> byStream, RegistryKeys keys,
                                                  String nodeId, String incarnation) {
        Map<String, List<String>> out = new HashMap<>(byStream.size() * 2);
        byStream.forEach((stream, ids) -> out.put(keys.connections(stream),
                ids.stream().map(id -> new ConnectionRef(nodeId, incarnation, id).member()).toList()));
        return out;
    }
}
