package io.notify.common.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class BearerKeysTest {

    private final BearerKeys auth = new BearerKeys(Map.of(
            "orders", "orders-key-0123456789", "billing", "billing-key-0123456789"));

    @Test
    void bearerKeyMapsToItsName() {
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
        assertTrue(auth.authenticate("orders-key-0123456789").isEmpty(), "a key without the Bearer scheme");
    }

    @Test
    void numberedTokensAreNamedByPositionSoARotatedPairIsBothValid() {
        BearerKeys rotating = BearerKeys.numbered(List.of(new ServiceToken("old-token-0123456789"),
                new ServiceToken("new-token-0123456789")));
        assertEquals(Optional.of("1"), rotating.authenticate("Bearer old-token-0123456789"));
        assertEquals(Optional.of("2"), rotating.authenticate("Bearer new-token-0123456789"));
        assertTrue(rotating.authenticate("Bearer other-token-0123456789").isEmpty());
        assertEquals(List.of("1", "2"), rotating.names());
    }

    @Test
    void toStringNamesEntriesNeverKeys() {
        assertFalse(auth.toString().contains("key-0123456789"), auth.toString());
        assertTrue(auth.toString().contains("orders"), auth.toString());
    }
}
