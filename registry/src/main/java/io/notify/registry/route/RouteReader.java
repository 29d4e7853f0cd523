package io.notify.registry.route;

import io.lettuce.core.KeyValue;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.notify.registry.RegistryKeys;
import io.notify.registry.RouteFilter;
import io.notify.registry.Routes;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Reads what a lookup is missing from the tracked connection and fills the {@link TrackedCache}.
 *
 * <p>A cold stream costs one round trip: {@code ZRANGE key 0 -1 WITHSCORES} pipelined with
 * {@code MGET}+{@code PTTL} of the liveness keys of nodes seen before whose entries are not cached
 * (the fleet is small and every stream names the same few nodes; on a Redis Cluster Lettuce splits
 * the {@code MGET} by slot). Only a node never seen before
 * costs a second round trip. Every read puts its placeholders in the cache before it is sent and
 * installs through them, so an answer raced by an invalidation is used once and not cached. Never
 * blocks; futures complete on Lettuce's threads.
 */
final class RouteReader {

    /** What one read produced: the stream's set and the liveness of every node it names. */
    record Result(StreamSnapshot snapshot, Map<String, NodeAlive> alive) {

        /** Node → incarnation alive at {@code nowMs}; a reading whose known TTL ran out counts as absent. */
        Map<String, String> incarnations(long nowMs) {
            Map<String, String> incarnations = new HashMap<>();
            alive.forEach((node, a) -> {
                if (a.incarnation() != null && a.trustedAt(nowMs)) {
                    incarnations.put(node, a.incarnation());
                }
            });
            return incarnations;
        }

        Routes routes(long nowMs) {
            return RouteFilter.filter(snapshot.leases(), incarnations(nowMs), nowMs);
        }
    }

    private static final int MAX_SPECULATIVE_NODES = 32;
    private static final int MAX_KNOWN_NODES = 10_000;

    private final RegistryKeys keys;
    private final TrackedCache cache;
    private final Clock clock;
    private final AtomicLong roundTrips = new AtomicLong();
    private final Set<String> knownNodes = ConcurrentHashMap.newKeySet();

    RouteReader(RegistryKeys keys, TrackedCache cache, Clock clock) {
        this.keys = keys;
        this.cache = cache;
        this.clock = clock;
    }

    long roundTrips() {
        return roundTrips.get();
    }

    /**
     * Nodes of {@code nodes} whose liveness the cache can vouch for at {@code nowMs} go into
     * {@code alive}; returns the others.
     */
    Set<String> fromCache(Set<String> nodes, long nowMs, Map<String, NodeAlive> alive) {
        Set<String> missing = new LinkedHashSet<>();
        for (String node : nodes) {
            NodeAlive a = cache.get(keys.alive(node), NodeAlive.class);
            if (a != null && a.trustedAt(nowMs)) {
                alive.put(node, a);
            } else {
                missing.add(node);
            }
        }
        return missing;
    }

    /** Reads the stream's set unless {@code cached} is given, then any liveness still missing. */
    CompletableFuture<Result> read(RedisClusterAsyncCommands<String, String> redis, String streamKey, StreamSnapshot cached) {
        long now = clock.millis();
        Map<String, NodeAlive> alive = new HashMap<>();
        if (cached != null) {
            Set<String> missing = fromCache(cached.nodes(), now, alive);
            if (missing.isEmpty()) {
                return CompletableFuture.completedFuture(new Result(cached, alive));
            }
            roundTrips.incrementAndGet();
            return readAlive(redis, missing).thenApply(read -> {
                alive.putAll(read);
                return new Result(cached, alive);
            });
        }
        Set<String> speculative = new LinkedHashSet<>();
        for (String node : fromCache(knownNodes, now, new HashMap<>())) {
            if (speculative.size() == MAX_SPECULATIVE_NODES) {
                break;
            }
            speculative.add(node);
        }
        roundTrips.incrementAndGet();
        TrackedCache.Loading token = cache.beginLoad(streamKey);
        CompletableFuture<StreamSnapshot> set;
        try {
            set = redis.zrangeWithScores(streamKey, 0, -1).toCompletableFuture().thenApply(StreamSnapshot::of);
        } catch (RuntimeException e) {
            cache.abort(streamKey, token);
            throw e;
        }
        set.whenComplete((snapshot, failure) -> {
            if (failure == null) {
                cache.complete(streamKey, token, snapshot);
            } else {
                cache.abort(streamKey, token);
            }
        });
        CompletableFuture<Map<String, NodeAlive>> early = readAlive(redis, speculative);
        return set.thenCombine(early, (snapshot, read) -> {
            remember(snapshot.nodes());
            alive.putAll(read);
            return snapshot;
        }).thenCompose(snapshot -> {
            Set<String> notRead = new LinkedHashSet<>(snapshot.nodes());
            notRead.removeAll(alive.keySet());
            Set<String> missing = fromCache(notRead, clock.millis(), alive);
            if (missing.isEmpty()) {
                return CompletableFuture.completedFuture(new Result(snapshot, alive));
            }
            roundTrips.incrementAndGet();
            return readAlive(redis, missing).thenApply(read -> {
                alive.putAll(read);
                return new Result(snapshot, alive);
            });
        });
    }

    /** {@code MGET} of the nodes' liveness keys pipelined with a {@code PTTL} each; installs each result. */
    private CompletableFuture<Map<String, NodeAlive>> readAlive(RedisClusterAsyncCommands<String, String> redis, Set<String> nodes) {
        if (nodes.isEmpty()) {
            return CompletableFuture.completedFuture(Map.of());
        }
        List<String> nodeList = new ArrayList<>(nodes);
        String[] aliveKeys = new String[nodeList.size()];
        TrackedCache.Loading[] tokens = new TrackedCache.Loading[nodeList.size()];
        for (int i = 0; i < aliveKeys.length; i++) {
            aliveKeys[i] = keys.alive(nodeList.get(i));
            tokens[i] = cache.beginLoad(aliveKeys[i]);
        }
        CompletableFuture<Map<String, NodeAlive>> result;
        try {
            RedisFuture<List<KeyValue<String, String>>> values = redis.mget(aliveKeys);
            List<CompletableFuture<Long>> ttls = new ArrayList<>(aliveKeys.length);
            for (String key : aliveKeys) {
                ttls.add(redis.pttl(key).toCompletableFuture());
            }
            result = CompletableFuture.allOf(ttls.toArray(CompletableFuture[]::new))
                    .thenCombine(values, (ignored, kvs) -> {
                        long now = clock.millis();
                        Map<String, NodeAlive> out = new HashMap<>();
                        for (int i = 0; i < aliveKeys.length; i++) {
                            KeyValue<String, String> kv = kvs.get(i);
                            String value = kv.hasValue() ? kv.getValue() : null;
                            NodeAlive a = NodeAlive.read(value, ttls.get(i).join(), now);
                            out.put(nodeList.get(i), a);
                            cache.complete(aliveKeys[i], tokens[i], a);
                        }
                        return out;
                    });
        } catch (RuntimeException e) {
            result = CompletableFuture.failedFuture(e);
        }
        return result.whenComplete((ok, failure) -> {
            if (failure != null) {
                for (int i = 0; i < aliveKeys.length; i++) {
                    cache.abort(aliveKeys[i], tokens[i]);
                }
            }
        });
    }

    private void remember(Set<String> nodes) {
        if (knownNodes.size() > MAX_KNOWN_NODES) {
            knownNodes.clear(); // a bound, not a policy: nodes come back on their next read
        }
        knownNodes.addAll(nodes);
    }
}
