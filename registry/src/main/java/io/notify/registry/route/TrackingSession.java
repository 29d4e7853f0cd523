package io.notify.registry.route;

import io.lettuce.core.RedisChannelHandler;
import io.lettuce.core.RedisConnectionStateListener;
import io.lettuce.core.TrackingArgs;
import io.lettuce.core.api.push.PushMessage;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.protocol.ProtocolVersion;
import io.micrometer.core.instrument.Counter;
import io.notify.registry.RateLimitedLog;
import io.notify.registry.RedisHealth;
import io.notify.registry.RegistryConnection;
import io.notify.registry.RegistryRedis;
import java.net.SocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The router's one Redis connection: RESP3 with {@code CLIENT TRACKING ON} in default mode, so Redis
 * remembers the keys this connection read and pushes {@code invalidate} when one changes. Reads that
 * fill the {@link TrackedCache} go over this same connection, so a reply and the invalidations that
 * follow it arrive in order.
 *
 * <p>Guarantees: invalidations evict their keys; {@code invalidate} with a null key list (FLUSHALL,
 * FLUSHDB) empties the cache; the cache holds and installs nothing unless tracking was acknowledged
 * on the current connection: it is emptied and turned off at every disconnect (pushes may have been
 * lost) and turned on again only after {@code CLIENT TRACKING ON} succeeds on the new connection. A
 * connection that claims to be open but stops answering PINGs {@code deadAfterChecks} times in a row
 * is treated the same way and replaced. The first connect is retried in the background, so the
 * router may start while Redis is down. Never blocks a Netty thread: checks and connects run on the
 * given scheduler.
 *
 * <p>On a Redis Cluster the session never turns tracking on (see {@link RedisRouteLookup}): the
 * cache stays off, the connection is Lettuce's cluster connection and the checks only PING.
 */
final class TrackingSession implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(TrackingSession.class);

    private final RegistryRedis redis;
    private final boolean tracks;
    private final TrackedCache cache;
    private final RedisHealth health;
    private final Counter keyInvalidations;
    private final Counter flushInvalidations;
    private final ScheduledExecutorService scheduler;
    private final Duration checkTimeout;
    private final int deadAfterChecks;
    private final AtomicBoolean enabling = new AtomicBoolean();
    private volatile RegistryConnection connection;
    private volatile boolean closed;
    private int failedChecks; // scheduler thread only

    TrackingSession(RegistryRedis redis, TrackedCache cache, RedisHealth health, Counter keyInvalidations,
                    Counter flushInvalidations, ScheduledExecutorService scheduler, Duration checkTimeout,
                    int deadAfterChecks) {
        if (!redis.cluster() && redis.protocol() == ProtocolVersion.RESP2) {
            throw new IllegalArgumentException("the route lookup needs RESP3 (client-side caching pushes); the Redis "
                    + "client is configured for RESP2: use RegistryClients.options(..) or protocolVersion(RESP3)");
        }
        this.redis = redis;
        this.tracks = !redis.cluster();
        this.cache = cache;
        this.health = health;
        this.keyInvalidations = keyInvalidations;
        this.flushInvalidations = flushInvalidations;
        this.scheduler = scheduler;
        this.checkTimeout = checkTimeout;
        this.deadAfterChecks = deadAfterChecks;
    }

    /** Connects now if Redis answers, then checks the connection every {@code interval}. */
    void start(Duration interval) {
        connect();
        scheduler.scheduleWithFixedDelay(this::check, interval.toMillis(), interval.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** The connection, or null before the first successful connect. May be closed (reconnecting). */
    RegistryConnection connection() {
        return connection;
    }

    /** Whether a prefetch can help a lookup: the cache takes reads (standalone), or nothing is cached at all (Cluster). */
    boolean prefetches() {
        return !tracks || cache.tracking();
    }

    /** Asks Redis to track this connection again if it is open and tracking is off; returns at once. */
    void enableTracking() {
        RegistryConnection c = connection;
        if (!tracks || closed || c == null || !c.isOpen() || cache.tracking() || !enabling.compareAndSet(false, true)) {
            return;
        }
        try {
            c.async().clientTracking(TrackingArgs.Builder.enabled()).toCompletableFuture()
                    .orTimeout(checkTimeout.toMillis(), TimeUnit.MILLISECONDS)
                    .whenComplete((ok, failure) -> {
                        enabling.set(false);
                        if (failure == null && connection == c && c.isOpen()) {
                            cache.trackingOn();
                            health.up();
                        } else if (failure != null) {
                            health.down("CLIENT TRACKING ON failed: " + RateLimitedLog.describe(failure));
                        }
                    });
        } catch (RuntimeException e) {
            enabling.set(false);
            health.down("CLIENT TRACKING ON failed: " + RateLimitedLog.describe(e));
        }
    }

    private void connect() {
        if (closed) {
            return;
        }
        RegistryConnection c;
        try {
            c = redis.connect();
        } catch (RuntimeException e) {
            health.down("cannot connect: " + RateLimitedLog.describe(e));
            return;
        }
        if (!tracks) {
            connection = c;
            failedChecks = 0;
            return; // Lettuce follows the cluster's topology and reconnects; nothing is cached
        }
        c.standalone().addListener(this::onPush);
        c.stateful().addListener(new RedisConnectionStateListener() {
            @Override
            public void onRedisDisconnected(RedisChannelHandler<?, ?> handler) {
                cache.trackingOff(); // invalidations sent while we were away are lost
                if (!closed) {
                    health.down("connection lost");
                }
            }

            @Override
            public void onRedisConnected(RedisChannelHandler<?, ?> handler, SocketAddress address) {
                scheduler.execute(TrackingSession.this::enableTracking); // off the event loop
            }
        });
        connection = c;
        failedChecks = 0;
        enableTracking();
    }

    private void onPush(PushMessage message) {
        if (!"invalidate".equals(message.getType())) {
            return;
        }
        List<Object> content = message.getContent(StringCodec.UTF8::decodeKey);
        Object keys = content.size() > 1 ? content.get(1) : null;
        if (keys instanceof List<?> list) {
            for (Object key : list) {
                cache.invalidate(String.valueOf(key));
            }
            keyInvalidations.increment(list.size());
        } else {
            cache.invalidateAll();
            flushInvalidations.increment();
        }
    }

    private void check() {
        if (closed) {
            return;
        }
        RegistryConnection c = connection;
        if (c == null) {
            connect();
            return;
        }
        if (!c.isOpen()) {
            return; // Lettuce is reconnecting; the disconnect already turned tracking off
        }
        try {
            c.async().ping().toCompletableFuture().get(checkTimeout.toMillis(), TimeUnit.MILLISECONDS);
            failedChecks = 0;
            if (cache.tracking() || !tracks) {
                health.up();
            } else {
                enableTracking();
            }
        } catch (TimeoutException | java.util.concurrent.ExecutionException | RuntimeException e) {
            health.down("no PING answer within " + checkTimeout + ": " + RateLimitedLog.describe(e));
            if (++failedChecks >= deadAfterChecks) {
                LOG.warn("Redis connection open but silent for {} checks; dropping the cache and reconnecting", failedChecks);
                cache.trackingOff();
                connection = null;
                c.closeAsync();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        closed = true;
        cache.trackingOff();
        RegistryConnection c = connection;
        if (c != null) {
            c.close();
        }
    }
}
