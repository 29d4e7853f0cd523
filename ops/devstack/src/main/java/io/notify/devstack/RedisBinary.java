package io.notify.devstack;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Locale;
import java.util.Optional;

/**
 * Finds a {@code redis-server} executable: the one on {@code PATH}, else the binary shipped inside
 * the {@code com.github.codemonstur:embedded-redis} jar.
 *
 * <p>Guarantees: the returned path is an executable file. The embedded binary is extracted at most
 * once per JVM into a temporary file that is deleted when the JVM exits.
 */
public final class RedisBinary {

    /** Resources of embedded-redis 1.4.3, by {@code os.name}/{@code os.arch}. */
    private static final String LINUX_AMD64 = "/redis-server-6.2.6-v5-linux-amd64";
    private static final String LINUX_ARM64 = "/redis-server-6.2.7-linux-arm64";
    private static final String MAC_AMD64 = "/redis-server-6.2.6-v5-darwin-amd64";
    private static final String MAC_ARM64 = "/redis-server-6.2.6-v5-darwin-arm64";

    private static Path extracted;

    private RedisBinary() {
    }

    /** {@code redis-server} from PATH if there is one, else the embedded binary. */
    public static Path locate() {
        return onPath().orElseGet(RedisBinary::embedded);
    }

    /** {@code redis-server} from the {@code PATH} environment variable, if any. */
    public static Optional<Path> onPath() {
        return onPath(System.getenv("PATH"));
    }

    static Optional<Path> onPath(String pathVariable) {
        if (pathVariable == null || pathVariable.isBlank()) {
            return Optional.empty();
        }
        for (String dir : pathVariable.split(File.pathSeparator)) {
            if (dir.isEmpty()) {
                continue;
            }
            Path candidate = Path.of(dir, "redis-server");
            if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }

    /** The binary inside the embedded-redis jar, extracted to a temporary executable file. */
    public static synchronized Path embedded() {
        if (extracted != null && Files.isExecutable(extracted)) {
            return extracted;
        }
        String resource = resourceFor(System.getProperty("os.name"), System.getProperty("os.arch"));
        try (InputStream in = RedisBinary.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("no redis-server on PATH and resource " + resource
                        + " not on the classpath: add com.github.codemonstur:embedded-redis:1.4.3 or install redis-server");
            }
            Path file = Files.createTempFile("notify-redis-server-", "");
            Files.copy(in, file, StandardCopyOption.REPLACE_EXISTING);
            if (!file.toFile().setExecutable(true, true)) {
                throw new IllegalStateException("cannot make " + file + " executable");
            }
            file.toFile().deleteOnExit();
            extracted = file;
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot extract " + resource, e);
        }
    }

    static String resourceFor(String osName, String osArch) {
        String os = osName.toLowerCase(Locale.ROOT);
        String arch = osArch.toLowerCase(Locale.ROOT);
        boolean arm = arch.equals("aarch64") || arch.equals("arm64");
        boolean x64 = arch.equals("amd64") || arch.equals("x86_64");
        if (os.contains("linux") && x64) {
            return LINUX_AMD64;
        }
        if (os.contains("linux") && arm) {
            return LINUX_ARM64;
        }
        if (os.contains("mac") && x64) {
            return MAC_AMD64;
        }
        if (os.contains("mac") && arm) {
            return MAC_ARM64;
        }
        throw new IllegalStateException("no embedded redis-server for " + osName + "/" + osArch
                + "; install redis-server and put it on PATH");
    }
}
