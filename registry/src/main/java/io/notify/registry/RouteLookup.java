package io.notify.registry;

import io.notify.protocol.stream.StreamId;
import java.time.Duration;

/**
 * The router's view of the connection registry. Implementations answer from a local cache kept
 * coherent by the registry (Redis client-side caching) when they can, and otherwise from Redis
 * within {@code timeout}; they never block longer than {@code timeout} and never throw: a registry
 * that cannot answer yields {@link Routes#unavailable()}.
 */
public interface RouteLookup extends AutoCloseable {

    Routes lookup(StreamId stream, Duration timeout);

    /**
     * A hint that {@code stream} will be looked up soon (its event was just polled): an
     * implementation may start reading it now, so the lookup finds it cached or in flight instead of
     * paying a round trip then. Never blocks, never throws; may do nothing.
     */
    default void prefetch(StreamId stream) {
    }

    /** Removes members the router found stale (asynchronously, best effort; failures are counted, not thrown). */
    void removeStale(StreamId stream, java.util.List<ConnectionRef> stale);

    @Override
    default void close() {
    }
}
