package io.notify.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.notify.common.config.ConfigException;
import io.notify.common.config.Settings;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class IngestConfigTest {

    private static IngestConfig load(Map<String, String> extra) {
        Map<String, String> m = new java.util.HashMap<>(Map.of("notify.ingest.api-keys", "dev:dev-producer-key-0123456789"));
        m.putAll(extra);
        return IngestConfig.load(Settings.of(m));
    }

    @Test
    void corsIsOffByDefault() {
        assertEquals(Set.of(), load(Map.of()).corsOrigins());
    }

    @Test
    void corsOriginsAreAnExactList() {
        assertEquals(Set.of("http://localhost:8081", "http://127.0.0.1:8082", "https://app.example", "http://[::1]:8081"),
                load(Map.of("notify.ingest.cors-origins",
                        "http://localhost:8081, http://127.0.0.1:8082,https://app.example,http://[::1]:8081")).corsOrigins());
    }

    @Test
    void somethingThatIsNotAnOriginNamesTheKey() {
        for (String bad : new String[] {"*", "localhost:8081", "http://localhost:8081/", "http://h/path", "ftp://h"}) {
            ConfigException e = assertThrows(ConfigException.class, () -> load(Map.of("notify.ingest.cors-origins", bad)), bad);
            assertTrue(e.getMessage().contains("notify.ingest.cors-origins"), e.getMessage());
        }
    }
}
