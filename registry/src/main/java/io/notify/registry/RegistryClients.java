package io.notify.registry;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.SslOptions;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.protocol.ProtocolVersion;
import io.lettuce.core.resource.ClientResources;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The Lettuce client settings the registry is built for. Both sides ({@code lease.NodeRegistry} and
 * {@code route.RedisRouteLookup}) accept any {@link RedisClient} and bound their own waits, but only a client
 * with these options also bounds what Lettuce itself holds while Redis is away:
 *
 * <ul>
 *   <li>RESP3, so invalidation pushes of client-side caching arrive on the tracked connection;</li>
 *   <li>commands are rejected at once while disconnected instead of buffered without limit;</li>
 *   <li>every command times out after {@code commandTimeout} (Lettuce's default is no timeout);</li>
 *   <li>commands in flight at a disconnect are not replayed after the reconnect: a late ZADD of a
 *       connection that was unregistered meanwhile would otherwise resurrect it;</li>
 *   <li>auto-reconnect stays on.</li>
 * </ul>
 *
 * <p>The URI says how to reach Redis, security included (Lettuce's syntax):
 * {@code redis://[[user]:password@]host:port}, {@code rediss://…} for TLS. Notify adds one query
 * parameter, {@code ca-file=<PEM file>}: the certificate authority a {@code rediss://} server's
 * certificate must chain to, for a private CA (without it the JVM's default trust store decides).
 * The parameter is removed before Lettuce sees the URI.
 */
public final class RegistryClients {

    private RegistryClients() {
    }

    /** The Notify query parameter naming a PEM CA file for {@code rediss://}. */
    public static final String CA_FILE = "ca-file";

    public static ClientOptions options(Duration commandTimeout) {
        return options(commandTimeout, null);
    }

    private static ClientOptions options(Duration commandTimeout, Path caFile) {
        if (commandTimeout == null || commandTimeout.isNegative() || commandTimeout.isZero()) {
            throw new IllegalArgumentException("registry Redis command timeout must be positive, was " + commandTimeout);
        }
        ClientOptions.Builder b = ClientOptions.builder();
        if (caFile != null) {
            if (!Files.isReadable(caFile)) {
                throw new IllegalArgumentException("the Redis URI's " + CA_FILE + " " + caFile + " is not a readable file");
            }
            b.sslOptions(SslOptions.builder().jdkSslProvider().trustManager(caFile.toFile()).build());
        }
        return b
                .protocolVersion(ProtocolVersion.RESP3)
                .autoReconnect(true)
                .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
                .replayFilter(command -> true)
                .timeoutOptions(TimeoutOptions.enabled(commandTimeout))
                .socketOptions(SocketOptions.builder().connectTimeout(commandTimeout.multipliedBy(4)).build())
                .build();
    }

    /** A client for {@code redisUri} (see the class comment) with {@link #options(Duration)}. */
    public static RedisClient create(ClientResources resources, String redisUri, Duration commandTimeout) {
        Target t = Target.parse(redisUri);
        RedisClient client = RedisClient.create(resources, t.uri());
        client.setOptions(options(commandTimeout, t.caFile()));
        return client;
    }

    public static RedisClient create(String redisUri, Duration commandTimeout) {
        Target t = Target.parse(redisUri);
        RedisClient client = RedisClient.create(t.uri());
        client.setOptions(options(commandTimeout, t.caFile()));
        return client;
    }

    /** A Redis URI as Lettuce takes it, and the CA file that was named in it (or null). */
    record Target(String uri, Path caFile) {

        static Target parse(String redisUri) {
            int q = redisUri.indexOf('?');
            if (q < 0) {
                return new Target(redisUri, null);
            }
            Path caFile = null;
            List<String> kept = new ArrayList<>();
            for (String param : redisUri.substring(q + 1).split("&")) {
                if (param.startsWith(CA_FILE + "=")) {
                    caFile = Path.of(URLDecoder.decode(param.substring(CA_FILE.length() + 1), StandardCharsets.UTF_8));
                } else if (!param.isEmpty()) {
                    kept.add(param);
                }
            }
            String base = redisUri.substring(0, q);
            return new Target(kept.isEmpty() ? base : base + "?" + String.join("&", kept), caFile);
        }
    }
}
