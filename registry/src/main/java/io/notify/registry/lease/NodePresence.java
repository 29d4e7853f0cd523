package io.notify.registry.lease;

import io.lettuce.core.KeyValue;
import io.lettuce.core.Range;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.notify.protocol.stream.Endpoints;
import io.notify.protocol.stream.StreamId;
import io.notify.registry.RegistryConnection;
import io.notify.registry.RegistryKeys;
import io.notify.registry.RegistryRedis;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Who is in which room, for presence (docs/protocol.md §8, "Presence"), kept in the registry: a
 * node writes {@code <userId>|<node>|<incarnation>} into {@code nf:presence:{r:<room>}} while one of
 * its connections of that user is subscribed to the room, with a lease it refreshes; any node reads a
 * room's members from there. No store beyond the registry's Redis.
 *
 * <p>Guarantees: joins and leaves are sent at once (never blocking the caller); the node's members are
 * written again every {@code lease / 3}, so Redis converges to the node's local truth within that
 * after an outage, a flush or a lost write; a member whose node died stops counting as soon as the
 * node's liveness key is gone (at most {@code alive-ttl}), and leaves Redis when its lease runs out.
 * A read filters by lease and liveness, as routing does, and answers each user once, in user-id order.
 * Cost of a read: the room's whole set (one {@code ZRANGEBYSCORE}) and its nodes' liveness keys (one
 * {@code MGET}, split by slot on a Redis Cluster); presence is opt-in per namespace for that reason.
 */
public final class NodePresence implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(NodePresence.class);

    /** One page of a room's members. */
    public record Page(int online, List<String> members, String next) {

        /** The page of {@code users} after {@code after} (exclusive; null: from the first), at most {@code limit}. */
        public static Page of(java.util.NavigableSet<String> users, String after, int limit) {
            List<String> page = new ArrayList<>(Math.min(limit, users.size()));
            for (String u : after == null ? users : users.tailSet(after, false)) {
                if (page.size() == limit) {
                    return new Page(users.size(), page, page.get(page.size() - 1));
                }
                page.add(u);
            }
            return new Page(users.size(), page, null);
        }
    }

    private final String nodeId;
    private final String incarnation;
    private final RegistryKeys keys;
    private final Clock clock;
    private final Duration lease;
    private final RegistryConnection connection;
    private final Map<StreamId, Set<String>> held = new ConcurrentHashMap<>();
    private final ScheduledExecutorService refresher;

    public NodePresence(String nodeId, String incarnation, RegistryKeys keys, RegistryRedis redis, Clock clock, Duration lease) {
        this.nodeId = Endpoints.requireNodeId(nodeId);
        this.incarnation = incarnation;
        this.keys = keys;
        this.clock = clock;
        this.lease = lease;
        this.connection = redis.connect();
        this.refresher = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "notify-presence-" + nodeId);
            t.setDaemon(true);
            return t;
        });
        long every = Math.max(1, lease.toMillis() / 3);
        refresher.scheduleWithFixedDelay(this::refresh, every, every, TimeUnit.MILLISECONDS);
    }

    private String member(String userId) {
        return userId + '|' + nodeId + '|' + incarnation;
    }

    /** {@code userId} has a subscriber of {@code room} on this node now. */
    public CompletionStage<Void> join(StreamId room, String userId) {
        // add under the room's entry lock, the one leave() takes: never into a set another user's last leave just removed
        held.compute(room, (r, users) -> {
            Set<String> in = users == null ? ConcurrentHashMap.newKeySet() : users;
            in.add(userId);
            return in;
        });
        String key = keys.presence(room);
        RedisClusterAsyncCommands<String, String> redis = connection.async();
        RedisFuture<Long> add = redis.zadd(key, clock.millis() + lease.toMillis(), member(userId));
        RedisFuture<Boolean> ttl = redis.pexpire(key, 2 * lease.toMillis());
        return CompletableFuture.allOf(add.toCompletableFuture(), ttl.toCompletableFuture());
    }

    /** {@code userId} has no subscriber of {@code room} on this node any more. */
    public CompletionStage<Void> leave(StreamId room, String userId) {
        held.computeIfPresent(room, (r, users) -> {
            users.remove(userId);
            return users.isEmpty() ? null : users;
        });
        return connection.async().zrem(keys.presence(room), member(userId)).toCompletableFuture().thenAccept(n -> { });
    }

    /**
     * The room's members after {@code after} (exclusive; null: from the first), at most {@code limit},
     * in user-id order, with the room's online count and the cursor of the next page (null: last page).
     */
    public CompletionStage<Page> read(StreamId room, String after, int limit) {
        long now = clock.millis();
        RedisClusterAsyncCommands<String, String> redis = connection.async();
        return redis.zrangebyscore(keys.presence(room), Range.create((double) now + 1, Double.POSITIVE_INFINITY))
                .toCompletableFuture().thenCompose(members -> {
                    Map<String, List<String[]>> byNode = new HashMap<>();
                    for (String m : members) {
                        String[] parts = m.split("\\|", -1);
                        if (parts.length == 3) {
                            byNode.computeIfAbsent(parts[1], n -> new ArrayList<>()).add(parts);
                        }
                    }
                    if (byNode.isEmpty()) {
                        return CompletableFuture.completedFuture(new Page(0, List.of(), null));
                    }
                    List<String> nodes = new ArrayList<>(byNode.keySet());
                    return redis.mget(nodes.stream().map(keys::alive).toArray(String[]::new)).toCompletableFuture()
                            .thenApply(alive -> page(byNode, nodes, alive, after, limit));
                });
    }

    private static Page page(Map<String, List<String[]>> byNode, List<String> nodes, List<KeyValue<String, String>> alive,
                             String after, int limit) {
        TreeSet<String> users = new TreeSet<>();
        for (int i = 0; i < nodes.size(); i++) {
            String incarnation = alive.get(i).getValueOrElse(null);
            for (String[] parts : byNode.get(nodes.get(i))) {
                if (parts[2].equals(incarnation)) {
                    users.add(parts[0]);
                }
            }
        }
        return Page.of(users, after, limit);
    }

    /** Writes every local member again with a fresh lease, pipelined (the lease's renewal and the convergence after an outage). */
    void refresh() {
        try {
            long expires = clock.millis() + lease.toMillis();
            RedisClusterAsyncCommands<String, String> redis = connection.async();
            held.forEach((room, users) -> {
                String key = keys.presence(room);
                for (String u : users) {
                    redis.zadd(key, expires, member(u));
                }
                redis.pexpire(key, 2 * lease.toMillis());
            });
        } catch (RuntimeException e) {
            LOG.warn("refreshing this node's presence failed; retrying in {} ms: {}", lease.toMillis() / 3, e.toString());
        }
    }

    /** Users of {@code room} this node holds (tests). */
    public Set<String> local(StreamId room) {
        return Set.copyOf(held.getOrDefault(room, Set.of()));
    }

    /** Stops refreshing and removes this node's members, best effort. */
    @Override
    public void close() {
        refresher.shutdownNow();
        try {
            RedisClusterAsyncCommands<String, String> redis = connection.async();
            List<CompletableFuture<Long>> removals = new ArrayList<>();
            held.forEach((room, users) -> users.forEach(u -> removals.add(redis.zrem(keys.presence(room), member(u)).toCompletableFuture())));
            CompletableFuture.allOf(removals.toArray(CompletableFuture[]::new)).get(2, TimeUnit.SECONDS);
        } catch (Exception e) {
            LOG.debug("removing this node's presence on close: {}", e.toString());
        } finally {
            held.clear();
            connection.close();
        }
    }
}
