package io.notify.registry.lease;

import io.lettuce.core.RedisFuture;
import io.lettuce.core.ScoredValue;
import io.lettuce.core.ZAddArgs;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.notify.registry.RateLimitedLog;
import io.notify.registry.RegistryConnection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One node's bulk registry writes, pipelined on a connection of its own with auto-flush off:
 * commands are buffered and sent {@code batchCommands} at a time, and each flush is awaited before
 * the next is built, so at most {@code batchCommands} commands are in flight and 20k connections
 * cost ~40 flushes, not 40k round trips. Blocks the calling thread (the heartbeat thread, never a
 * Netty thread) for at most the given deadline. Not thread-safe: one caller at a time. On a Redis
 * Cluster auto-flush stays on ({@link RegistryConnection#batchWrites()}): the same bound and waits,
 * without the coalescing of a batch into one socket write.
 */
final class LeaseBatch {

    private final RegistryConnection connection;
    private final int batchCommands;
    private final Duration flushTimeout;
    private final Runnable betweenFlushes;
    private final List<RedisFuture<?>> inFlight = new ArrayList<>();
    private final List<RedisFuture<Long>> counted = new ArrayList<>();
    private long deadlineNanos;
    private long count;

    LeaseBatch(RegistryConnection connection, int batchCommands, Duration flushTimeout,
               Runnable betweenFlushes) {
        connection.batchWrites();
        this.connection = connection;
        this.batchCommands = batchCommands;
        this.flushTimeout = flushTimeout;
        this.betweenFlushes = betweenFlushes;
    }

    /**
     * {@code ZADD} every member with {@code score} ({@code XX CH} when {@code existingOnly}: renews
     * what is there, never resurrects a member removed meanwhile) and {@code PEXPIRE} each key.
     *
     * @return the sum of the ZADD replies: members renewed ({@code XX CH}) or members added
     */
    long upsert(Map<String, List<String>> membersByKey, long score, boolean existingOnly, long keyTtlMs, long deadlineNanos) {
        begin(deadlineNanos);
        RedisClusterAsyncCommands<String, String> redis = connection.async();
        ZAddArgs args = existingOnly ? ZAddArgs.Builder.xx().ch() : null;
        try {
            for (Map.Entry<String, List<String>> e : membersByKey.entrySet()) {
                @SuppressWarnings("unchecked")
                ScoredValue<String>[] scored = e.getValue().stream().map(m -> ScoredValue.just(score, m)).toArray(ScoredValue[]::new);
                add(args == null ? redis.zadd(e.getKey(), scored) : redis.zadd(e.getKey(), args, scored), true);
                add(redis.pexpire(e.getKey(), keyTtlMs), false);
            }
        } finally {
            flushAndAwait();
        }
        return count;
    }

    /**
     * {@code ZMSCORE} of every member: reads only, so no router's cached copy of a key is invalidated.
     *
     * @return the members Redis does not have, by key (empty when it has them all)
     */
    Map<String, List<String>> missing(Map<String, List<String>> membersByKey, long deadlineNanos) {
        begin(deadlineNanos);
        RedisClusterAsyncCommands<String, String> redis = connection.async();
        Map<String, RedisFuture<List<Double>>> scores = new LinkedHashMap<>();
        try {
            for (Map.Entry<String, List<String>> e : membersByKey.entrySet()) {
                RedisFuture<List<Double>> f = redis.zmscore(e.getKey(), e.getValue().toArray(String[]::new));
                scores.put(e.getKey(), f);
                add(f, false);
            }
        } finally {
            flushAndAwait();
        }
        Map<String, List<String>> missing = new LinkedHashMap<>();
        scores.forEach((key, f) -> {
            List<Double> found = f.toCompletableFuture().getNow(List.of());
            List<String> asked = membersByKey.get(key);
            for (int i = 0; i < asked.size(); i++) {
                if (i >= found.size() || found.get(i) == null) {
                    missing.computeIfAbsent(key, k -> new ArrayList<>()).add(asked.get(i));
                }
            }
        });
        return missing;
    }

    /** {@code DEL} of {@code deleteKeys}, then {@code ZREM} of the members; returns members removed. */
    long remove(Map<String, List<String>> membersByKey, List<String> deleteKeys, long deadlineNanos) {
        begin(deadlineNanos);
        RedisClusterAsyncCommands<String, String> redis = connection.async();
        try {
            if (!deleteKeys.isEmpty()) {
                add(redis.del(deleteKeys.toArray(String[]::new)), false);
            }
            for (Map.Entry<String, List<String>> e : membersByKey.entrySet()) {
                add(redis.zrem(e.getKey(), e.getValue().toArray(String[]::new)), true);
            }
        } finally {
            flushAndAwait();
        }
        return count;
    }

    private void begin(long deadline) {
        if (!connection.isOpen()) {
            throw new RegistryUnavailableException("registry batch: not connected to Redis");
        }
        this.deadlineNanos = deadline;
        this.count = 0;
        inFlight.clear();
        counted.clear();
    }

    @SuppressWarnings("unchecked")
    private void add(RedisFuture<?> future, boolean countIt) {
        inFlight.add(future);
        if (countIt) {
            counted.add((RedisFuture<Long>) future);
        }
        if (inFlight.size() >= batchCommands) {
            flushAndAwait();
            betweenFlushes.run();
        }
    }

    private void flushAndAwait() {
        connection.flushCommands();
        long flushDeadline = Math.min(deadlineNanos, System.nanoTime() + flushTimeout.toNanos());
        try {
            for (RedisFuture<?> f : inFlight) {
                await(f, "registry batch", Math.max(0, flushDeadline - System.nanoTime()));
            }
            for (RedisFuture<Long> f : counted) {
                Long n = f.toCompletableFuture().getNow(0L);
                count += n == null ? 0 : n;
            }
        } finally {
            inFlight.clear();
            counted.clear();
        }
    }

    /** Waits for one Redis reply; a timeout or failure becomes a {@link RegistryUnavailableException}. */
    static <T> T await(java.util.concurrent.Future<T> future, String what, long timeoutNanos) {
        try {
            return future.get(timeoutNanos, TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            throw new RegistryUnavailableException(what + ": no answer from Redis within "
                    + TimeUnit.NANOSECONDS.toMillis(timeoutNanos) + " ms");
        } catch (ExecutionException e) {
            throw new RegistryUnavailableException(what + " failed: " + RateLimitedLog.describe(e.getCause()), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RegistryUnavailableException(what + ": interrupted");
        }
    }
}
