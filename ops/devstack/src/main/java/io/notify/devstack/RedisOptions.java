package io.notify.devstack;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * How to run one standalone {@code redis-server}.
 *
 * @param port         0 picks a free port once; restarts reuse it
 * @param dataDir      working directory of the server; null means a new temporary directory that is
 *                     deleted when the server is closed (nothing is persisted either way: no RDB, no AOF)
 * @param binary       the executable; null means {@link RedisBinary#locate()}
 * @param startTimeout how long the server may take to log "Ready to accept connections"
 * @param password     null, or the password clients must {@code AUTH} with ({@code requirepass})
 * @param extraArgs    more {@code redis-server} arguments, e.g. a TLS port and its certificate files
 */
public record RedisOptions(int port, Path dataDir, Path binary, Duration startTimeout, String password, List<String> extraArgs) {

    public static final Duration DEFAULT_START_TIMEOUT = Duration.ofSeconds(15);

    public RedisOptions {
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port must be in 0..65535, was " + port);
        }
        if (startTimeout == null || startTimeout.isNegative() || startTimeout.isZero()) {
            throw new IllegalArgumentException("startTimeout must be positive, was " + startTimeout);
        }
        extraArgs = List.copyOf(extraArgs);
    }

    /** A free port, a temporary dir, the binary from PATH or the embedded one. */
    public static RedisOptions defaults() {
        return new RedisOptions(0, null, null, DEFAULT_START_TIMEOUT, null, List.of());
    }

    public RedisOptions withPort(int newPort) {
        return new RedisOptions(newPort, dataDir, binary, startTimeout, password, extraArgs);
    }

    public RedisOptions withDataDir(Path newDataDir) {
        return new RedisOptions(port, newDataDir, binary, startTimeout, password, extraArgs);
    }

    public RedisOptions withBinary(Path newBinary) {
        return new RedisOptions(port, dataDir, newBinary, startTimeout, password, extraArgs);
    }

    public RedisOptions withStartTimeout(Duration newStartTimeout) {
        return new RedisOptions(port, dataDir, binary, newStartTimeout, password, extraArgs);
    }

    /** Clients must {@code AUTH} with {@code newPassword}. */
    public RedisOptions withPassword(String newPassword) {
        return new RedisOptions(port, dataDir, binary, startTimeout, newPassword, extraArgs);
    }

    /** More arguments for {@code redis-server}, after the ones devstack sets. */
    public RedisOptions withExtraArgs(List<String> newExtraArgs) {
        return new RedisOptions(port, dataDir, binary, startTimeout, password, newExtraArgs);
    }
}
