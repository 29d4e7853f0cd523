package io.notify.devstack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class PrefixesTest {

    @Test
    void prefixIsValidForTopicsGroupsAndKeys() {
        String prefix = Prefixes.next();
        assertTrue(prefix.matches("t[a-z0-9]{7}-"), prefix);
        // Kafka's legal topic characters
        assertTrue((prefix + "orders").matches("[a-zA-Z0-9._-]+"));
    }

    @Test
    void prefixesAreNeverRepeated() {
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < 20_000; i++) {
            seen.add(Prefixes.next());
        }
        assertEquals(20_000, seen.size());
    }
}
