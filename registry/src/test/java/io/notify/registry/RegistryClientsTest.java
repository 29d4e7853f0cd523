package io.notify.registry;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class RegistryClientsTest {

    @Test
    void aCommandTimeoutMustBePositive() {
        var e = assertThrows(IllegalArgumentException.class, () -> RegistryClients.options(Duration.ZERO));
        assertTrue(e.getMessage().contains("timeout"), e.getMessage());
    }
}
