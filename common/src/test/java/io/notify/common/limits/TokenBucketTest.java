package io.notify.common.limits;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class TokenBucketTest {

    private final AtomicLong nanos = new AtomicLong(1_000);

    @Test
    void admitsTheBurstThenRefusesUntilRefilled() {
        TokenBucket bucket = new TokenBucket(2, 3, nanos::get); // 2/s, burst 3
        assertTrue(bucket.tryTake());
        assertTrue(bucket.tryTake());
        assertTrue(bucket.tryTake());
        assertFalse(bucket.tryTake());
        assertEquals(1, bucket.retryAfterSeconds(), "one token comes back in 0.5 s: rounded up to 1 s");
        nanos.addAndGet(499_000_000L);
        assertFalse(bucket.tryTake());
        nanos.addAndGet(1_000_000L);
        assertTrue(bucket.tryTake());
        assertFalse(bucket.tryTake());
    }

    @Test
    void neverHoldsMoreThanItsCapacity() {
        TokenBucket bucket = new TokenBucket(100, 2, nanos::get);
        nanos.addAndGet(60_000_000_000L);
        assertTrue(bucket.tryTake());
        assertTrue(bucket.tryTake());
        assertFalse(bucket.tryTake());
    }

    @Test
    void retryAfterReflectsASlowRate() {
        TokenBucket bucket = new TokenBucket(0.1, 1, nanos::get); // one per 10 s
        assertTrue(bucket.tryTake());
        assertFalse(bucket.tryTake());
        assertEquals(10, bucket.retryAfterSeconds());
        nanos.addAndGet(7_000_000_000L);
        assertEquals(3, bucket.retryAfterSeconds());
    }
}
