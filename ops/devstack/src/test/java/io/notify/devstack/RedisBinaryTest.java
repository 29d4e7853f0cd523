package io.notify.devstack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RedisBinaryTest {

    @Test
    void embeddedResourceExistsForEachSupportedPlatform() {
        for (String[] platform : new String[][] {
                {"Linux", "amd64"}, {"Linux", "x86_64"}, {"Linux", "aarch64"}, {"Mac OS X", "aarch64"}, {"Mac OS X", "x86_64"}}) {
            String resource = RedisBinary.resourceFor(platform[0], platform[1]);
            assertNotNull(RedisBinary.class.getResource(resource), resource + " missing from embedded-redis");
        }
        assertThrows(IllegalStateException.class, () -> RedisBinary.resourceFor("Windows 11", "amd64"));
    }

    @Test
    void pathLookupFindsOnlyExecutables(@TempDir Path dir) throws Exception {
        Path empty = Files.createDirectory(dir.resolve("empty"));
        Path bin = Files.createDirectory(dir.resolve("bin"));
        Path fake = Files.createFile(bin.resolve("redis-server"));

        String path = empty + File.pathSeparator + bin;
        assertEquals(Optional.empty(), RedisBinary.onPath(path), "not executable yet");

        assertTrue(fake.toFile().setExecutable(true));
        assertEquals(Optional.of(fake), RedisBinary.onPath(path));
        assertEquals(Optional.empty(), RedisBinary.onPath(""));
        assertEquals(Optional.empty(), RedisBinary.onPath(null));
    }
}
