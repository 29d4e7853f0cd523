package io.notify.gateway.registry;

import io.micrometer.core.instrument.MeterRegistry;
import io.notify.protocol.stream.StreamId;
import io.notify.registry.RegistryClients;
import io.notify.registry.RegistryKeys;
import io.notify.registry.RegistryRedis;
import io.notify.registry.lease.NodePresence;
import io.notify.registry.lease.NodeRegistry;
import io.notify.registry.lease.NodeRegistryConfig;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link Registrar} on Redis: the registry's gateway side ({@link NodeRegistry}: leases, pipelined
 * renewal, liveness key, re-registration after an outage; its meters, including the renew latency
 * {@code notify_registry_renew_latency_seconds}, go to the gateway's registry), held to the
 * {@code Registrar} contract. It owns the Redis client it is given; {@link #register} and
 * {@link #unregister} never throw (a stopped registry's refusal becomes a failed stage); {@link #start}
 * waits at most {@code startTimeout} for the first liveness write: a node whose Redis is down still
 * opens its listener and serves (the registry keeps trying and registers everything when Redis returns).
 */
public final class RedisRegistrar implements Registrar {

    private static final Logger LOG = LoggerFactory.getLogger(RedisRegistrar.class);

    /** How long a presence member lives without a refresh (refreshed every third of it). */
    public static final Duration PRESENCE_LEASE = Duration.ofSeconds(60);

    private final NodeRegistry registry;
    private final NodePresence presence;
    private final RegistryRedis redis;
    private final Duration startTimeout;

    public RedisRegistrar(NodeRegistry registry, NodePresence presence, RegistryRedis redis, Duration startTimeout) {
        this.registry = registry;
        this.presence = presence;
        this.redis = redis;
        this.startTimeout = startTimeout;
    }

    /**
     * A registrar with a fresh incarnation, its own Redis client (a Redis Cluster client when
     * {@code cluster}: {@link RegistryClients#create}) and {@code config}
     * ({@link NodeRegistryConfig#load}; docs/architecture.md, "The registry: one rule, two sides").
     */
    public static RedisRegistrar create(String nodeId, String redisUri, boolean cluster, String keyPrefix,
                                        NodeRegistryConfig config, MeterRegistry meters) {
        RegistryRedis client = RegistryClients.create(redisUri, cluster, config.writeTimeout());
        String incarnation = NodeRegistry.newIncarnation();
        RegistryKeys keys = new RegistryKeys(keyPrefix);
        NodeRegistry registry = new NodeRegistry(nodeId, incarnation, config, keys, client, Clock.systemUTC(), meters);
        NodePresence presence = new NodePresence(nodeId, incarnation, keys, client, Clock.systemUTC(), PRESENCE_LEASE);
        return new RedisRegistrar(registry, presence, client, Duration.ofSeconds(5));
    }

    @Override
    public String incarnation() {
        return registry.incarnation();
    }

    @Override
    public void start() {
        try {
            registry.start().toCompletableFuture().get(startTimeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            LOG.warn("registry: liveness key not written within {} ms (Redis unreachable?); serving anyway, retrying",
                    startTimeout.toMillis());
        } catch (ExecutionException e) {
            LOG.warn("registry start failed: {}; serving anyway, retrying", e.getCause().toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public CompletionStage<Void> register(StreamId stream, String connectionId) {
        try {
            return registry.register(stream, connectionId);
        } catch (RuntimeException e) { // stopped (a handshake racing the shutdown)
            return CompletableFuture.failedFuture(e);
        }
    }

    @Override
    public CompletionStage<Void> unregister(StreamId stream, String connectionId) {
        try {
            return registry.unregister(stream, connectionId);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    @Override
    public CompletionStage<Void> presenceJoin(StreamId room, String userId) {
        try {
            return presence.join(room, userId);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    @Override
    public CompletionStage<Void> presenceLeave(StreamId room, String userId) {
        try {
            return presence.leave(room, userId);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    @Override
    public CompletionStage<NodePresence.Page> presence(StreamId room, String after, int limit) {
        try {
            return presence.read(room, after, limit);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    @Override
    public void stop() {
        presence.close();
        registry.stop();
        redis.close();
    }
}
