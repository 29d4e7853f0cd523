package io.notify.registry;

import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;

/**
 * One connection of the registry to Redis, standalone or a Cluster, seen through the commands both
 * have ({@link RedisClusterAsyncCommands}: keys, strings, sorted sets, scripts). On a Cluster it is
 * Lettuce's advanced cluster connection: single-key commands go to the key's master, and the
 * multi-key commands the registry sends (the {@code MGET} of liveness keys) are split by slot by
 * Lettuce. Opened only by {@link RegistryRedis#connect()}.
 */
public final class RegistryConnection implements AutoCloseable {

    private final StatefulConnection<String, String> connection;
    private final RedisClusterAsyncCommands<String, String> async;
    private final StatefulRedisConnection<String, String> standalone;
    private volatile boolean closed;

    RegistryConnection(StatefulConnection<String, String> connection, RedisClusterAsyncCommands<String, String> async,
                       StatefulRedisConnection<String, String> standalone) {
        this.connection = connection;
        this.async = async;
        this.standalone = standalone;
    }

    public RedisClusterAsyncCommands<String, String> async() {
        return async;
    }

    /** Lettuce's connection: open state, flushing, state listeners. */
    public StatefulConnection<String, String> stateful() {
        return connection;
    }

    /** The connection to a standalone Redis (push messages, {@code CLIENT TRACKING}); null on a Cluster. */
    public StatefulRedisConnection<String, String> standalone() {
        return standalone;
    }

    /**
     * Standalone: whether the connection is up (false while Lettuce reconnects). Cluster: until
     * {@link #close()}: Lettuce's cluster connection reports the state of its default connection to
     * one node (the one for keyless commands such as PING), which says nothing about the masters that
     * the registry's keyed commands go to; a dead master fails or times out the commands of its slots.
     */
    public boolean isOpen() {
        return standalone != null ? connection.isOpen() : !closed;
    }

    /**
     * Auto-flush off (the caller flushes batches) on a standalone Redis. On a Cluster it stays on:
     * Lettuce opens a master's connection when the first command for it is routed, after a flush
     * may already have run, so a buffered command could wait for the next batch; commands are still
     * pipelined (none waits for the previous answer), only not coalesced into one socket write.
     */
    public void batchWrites() {
        if (standalone != null) {
            connection.setAutoFlushCommands(false);
        }
    }

    public void flushCommands() {
        connection.flushCommands();
    }

    @Override
    public void close() {
        closed = true;
        connection.close();
    }

    public void closeAsync() {
        closed = true;
        connection.closeAsync();
    }
}
