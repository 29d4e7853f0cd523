package io.notify.registry.lease;

import io.lettuce.core.RedisFuture;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.notify.registry.RateLimitedLog;
import io.notify.registry.RegistryConnection;
import io.notify.registry.RegistryRedis;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;

/**
 * A node's register/unregister writes, pipelined: callers (the gateway's I/O threads) only enqueue;
 * one writer thread sends everything that waits as one flush on a connection of its own, with
 * Lettuce's auto-flush off. Under a connection storm that is one socket write per batch of
 * commands instead of one per command (on a Redis Cluster, pipelined without that coalescing:
 * {@link RegistryConnection#batchWrites()}), and no Redis work on the threads that accept clients.
 *
 * <p>The queue is bounded by the caller: {@link NodeRegistry} takes one of its
 * {@code maxOutstandingWrites} permits before it submits a write and gives it back when the write
 * completes, so at most that many writes wait here or in flight.
 *
 * <p>Each write's future completes when Redis answered all its commands, or exceptionally when a
 * command failed, the connection was not open, or the writer is closed; timeouts are the caller's.
 * The connection is opened lazily on the writer thread and replaced after {@link #replaceConnection}.
 */
final class RegistryWriter implements AutoCloseable {

    /** Commands per flush while draining a long queue, so the first answers do not wait for the last. */
    private static final int FLUSH_EVERY = 256;

    private record Write(Function<RedisClusterAsyncCommands<String, String>, List<RedisFuture<?>>> commands,
                         CompletableFuture<Void> done) {
    }

    private final RegistryRedis redis;
    private final ConcurrentLinkedQueue<Write> queue = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean drainScheduled = new AtomicBoolean();
    private final ExecutorService thread;
    private volatile boolean replace;
    private RegistryConnection connection; // writer thread only

    RegistryWriter(RegistryRedis redis, String nodeId) {
        this.redis = redis;
        this.thread = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "notify-registry-writer-" + nodeId);
            t.setDaemon(true);
            return t;
        });
    }

    CompletableFuture<Void> submit(Function<RedisClusterAsyncCommands<String, String>, List<RedisFuture<?>>> commands) {
        Write w = new Write(commands, new CompletableFuture<>());
        queue.add(w);
        if (drainScheduled.compareAndSet(false, true)) {
            try {
                thread.execute(this::drain);
            } catch (RejectedExecutionException e) {
                failQueued(new RegistryUnavailableException("registry writer stopped"));
            }
        }
        return w.done;
    }

    /** The connection looks silent (writes time out): the next batch opens a new one. */
    void replaceConnection() {
        replace = true;
    }

    private void drain() {
        drainScheduled.set(false);
        RegistryConnection c;
        try {
            c = open();
        } catch (RuntimeException e) {
            failQueued(new RegistryUnavailableException("cannot connect: " + RateLimitedLog.describe(e), e));
            return;
        }
        if (!c.isOpen()) {
            failQueued(new RegistryUnavailableException("connection lost"));
            return;
        }
        RedisClusterAsyncCommands<String, String> async = c.async();
        int sent = 0;
        Write w;
        while ((w = queue.poll()) != null) {
            send(async, w);
            if (++sent % FLUSH_EVERY == 0) {
                c.flushCommands();
            }
        }
        c.flushCommands();
    }

    private static void send(RedisClusterAsyncCommands<String, String> async, Write w) {
        try {
            CompletableFuture<?>[] each = w.commands.apply(async).stream()
                    .map(RedisFuture::toCompletableFuture).toArray(CompletableFuture[]::new);
            CompletableFuture.allOf(each).whenComplete((ok, failure) -> {
                if (failure == null) {
                    w.done.complete(null);
                } else {
                    w.done.completeExceptionally(failure);
                }
            });
        } catch (RuntimeException e) {
            w.done.completeExceptionally(e);
        }
    }

    private RegistryConnection open() {
        if (replace && connection != null) {
            replace = false;
            connection.close();
            connection = null;
        }
        if (connection == null) {
            connection = redis.connect();
            connection.batchWrites();
        }
        return connection;
    }

    private void failQueued(RegistryUnavailableException e) {
        Write w;
        while ((w = queue.poll()) != null) {
            w.done.completeExceptionally(e);
        }
    }

    @Override
    public void close() {
        try {
            thread.submit(() -> {
                failQueued(new RegistryUnavailableException("registry writer stopped"));
                if (connection != null) {
                    connection.close();
                    connection = null;
                }
            }).get();
        } catch (Exception e) {
            // shut down already (a second close) or interrupted: nothing left to release
        }
        thread.shutdown();
    }
}
