package io.notify.registry;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.protocol.ProtocolVersion;
import io.lettuce.core.resource.ClientResources;
import java.time.Duration;

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
 */
public final class RegistryClients {

    private RegistryClients() {
    }

    public static ClientOptions options(Duration commandTimeout) {
        if (commandTimeout == null || commandTimeout.isNegative() || commandTimeout.isZero()) {
            throw new IllegalArgumentException("registry Redis command timeout must be positive, was " + commandTimeout);
        }
        return ClientOptions.builder()
                .protocolVersion(ProtocolVersion.RESP3)
                .autoReconnect(true)
                .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
                .replayFilter(command -> true)
                .timeoutOptions(TimeoutOptions.enabled(commandTimeout))
                .socketOptions(SocketOptions.builder().connectTimeout(commandTimeout.multipliedBy(4)).build())
                .build();
    }

    /** A client for {@code redisUri} ({@code redis://host:port}) with {@link #options(Duration)}. */
    public static RedisClient create(ClientResources resources, String redisUri, Duration commandTimeout) {
        RedisClient client = RedisClient.create(resources, redisUri);
        client.setOptions(options(commandTimeout));
        return client;
    }

    public static RedisClient create(String redisUri, Duration commandTimeout) {
        RedisClient client = RedisClient.create(redisUri);
        client.setOptions(options(commandTimeout));
        return client;
    }
}
