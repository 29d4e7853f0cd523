package io.notify.registry.route;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.LongConsumer;

/**
 * The router's local copy of registry keys, kept coherent by Redis invalidation messages.
 *
 * <p>Guarantees:
 * <ul>
 *   <li>at most {@code maxEntries} keys (least recently used evicted first, each eviction reported);</li>
 *   <li>a value read from Redis is installed only if nothing can have changed it unseen: a read
 *       first puts a {@link Loading} placeholder, an invalidation of the key (or of everything)
 *       removes it, and {@link #complete} installs the value only if its own placeholder is still
 *       there and the tracking epoch is unchanged. So a reply that raced an invalidation, or that
 *       was read before tracking was (re)enabled, is returned to its caller but never cached;</li>
 *   <li>while tracking is off ({@link #trackingOff()}), the cache is empty and installs nothing.</li>
 * </ul>
 * One lock; every operation is O(1) and never calls out while holding it.
 */
final class TrackedCache {

    /** Placeholder of one read in flight; identity matters, not contents. */
    static final class Loading {
        private final long epoch;

        private Loading(long epoch) {
            this.epoch = epoch;
        }
    }

    private final int maxEntries;
    private final LongConsumer onEvictions;
    private final LinkedHashMap<String, Object> entries;
    private long epoch;
    private boolean tracking;

    /** @param onEvictions told how many entries the size bound evicted (on the thread that inserted) */
    TrackedCache(int maxEntries, LongConsumer onEvictions) {
        if (maxEntries < 1) {
            throw new IllegalArgumentException("cache maxEntries must be >= 1, was " + maxEntries);
        }
        this.maxEntries = maxEntries;
        this.onEvictions = onEvictions;
        this.entries = new LinkedHashMap<>(Math.min(maxEntries, 1 << 16), 0.75f, true);
    }

    /** The cached value of {@code key} if it is a {@code type}; null when absent or still loading. */
    <T> T get(String key, Class<T> type) {
        Object value;
        synchronized (this) {
            value = entries.get(key);
        }
        return type.isInstance(value) ? type.cast(value) : null;
    }

    /** Marks a read of {@code key} as started; call before sending the read to Redis. */
    Loading beginLoad(String key) {
        boolean evicted;
        Loading token;
        synchronized (this) {
            token = new Loading(epoch);
            if (!tracking) {
                return token; // not in the map: complete() will refuse it
            }
            entries.put(key, token);
            evicted = evictOverflow();
        }
        if (evicted) {
            onEvictions.accept(1);
        }
        return token;
    }

    /** Installs {@code value} read under {@code token}; false when it may be stale and was dropped. */
    boolean complete(String key, Loading token, Object value) {
        synchronized (this) {
            if (!tracking || token.epoch != epoch || entries.get(key) != token) {
                return false;
            }
            entries.put(key, value);
            return true;
        }
    }

    /** Forgets a failed read: a failure never leaves anything cached. */
    synchronized void abort(String key, Loading token) {
        if (entries.get(key) == token) {
            entries.remove(key);
        }
    }

    /** Redis said {@code key} changed (or its tracking slot was reclaimed). */
    synchronized void invalidate(String key) {
        entries.remove(key);
    }

    /** Redis said everything may have changed (FLUSHALL / FLUSHDB: {@code invalidate} with null). */
    synchronized void invalidateAll() {
        entries.clear();
        epoch++;
    }

    /** The tracked connection was lost or may have missed messages: drop everything, cache nothing. */
    synchronized void trackingOff() {
        tracking = false;
        entries.clear();
        epoch++;
    }

    /** CLIENT TRACKING ON was acknowledged: reads sent from now on may be cached. */
    synchronized void trackingOn() {
        tracking = true;
        epoch++;
    }

    synchronized boolean tracking() {
        return tracking;
    }

    synchronized int size() {
        return entries.size();
    }

    private boolean evictOverflow() {
        if (entries.size() <= maxEntries) {
            return false;
        }
        Map.Entry<String, Object> eldest = entries.entrySet().iterator().next();
        entries.remove(eldest.getKey());
        return true;
    }
}
