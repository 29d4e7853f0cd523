package io.notify.registry;

import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.event.ClusterTopologyChangedEvent;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.protocol.ProtocolVersion;
import java.time.Duration;
import reactor.core.Disposable;

/**
 * The Redis a registry component talks to: a standalone server ({@link RedisClient}) or a Redis
 * Cluster ({@link RedisClusterClient}), built by {@link RegistryClients#create}. Every registry
 * connection is opened here ({@link #connect()}), so the lease side, the presence side and the
 * route lookup run unchanged on either; only client-side caching needs a standalone server
 * (see {@code route.TrackingSession}). {@link #close()} shuts the client down.
 */
public final class RegistryRedis implements AutoCloseable {

    private final RedisClient standalone;
    private final RedisClusterClient cluster;

    private RegistryRedis(RedisClient standalone, RedisClusterClient cluster) {
        this.standalone = standalone;
        this.cluster = cluster;
    }

    /** A standalone server through {@code client}, configured by {@link RegistryClients}. */
    static RegistryRedis of(RedisClient client) {
        return new RegistryRedis(client, null);
    }

    /** A Redis Cluster through {@code client}, configured by {@link RegistryClients}. */
    static RegistryRedis of(RedisClusterClient client) {
        return new RegistryRedis(null, client);
    }

    /** True on a Redis Cluster. */
    public boolean cluster() {
        return cluster != null;
    }

    /** The protocol the client is configured for (the route lookup needs RESP3 for its cache on a standalone server). */
    public ProtocolVersion protocol() {
        return client().getOptions().getConfiguredProtocolVersion();
    }

    /** Opens a connection (blocks for at most the client's connect timeout); throws when Redis cannot be reached. */
    public RegistryConnection connect() {
        if (cluster != null) {
            StatefulRedisClusterConnection<String, String> c = cluster.connect(StringCodec.UTF8);
            return new RegistryConnection(c, c.async(), null);
        }
        StatefulRedisConnection<String, String> c = standalone.connect(StringCodec.UTF8);
        return new RegistryConnection(c, c.async(), c);
    }

    /**
     * Runs {@code action} after each change of a Cluster's topology as the client learns it (a
     * failover: a replica promoted to master), on a Lettuce thread, so it must not block; never on a
     * standalone server. Closing the returned handle stops it.
     */
    public AutoCloseable onTopologyChange(Runnable action) {
        if (cluster == null) {
            return () -> { };
        }
        Disposable subscription = cluster.getResources().eventBus().get()
                .filter(ClusterTopologyChangedEvent.class::isInstance)
                .subscribe(event -> action.run());
        return subscription::dispose;
    }

    /** The client's options (tests: what both kinds of client are given). */
    io.lettuce.core.ClientOptions options() {
        return client().getOptions();
    }

    private AbstractRedisClient client() {
        return cluster != null ? cluster : standalone;
    }

    /** Shuts the client down: no quiet period, at most 2 s. */
    @Override
    public void close() {
        client().shutdown(Duration.ZERO, Duration.ofSeconds(2));
    }
}
