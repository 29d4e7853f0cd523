package io.notify.cli.bench;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.notify.protocol.stream.StreamId;
import io.notify.registry.RegistryClients;
import io.notify.registry.RegistryKeys;
import io.notify.registry.RegistryRedis;
import io.notify.registry.lease.NodeRegistry;
import io.notify.registry.lease.NodeRegistryConfig;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The registered side of the benchmark: two gateway nodes ({@code bench-a}, {@code bench-b}), each a
 * real {@link NodeRegistry} with its heartbeat, holding one connection per user — even users on
 * bench-a, odd on bench-b — so every event is routed to exactly one node. The heartbeat renews the
 * leases for as long as the run lasts, and its renewals invalidate the router's cached sets as they
 * would in production. {@link #close} stops both nodes (liveness keys and members deleted).
 */
final class BenchConnections implements AutoCloseable {

    static final List<String> NODES = List.of("bench-a", "bench-b");
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final int IN_FLIGHT = 2000;

    private final RegistryRedis client;
    private final List<NodeRegistry> nodes = new ArrayList<>();

    private BenchConnections(RegistryRedis client) {
        this.client = client;
    }

    /**
     * Registers {@code users} connections under the registry key {@code prefix} (the run's topic
     * prefix, given to fanout-streams as notify.registry.key-prefix). Leases last {@code lease} and
     * are renewed every third of it.
     */
    static BenchConnections register(String redisUri, String prefix, int users, Duration lease) throws Exception {
        BenchConnections c = new BenchConnections(RegistryClients.create(redisUri, false, Duration.ofSeconds(2)));
        try {
            NodeRegistryConfig defaults = NodeRegistryConfig.defaults();
            NodeRegistryConfig config = defaults.withTimings(lease, lease.dividedBy(3), defaults.aliveTtl(),
                    defaults.aliveRefresh());
            for (String node : NODES) {
                NodeRegistry r = new NodeRegistry(node, NodeRegistry.newIncarnation(), config, new RegistryKeys(prefix),
                        c.client, Clock.systemUTC(), new SimpleMeterRegistry());
                c.nodes.add(r);
                r.start().toCompletableFuture().get(WAIT.toSeconds(), TimeUnit.SECONDS);
            }
            List<CompletableFuture<Void>> pending = new ArrayList<>();
            for (int u = 0; u < users; u++) {
                String user = FanoutEvents.user(u);
                pending.add(c.nodes.get(u % 2).register(StreamId.forUser(user), "c-" + user).toCompletableFuture());
                if (pending.size() == IN_FLIGHT) {
                    await(pending);
                }
            }
            await(pending);
            return c;
        } catch (Exception | Error e) {
            c.close();
            throw e;
        }
    }

    private static void await(List<CompletableFuture<Void>> pending) throws Exception {
        CompletableFuture.allOf(pending.toArray(CompletableFuture[]::new)).get(WAIT.toSeconds(), TimeUnit.SECONDS);
        pending.clear();
    }

    @Override
    public void close() {
        for (NodeRegistry r : nodes) {
            r.stop();
        }
        client.close();
    }
}
