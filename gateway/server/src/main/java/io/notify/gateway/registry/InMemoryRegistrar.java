package io.notify.gateway.registry;

import io.notify.protocol.stream.StreamId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A {@link Registrar} in memory, for tests: records every call, can be made to fail. Thread-safe.
 */
public final class InMemoryRegistrar implements Registrar {

    private final String incarnation = UUID.randomUUID().toString().replace("-", "").substring(0, 16);
    private final Map<StreamId, Set<String>> registered = new ConcurrentHashMap<>();
    private final Map<StreamId, Set<String>> present = new ConcurrentHashMap<>();
    private final List<String> log = java.util.Collections.synchronizedList(new ArrayList<>());
    private volatile boolean failing;
    private volatile boolean started;

    @Override
    public String incarnation() {
        return incarnation;
    }

    @Override
    public void start() {
        started = true;
    }

    @Override
    public CompletionStage<Void> register(StreamId stream, String connectionId) {
        return change("register", registered, stream, connectionId, true);
    }

    @Override
    public CompletionStage<Void> unregister(StreamId stream, String connectionId) {
        return change("unregister", registered, stream, connectionId, false);
    }

    @Override
    public CompletionStage<Void> presenceJoin(StreamId room, String userId) {
        return change("presence-join", present, room, userId, true);
    }

    @Override
    public CompletionStage<Void> presenceLeave(StreamId room, String userId) {
        return change("presence-leave", present, room, userId, false);
    }

    /** Logs the call, applies it to {@code map}, and fails it while {@link #failing(boolean)} is on. */
    private CompletionStage<Void> change(String op, Map<StreamId, Set<String>> map, StreamId stream, String id, boolean add) {
        log.add(op + " " + stream + " " + id);
        if (add) {
            map.computeIfAbsent(stream, s -> ConcurrentHashMap.newKeySet()).add(id);
        } else {
            Set<String> set = map.get(stream);
            if (set != null) {
                set.remove(id);
            }
        }
        return failing ? CompletableFuture.failedFuture(new IllegalStateException("registry down")) : CompletableFuture.completedFuture(null);
    }

    /** The same paging as the Redis registrar, over this registrar's own members. */
    @Override
    public CompletionStage<io.notify.registry.lease.NodePresence.Page> presence(StreamId room, String after, int limit) {
        if (failing) {
            return CompletableFuture.failedFuture(new IllegalStateException("registry down"));
        }
        return CompletableFuture.completedFuture(io.notify.registry.lease.NodePresence.Page.of(
                new java.util.TreeSet<>(present.getOrDefault(room, Set.of())), after, limit));
    }

    @Override
    public void stop() {
        started = false;
        registered.clear();
    }

    public boolean started() {
        return started;
    }

    public void failing(boolean value) {
        failing = value;
    }

    /** Connection ids registered for {@code stream} right now. */
    public Set<String> connections(StreamId stream) {
        return Set.copyOf(registered.getOrDefault(stream, Set.of()));
    }

    /** Every call, in order ("register u:42 c1", "unregister u:42 c1"). */
    public List<String> calls() {
        synchronized (log) {
            return List.copyOf(log);
        }
    }
}
