package io.notify.registry.lease;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.codec.StringCodec;
import io.notify.registry.RateLimitedLog;
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
 * commands instead of one per command, and no Redis work on the threads that accept clients.
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

    private record Write(Function<RedisAsyncCommands<String, String>, List<RedisFuture<?>>> commands,
                         CompletableFuture<Void> done) {
    }

    private final RedisClient client;
    private final ConcurrentLinkedQueue<Write> queue = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean drainScheduled = new AtomicBoolean();
    private final ExecutorService thread;
    private volatile boolean replace;
    private StatefulRedisConnection<String, String> connection; // writer thread only

    RegistryWriter(RedisClient client, String nodeId) {
        this.client = client;
        this.thread = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "notify-registry-writer-" + nodeId);
            t.setDaemon(true);
            return t;
        });
    }

    CompletableFuture<Void> submit(Function<RedisAsyncCommands<String, String>, List<RedisFuture<?>>> commands) {
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
        StatefulRedisConnection<String, String> c;
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
        RedisAsyncCommands<String, String> async = c.async();
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

    private static void send(RedisAsyncCommands<String, String> async, Write w) {
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

    private StatefulRedisConnection<String, String> open() {
        if (replace && connection != null) {
            replace = false;
            connection.close();
            connection = null;
        }
        if (connection == null) {
            connection = client.connect(StringCodec.UTF8);
            connection.setAutoFlushCommands(false);
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
