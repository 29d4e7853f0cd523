package io.notify.registry.lease;

import io.notify.protocol.stream.StreamId;
import io.notify.registry.ConnectionRef;
import io.notify.registry.RegistryKeys;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

/**
 * A node's connections by stream: the local truth that the registry in Redis is made to converge
 * to. Thread-safe; adding and removing are atomic per stream, and {@link #size()} is exact.
 * A stream's ids are an immutable list replaced on each change (a stream has a handful of
 * connections per node), so a stream with one connection costs one entry and a one-element list.
 */
final class HeldConnections {

    private final ConcurrentHashMap<StreamId, List<String>> byStream = new ConcurrentHashMap<>();
    private final AtomicInteger size = new AtomicInteger();

    void add(StreamId stream, String connectionId) {
        byStream.compute(stream, (s, ids) -> {
            if (ids != null && ids.contains(connectionId)) {
                return ids;
            }
            size.incrementAndGet();
            return ids == null ? List.of(connectionId) : Stream.concat(ids.stream(), Stream.of(connectionId)).toList();
        });
    }

    void remove(StreamId stream, String connectionId) {
        byStream.computeIfPresent(stream, (s, ids) -> {
            if (!ids.contains(connectionId)) {
                return ids;
            }
            size.decrementAndGet();
            List<String> rest = ids.stream().filter(id -> !id.equals(connectionId)).toList();
            return rest.isEmpty() ? null : rest;
        });
    }

    boolean contains(StreamId stream, String connectionId) {
        List<String> ids = byStream.get(stream);
        return ids != null && ids.contains(connectionId);
    }

    /** A copy: stream → connection ids (the lists are immutable, so they are shared, not copied). */
    Map<StreamId, List<String>> snapshot() {
        return new HashMap<>(byStream);
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
