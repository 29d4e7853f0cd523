package io.notify.common.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.notify.common.config.ConfigException;
import io.notify.common.config.Settings;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ServiceTokenTest {

    private static final String KEY = "notify.x.tokens";

    @Test
    void aCommaSeparatedListKeepsItsOrder() {
        assertEquals(List.of(new ServiceToken("old-token-0123456789"), new ServiceToken("new-token-0123456789")),
                ServiceToken.list(Settings.of(Map.of(KEY, " old-token-0123456789 , new-token-0123456789,")), KEY));
        assertEquals(List.of(), ServiceToken.list(Settings.of(Map.of()), KEY));
    }

    @Test
    void unusableTokensNameTheKeyAndThePositionButNeverTheValue() {
        ConfigException shortOne = assertThrows(ConfigException.class,
                () -> ServiceToken.list(Settings.of(Map.of(KEY, "good-token-0123456789,short-secret")), KEY));
        assertEquals(KEY + ": token 2 of 2: a service token is at least 16 characters of A-Z a-z 0-9 . _ ~ + / - "
                + "(optionally ending in =)", shortOne.getMessage());
        assertFalse(shortOne.getMessage().contains("short-secret"));
        ConfigException twice = assertThrows(ConfigException.class,
                () -> ServiceToken.list(Settings.of(Map.of(KEY, "same-token-0123456789,same-token-0123456789")), KEY));
        assertEquals(KEY + ": token 2 of 2 appears twice", twice.getMessage());
        assertThrows(ConfigException.class, () -> ServiceToken.of(KEY, "has space in-0123456789"));
        assertThrows(ConfigException.class, () -> ServiceToken.of(KEY, "quote\"in-the-0123456789"));
    }

    @Test
    void itIsSentAsABearerCredentialAndNeverPrinted() {
        ServiceToken t = ServiceToken.of(KEY, "abc-DEF_123.456~789+/=");
        assertEquals("Bearer abc-DEF_123.456~789+/=", t.authorization());
        assertFalse(t.toString().contains("abc"), t.toString());
    }
}
