package io.notify.registry.route;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class TrackedCacheTest {

    private final AtomicLong evictions = new AtomicLong();
    private TrackedCache cache;

    @BeforeEach
    void tracking() {
        cache = new TrackedCache(3, evictions::addAndGet);
        cache.trackingOn();
    }

    @Test
    void sizeNeverExceedsTheBoundAndLeastRecentlyUsedGoesFirst() {
        for (int i = 0; i < 3; i++) {
            load("k" + i, "v" + i);
        }
        assertEquals("v0", cache.get("k0", String.class)); // k0 recently used: k1 is now the eldest
        for (int i = 3; i < 10; i++) {
            load("k" + i, "v" + i);
            assertTrue(cache.size() <= 3, "size " + cache.size());
        }
        assertEquals(3, cache.size());
        assertEquals(7, evictions.get());
        assertNull(cache.get("k1", String.class));
        assertEquals("v9", cache.get("k9", String.class));
    }

    @Test
    void aReadRacedByAnInvalidationIsNotInstalled() {
        TrackedCache.Loading token = cache.beginLoad("k");
        cache.invalidate("k");
        assertFalse(cache.complete("k", token, "stale"));
        assertNull(cache.get("k", String.class));
    }

    @Test
    void aReadRacedByAFlushIsNotInstalled() {
        TrackedCache.Loading token = cache.beginLoad("k");
        cache.invalidateAll();
        assertFalse(cache.complete("k", token, "stale"));
        assertEquals(0, cache.size());
    }

    @Test
    void aReadStartedBeforeADisconnectIsNotInstalledEvenAfterTrackingIsBack() {
        TrackedCache.Loading token = cache.beginLoad("k");
        cache.trackingOff();
        cache.trackingOn();
        assertFalse(cache.complete("k", token, "maybe stale"));
        assertNull(cache.get("k", String.class));
    }

    @Test
    void nothingIsCachedWhileTrackingIsOff() {
        cache.trackingOff();
        TrackedCache.Loading token = cache.beginLoad("k");
        assertFalse(cache.complete("k", token, "v"));
        assertEquals(0, cache.size());
    }

    @Test
    void aLaterReadOfTheSameKeyWinsOverAnEarlierOne() {
        TrackedCache.Loading first = cache.beginLoad("k");
        TrackedCache.Loading second = cache.beginLoad("k");
        assertFalse(cache.complete("k", first, "old"));
        assertTrue(cache.complete("k", second, "new"));
        assertEquals("new", cache.get("k", String.class));
    }

    @Test
    void aFailedReadLeavesNothingBehindAndPlaceholdersAreInvisible() {
        TrackedCache.Loading token = cache.beginLoad("k");
        assertNull(cache.get("k", String.class));
        cache.abort("k", token);
        assertEquals(0, cache.size());
    }

    @Test
    void valuesOfAnotherTypeAreNotReturned() {
        load("k", "v");
        assertNull(cache.get("k", Integer.class));
    }

    @Test
    void boundMustBePositive() {
        assertThrows(IllegalArgumentException.class, () -> new TrackedCache(0, n -> { }));
    }

    private void load(String key, String value) {
        assertTrue(cache.complete(key, cache.beginLoad(key), value));
    }
}
