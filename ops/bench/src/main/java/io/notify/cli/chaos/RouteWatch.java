package io.notify.cli.chaos;

import io.notify.platform.PlatformStack;
import io.notify.registry.RegistryClients;
import io.notify.registry.RegistryConnection;
import io.notify.registry.RegistryKeys;
import io.notify.registry.RegistryRedis;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.TopicPartition;

/**
 * What the router does about a node, seen from outside: whether the node's liveness key
 * ({@code nf:alive:<node>}) exists in Redis, and how many delivery messages its node topic holds
 * (the sum of its end offsets) — so a run can tell when routes to a dead or frozen node stopped.
 */
final class RouteWatch implements AutoCloseable {

    /** After a fault at t0: when the liveness key was gone, and when the last message was routed to the node. */
    record RouteStop(long aliveKeyGoneMs, long lastRouteMs, long routedAfterFault) {
    }

    private static final long QUIET_NANOS = 2_000_000_000L;

    private final PlatformStack stack;
    private final RegistryKeys keys;
    private final Admin admin;
    private final Map<String, List<TopicPartition>> partitionsOf = new java.util.HashMap<>();
    private RegistryRedis redis;
    private RegistryConnection connection;

    RouteWatch(PlatformStack stack) {
        this.stack = stack;
        this.keys = new RegistryKeys(stack.prefix());
        this.admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, stack.bootstrapServers()));
    }

    /** Connects to Redis and the broker before the first fault, so no first observation waits for a connect. */
    RouteWatch warmUp() {
        for (var g : stack.gateways()) {
            if (!alive(g.name()) || routed(g.name()) < 0) {
                throw new IllegalStateException("gateway " + g.name() + " has no liveness key or node topic yet");
            }
        }
        return this;
    }

    /** True when the node's liveness key exists; a Redis that cannot answer counts as "unknown" → true. */
    boolean alive(String node) {
        try {
            if (connection == null || !connection.isOpen()) {
                dropRedis();
                redis = RegistryClients.create(stack.redisUri(), stack.redisCluster(), Duration.ofSeconds(2));
                connection = redis.connect();
            }
            return connection.async().exists(keys.alive(node)).get(2, TimeUnit.SECONDS) > 0;
        } catch (RuntimeException | ExecutionException | TimeoutException e) {
            dropRedis();
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return true;
        }
    }

    /** Delivery messages routed to the node so far (its topic's end offsets, summed); -1 when unknown. */
    long routed(String node) {
        String topic = stack.topics().node(node).name();
        try {
            List<TopicPartition> partitions = partitionsOf.get(topic);
            if (partitions == null) { // a node topic keeps its partitions: described once, not on every poll
                partitions = admin.describeTopics(List.of(topic)).allTopicNames().get(5, TimeUnit.SECONDS)
                        .get(topic).partitions().stream().map(p -> new TopicPartition(topic, p.partition())).toList();
                partitionsOf.put(topic, partitions);
            }
            Map<TopicPartition, OffsetSpec> specs = partitions.stream()
                    .collect(Collectors.toMap(tp -> tp, tp -> OffsetSpec.latest()));
            return admin.listOffsets(specs).all().get(5, TimeUnit.SECONDS).values().stream()
                    .mapToLong(r -> r.offset()).sum();
        } catch (Exception e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            return -1;
        }
    }

    /**
     * Watches the node after a fault at {@code t0Nanos} (with {@code routedAtFault} messages then)
     * until its liveness key is gone and nothing was routed to it for 2 s, or {@code bound} passes.
     */
    RouteStop awaitStop(String node, long t0Nanos, long routedAtFault, Duration bound) throws InterruptedException {
        long deadline = t0Nanos + bound.toNanos();
        long goneAt = -1;
        long lastChange = t0Nanos;
        long last = routedAtFault;
        while (System.nanoTime() - deadline < 0) {
            // Each observation is timed when its answer arrived: an upper bound, never an early reading.
            if (goneAt < 0 && !alive(node)) {
                goneAt = System.nanoTime();
            }
            long r = routed(node);
            if (r > last) {
                last = r;
                lastChange = System.nanoTime();
            }
            if (goneAt >= 0 && System.nanoTime() - Math.max(goneAt, lastChange) > QUIET_NANOS) {
                break;
            }
            TimeUnit.MILLISECONDS.sleep(100); // poll interval of a bounded watch
        }
        return new RouteStop(goneAt < 0 ? -1 : (goneAt - t0Nanos) / 1_000_000, (lastChange - t0Nanos) / 1_000_000,
                last - routedAtFault);
    }

    private void dropRedis() {
        if (connection != null) {
            connection.close();
            connection = null;
        }
        if (redis != null) {
            redis.close();
            redis = null;
        }
    }

    @Override
    public void close() {
        dropRedis();
        admin.close(Duration.ofSeconds(5));
    }
}
