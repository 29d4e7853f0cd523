package io.notify.devstack;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;

/** Creates and removes the data directories of the servers in this module. */
final class DataDirs {

    private DataDirs() {
    }

    /** {@code dir} created if missing, or a new temporary directory when {@code dir} is null. */
    static Path createOrTemp(Path dir, String tempPrefix) {
        try {
            if (dir == null) {
                return Files.createTempDirectory(tempPrefix);
            }
            return Files.createDirectories(dir).toAbsolutePath();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create data directory " + (dir == null ? tempPrefix + "*" : dir), e);
        }
    }

    /** Deletes {@code dir} and everything below it; a missing directory is not an error. */
    static void deleteRecursively(Path dir) {
        if (dir == null || !Files.exists(dir)) {
            return;
        }
        try {
            Files.walkFileTree(dir, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                    Files.deleteIfExists(file);
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult postVisitDirectory(Path d, IOException exc) throws IOException {
                    Files.deleteIfExists(d);
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete " + dir, e);
        }
    }
}
