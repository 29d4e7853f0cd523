package io.notify.gateway.registry;

import io.lettuce.core.RedisClient;
import io.micrometer.core.instrument.MeterRegistry;
import io.notify.registry.RegistryClients;
import io.notify.registry.RegistryKeys;
import io.notify.registry.lease.NodeRegistry;
import io.notify.registry.lease.NodeRegistryConfig;
import io.notify.schemas.stream.StreamId;
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
 * The {@link Registrar} over the real Redis registry ({@link NodeRegistry}: leases, pipelined
 * renewal, liveness key, re-registration after an outage; its meters, including the renew latency
 * {@code notify_registry_renew_latency_seconds}, go to the gateway's registry). {@link #start} waits
 * at most {@code startTimeout} for the first liveness write: a node whose Redis is down still opens
 * its listener and serves (the registry keeps trying and registers everything when Redis returns).
 */
public final class NodeRegistryRegistrar implements Registrar {

    private static final Logger LOG = LoggerFactory.getLogger(NodeRegistryRegistrar.class);

    private final NodeRegistry registry;
    private final RedisClient client;
    private final Duration startTimeout;

    public NodeRegistryRegistrar(NodeRegistry registry, RedisClient client, Duration startTimeout) {
        this.registry = registry;
        this.client = client;
        this.startTimeout = startTimeout;
    }

    /** A registrar with a fresh incarnation and the registry's default timings (docs/architecture.md, "The registry: one rule, two sides"). */
    public static NodeRegistryRegistrar create(String nodeId, String redisUri, String keyPrefix, MeterRegistry meters) {
        return create(nodeId, redisUri, keyPrefix, NodeRegistryConfig.defaults(), meters);
    }

    public static NodeRegistryRegistrar create(String nodeId, String redisUri, String keyPrefix, NodeRegistryConfig config,
                                               MeterRegistry meters) {
        RedisClient client = RegistryClients.create(redisUri, config.writeTimeout());
        NodeRegistry registry = new NodeRegistry(nodeId, NodeRegistry.newIncarnation(), config, new RegistryKeys(keyPrefix),
                client, Clock.systemUTC(), meters);
        return new NodeRegistryRegistrar(registry, client, Duration.ofSeconds(5));
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
    public void stop() {
        registry.stop();
        client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
    }
}
