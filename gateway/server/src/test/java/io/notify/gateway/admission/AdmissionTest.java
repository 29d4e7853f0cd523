package io.notify.gateway.admission;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class AdmissionTest {

    @Test
    void originsMatchExactlyAndConnectionsPerUserAreBounded() {
        OriginPolicy origins = new OriginPolicy(java.util.Set.of("https://app.example"), false);
        assertTrue(origins.allows("https://app.example"));
        assertFalse(origins.allows("https://app.example.evil"));
        assertFalse(origins.allows("http://app.example"));
        assertTrue(origins.allows(null), "non-browser clients send no Origin");
        assertFalse(new OriginPolicy(java.util.Set.of(), true).allows(null));

        ConnectionLimiter limiter = new ConnectionLimiter(2);
        assertTrue(limiter.tryAcquire("u"));
        assertTrue(limiter.tryAcquire("u"));
        assertFalse(limiter.tryAcquire("u"));
        assertTrue(limiter.tryAcquire("v"));
        limiter.release("u");
        assertTrue(limiter.tryAcquire("u"));
        limiter.release("u");
        limiter.release("u");
        assertEquals(0, limiter.openFor("u"));
    }
}
