package io.notify.registry;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.SslOptions;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.ClusterTopologyRefreshOptions;
import io.lettuce.core.cluster.RedisClusterClient;
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
 * The one place that builds the registry's Redis client ({@link #create}: a standalone server or a
 * Redis Cluster) and the Lettuce settings the registry is built for. Both sides ({@code
 * lease.NodeRegistry} and {@code route.RedisRouteLookup}) bound their own waits, but only a client
 * with these options also bounds what Lettuce itself holds while Redis is away:
 *
 * <ul>
 *   <li>RESP3, so invalidation pushes of client-side caching arrive on the tracked connection;</li>
 *   <li>commands are rejected at once while disconnected instead of buffered without limit (on a Redis
 *       Cluster: queued, at most {@link #CLUSTER_QUEUE} per master, see {@link #create});</li>
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

    /** Commands one connection to a Cluster master holds, sent or waiting (Lettuce rejects more: a failed write). */
    public static final int CLUSTER_QUEUE = 65_536;
    /** Periodic topology refresh of a Cluster client: the backstop when no trigger fires. */
    public static final Duration TOPOLOGY_REFRESH_PERIOD = Duration.ofSeconds(10);
    /** Adaptive refreshes are at most this frequent (Lettuce's default, 30 s, would hide a failover that long). */
    public static final Duration ADAPTIVE_REFRESH_TIMEOUT = Duration.ofSeconds(1);
    /** Failed reconnects to one node after which the topology is asked again (a killed master). */
    public static final int RECONNECTS_BEFORE_REFRESH = 2;

    static final ClusterTopologyRefreshOptions TOPOLOGY_REFRESH = ClusterTopologyRefreshOptions.builder()
            .enablePeriodicRefresh(TOPOLOGY_REFRESH_PERIOD)
            .enableAllAdaptiveRefreshTriggers()
            .adaptiveRefreshTriggersTimeout(ADAPTIVE_REFRESH_TIMEOUT)
            .refreshTriggersReconnectAttempts(RECONNECTS_BEFORE_REFRESH)
            .closeStaleConnections(true)
            .dynamicRefreshSources(true)
            .build();

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

    /**
     * The registry's Redis at {@code redisUri} (see the class comment) with {@link #options(Duration)}:
     * one standalone server, or with {@code cluster} a Redis Cluster whose {@code redisUri} lists one
     * or more seed nodes separated by commas. A Cluster client also follows the topology
     * ({@link #TOPOLOGY_REFRESH}: every {@link #TOPOLOGY_REFRESH_PERIOD}, and at once on a MOVED/ASK
     * redirect, an uncovered slot, an unknown node or {@link #RECONNECTS_BEFORE_REFRESH} failed
     * reconnects, at most once per {@link #ADAPTIVE_REFRESH_TIMEOUT}), so a promoted replica is used
     * within about a second of the promotion.
     *
     * @param resources null: Lettuce's own (shut down with the client)
     */
    public static RegistryRedis create(ClientResources resources, String redisUri, boolean cluster, Duration commandTimeout) {
        List<String> uris = List.of(redisUri.split(","));
        if (uris.size() > 1 && !cluster) {
            throw new IllegalArgumentException("the Redis URI lists " + uris.size() + " servers; a list of seed nodes needs "
                    + "notify.redis.cluster=true (Redis Cluster), a standalone Redis takes one URI: " + redisUri);
        }
        if (!cluster) {
            Target t = Target.parse(redisUri.trim());
            RedisClient client = resources == null ? RedisClient.create(t.uri()) : RedisClient.create(resources, t.uri());
            client.setOptions(options(commandTimeout, t.caFile()));
            return RegistryRedis.of(client);
        }
        List<RedisURI> seeds = new ArrayList<>();
        Path caFile = null;
        for (String uri : uris) {
            if (uri.isBlank()) {
                throw new IllegalArgumentException("empty seed node in the Redis Cluster URI list: " + redisUri);
            }
            Target t = Target.parse(uri.trim());
            seeds.add(RedisURI.create(t.uri()));
            caFile = t.caFile() != null ? t.caFile() : caFile;
        }
        RedisClusterClient client = resources == null ? RedisClusterClient.create(seeds) : RedisClusterClient.create(resources, seeds);
        // Lettuce opens a master's connection when the first command for it is routed (and again for a
        // promoted replica); rejecting commands while it connects would fail every first command, so a
        // cluster connection queues them instead, bounded: at most CLUSTER_QUEUE per master, each for
        // at most the command timeout.
        // builder(ClientOptions) copies neither the replay filter nor everything else: set it again,
        // so a command in flight at a disconnect is failed, not sent again after the reconnect (a
        // late ZADD would bring back a connection unregistered meanwhile).
        ClusterClientOptions.Builder clusterOptions = ClusterClientOptions.builder(options(commandTimeout, caFile));
        clusterOptions.replayFilter(command -> true);
        client.setOptions(clusterOptions
                .disconnectedBehavior(ClientOptions.DisconnectedBehavior.ACCEPT_COMMANDS)
                .requestQueueSize(CLUSTER_QUEUE)
                .topologyRefreshOptions(TOPOLOGY_REFRESH)
                .build());
        return RegistryRedis.of(client);
    }

    /** As {@link #create(ClientResources, String, boolean, Duration)} with Lettuce's own resources. */
    public static RegistryRedis create(String redisUri, boolean cluster, Duration commandTimeout) {
        return create(null, redisUri, cluster, commandTimeout);
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
