package io.notify.registry;

import io.lettuce.core.RedisClient;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import io.lettuce.core.resource.Delay;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.notify.devstack.Await;
import io.notify.registry.lease.NodeRegistry;
import io.notify.registry.lease.NodeRegistryConfig;
import io.notify.registry.route.RedisRouteLookup;
import io.notify.registry.route.RouteLookupConfig;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * What the registry ITs share: Lettuce resources that reconnect within 100 ms, registry clients (of
 * a standalone Redis, or of a Redis Cluster whose seed URIs are given), a plain client to look at
 * and tamper with Redis directly, and waiting on conditions with deadlines.
 * Closes everything it made, in reverse order. Public for the ITs of {@code lease} and {@code route}
 * that need a Redis but no node or router.
 */
public final class RegistryTesting implements AutoCloseable {

    /** Generous: these machines run other builds at the same time. */
    static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(2);
    /** Fast heartbeat for tests: lease 2.5 s, renew 500 ms, liveness TTL 2 s, refreshed every 250 ms. */
    static final NodeRegistryConfig FAST = NodeRegistryConfig.defaults()
            .withTimings(Duration.ofMillis(2500), Duration.ofMillis(500), Duration.ofMillis(2000), Duration.ofMillis(250))
            .withWriteTimeout(Duration.ofSeconds(1));
    static final RouteLookupConfig ROUTER = RouteLookupConfig.defaults()
            .withChecks(Duration.ofMillis(200), Duration.ofMillis(500));

    final String redisUri;
    final boolean cluster;
    public final RegistryKeys keys;
    public final Clock clock = Clock.systemUTC();
    final ClientResources resources = DefaultClientResources.builder()
            .ioThreadPoolSize(2).computationThreadPoolSize(2)
            .reconnectDelay(Delay.constant(Duration.ofMillis(100)))
            .build();
    private final List<AutoCloseable> closeables = new ArrayList<>();
    private RedisClusterCommands<String, String> raw;

    public RegistryTesting(String redisUri, String prefix) {
        this(redisUri, false, prefix);
    }

    /** @param cluster {@code redisUri} lists seed nodes of a Redis Cluster */
    public RegistryTesting(String redisUri, boolean cluster, String prefix) {
        this.redisUri = redisUri;
        this.cluster = cluster;
        this.keys = new RegistryKeys(prefix);
    }

    public RegistryRedis client() {
        RegistryRedis client = RegistryClients.create(resources, redisUri, cluster, COMMAND_TIMEOUT);
        closeables.add(client);
        return client;
    }

    RedisRouteLookup router(RouteLookupConfig config, MeterRegistry meters) {
        RedisRouteLookup router = new RedisRouteLookup(client(), keys, config, clock, meters);
        closeables.add(router);
        return router;
    }

    RedisRouteLookup router() {
        return router(ROUTER, new SimpleMeterRegistry());
    }

    NodeRegistry node(String nodeId, NodeRegistryConfig config) {
        return node(nodeId, config, new SimpleMeterRegistry());
    }

    /** A node with {@code config} whose liveness key is written (started within 5 s). */
    NodeRegistry started(String nodeId, NodeRegistryConfig config) throws Exception {
        NodeRegistry node = node(nodeId, config);
        node.start().toCompletableFuture().get(5, TimeUnit.SECONDS);
        return node;
    }

    NodeRegistry node(String nodeId, NodeRegistryConfig config, MeterRegistry meters) {
        NodeRegistry node = new NodeRegistry(nodeId, NodeRegistry.newIncarnation(), config, keys, client(), clock, meters);
        closeables.add(node);
        return node;
    }

    /** The presence side of {@code node} (same node id and incarnation), with {@code lease}. */
    io.notify.registry.lease.NodePresence presence(NodeRegistry node, Duration lease) {
        var presence = new io.notify.registry.lease.NodePresence(node.nodeId(), node.incarnation(), keys, client(), clock, lease);
        closeables.add(presence);
        return presence;
    }

    /**
     * A plain synchronous connection of its own (RESP3 default options), for setup and assertions; on
     * a Cluster Lettuce's advanced cluster connection (routes each key, splits multi-key commands by slot).
     */
    public RedisClusterCommands<String, String> raw() {
        if (raw == null) {
            if (cluster) {
                RedisClusterClient client = RedisClusterClient.create(resources, java.util.Arrays.stream(redisUri.split(","))
                        .map(io.lettuce.core.RedisURI::create).toList());
                closeables.add(client::shutdown);
                raw = client.connect().sync();
            } else {
                RedisClient client = RedisClient.create(resources, redisUri);
                closeables.add(client::shutdown);
                raw = client.connect().sync();
            }
        }
        return raw;
    }

    /** Polls until {@code condition} holds; fails naming {@code what} after {@code timeout}. */
    static void await(Duration timeout, String what, BooleanSupplier condition) {
        Await.until(what, timeout, condition);
    }

    static <T> T awaitValue(Duration timeout, String what, Supplier<T> value, java.util.function.Predicate<T> ok) {
        List<T> last = new ArrayList<>(1);
        await(timeout, what, () -> {
            T v = value.get();
            last.clear();
            last.add(v);
            return ok.test(v);
        });
        return last.get(0);
    }

    @Override
    public void close() {
        for (int i = closeables.size() - 1; i >= 0; i--) {
            try {
                closeables.get(i).close();
            } catch (Exception e) {
                // best effort in tests; the next close still runs
            }
        }
        resources.shutdown(0, 2, java.util.concurrent.TimeUnit.SECONDS);
    }
}
