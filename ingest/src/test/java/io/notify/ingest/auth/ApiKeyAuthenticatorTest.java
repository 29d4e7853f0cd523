package io.notify.ingest.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ApiKeyAuthenticatorTest {

    private final ApiKeyAuthenticator auth = new ApiKeyAuthenticator(Map.of(
            "orders", "orders-key-0123456789", "billing", "billing-key-0123456789"));

    @Test
    void bearerKeyMapsToItsProducer() {
        assertEquals(Optional.of("orders"), auth.authenticate("Bearer orders-key-0123456789"));
        assertEquals(Optional.of("billing"), auth.authenticate("bearer billing-key-0123456789"));
    }

    @Test
    void missingMalformedOrWrongKeysAreRefused() {
        assertTrue(auth.authenticate(null).isEmpty());
        assertTrue(auth.authenticate("").isEmpty());
        assertTrue(auth.authenticate("Basic b3JkZXJzOng=").isEmpty());
        assertTrue(auth.authenticate("Bearer ").isEmpty());
        assertTrue(auth.authenticate("Bearer orders-key-012345678").isEmpty());
        assertTrue(auth.authenticate("Bearer orders-key-01234567890").isEmpty());
    }
}
