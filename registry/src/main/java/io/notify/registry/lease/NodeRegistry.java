package io.notify.registry.lease;

import io.lettuce.core.RedisFuture;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.notify.protocol.stream.Endpoints;
import io.notify.protocol.stream.StreamId;
import io.notify.registry.ConnectionRef;
import io.notify.registry.RateLimitedLog;
import io.notify.registry.RedisHealth;
import io.notify.registry.RegistryClients;
import io.notify.registry.RegistryConnection;
import io.notify.registry.RegistryKeys;
import io.notify.registry.RegistryRedis;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The gateway side of the registry, one per gateway process: registers its connections in Redis
 * as leases ({@code nf:conns:{stream}}, member {@code node|incarnation|conn}, score = expiry) and
 * keeps them and the node's liveness key alive from a heartbeat loop.
 *
 * <p>Guarantees:
 * <ul>
 *   <li>the node's connections are remembered locally whatever Redis does; a registration that Redis
 *       did not confirm within {@code writeTimeout} completes exceptionally with a
 *       {@link RegistryUnavailableException} but stays registered locally;</li>
 *   <li>every {@code aliveRefresh} the liveness key is set to this incarnation with TTL
 *       {@code aliveTtl}; every {@code renewInterval} all leases are renewed in one pipelined batch
 *       ({@code ZADD XX}: a renewal never resurrects a connection unregistered meanwhile);</li>
 *   <li>after Redis was unreachable, lost the liveness key (restart, flush, failover) or lost leases,
 *       the next heartbeat re-registers every local connection ({@code ZADD}) and repeats the
 *       removals that failed or raced it, so Redis converges to exactly the local set;</li>
 *   <li>removal is exact: only this node's own member is removed, never another node's;</li>
 *   <li>{@link #stop()} deletes the liveness key and the node's members within {@code stopTimeout}.</li>
 * </ul>
 * The heartbeat runs on its own thread, never a Netty thread. State changes of Redis are logged once.
 */
public final class NodeRegistry implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(NodeRegistry.class);
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final String KEPT = " (kept locally; the next heartbeat that reaches Redis registers it again)";
    /** Consecutive write timeouts after which the writer's connection is replaced. */
    private static final int SILENT_WRITES_BEFORE_RECONNECT = 3;
    private static final String RETRIED = " (forgotten locally; the next heartbeat that reaches Redis removes it again)";

    private final String nodeId;
    private final String incarnation;
    private final NodeRegistryConfig config;
    private final RegistryKeys keys;
    private final Clock clock;
    private final HeldConnections held = new HeldConnections();
    private final Semaphore writes;
    private final RedisHealth health;
    private final Counter registerFailures;
    private final Counter unregisterFailures;
    private final NodeHeartbeat heartbeat;
    private final RegistryWriter writer;
    private final AtomicInteger silentWrites = new AtomicInteger();
    private final AtomicBoolean started = new AtomicBoolean();
    private final AtomicBoolean stopped = new AtomicBoolean();

    /**
     * @param incarnation fresh at every process start: {@link #newIncarnation()}
     * @param redis       from {@link RegistryClients}; connections are opened by {@link #start()}
     */
    public NodeRegistry(String nodeId, String incarnation, NodeRegistryConfig config, RegistryKeys keys,
                        RegistryRedis redis, Clock clock, MeterRegistry meters) {
        this.nodeId = Endpoints.requireNodeId(nodeId);
        this.incarnation = Endpoints.requireConnectionId(incarnation);
        this.config = config;
        this.keys = keys;
        this.clock = clock;
        this.writes = new Semaphore(config.maxOutstandingWrites());
        Tags tags = Tags.of("role", "node", "node", nodeId);
        this.health = new RedisHealth("registry of node " + nodeId, LOG, meters, tags);
        Gauge.builder("notify.registry.node.connections", held, HeldConnections::size).tags(tags)
                .description("connections this node holds registered (locally)").register(meters);
        this.registerFailures = failures(meters, tags, "register");
        this.unregisterFailures = failures(meters, tags, "unregister");
        this.heartbeat = new NodeHeartbeat(this, redis, config, held, health, meters, tags);
        this.writer = new RegistryWriter(redis, nodeId);
    }

    /** A new incarnation id: time-ordered, random, valid as an {@link Endpoints} connection id. */
    public static String newIncarnation() {
        return Long.toString(System.currentTimeMillis(), 36) + "-" + Long.toString(RANDOM.nextLong() >>> 1, 36);
    }

    /**
     * Connects and starts the heartbeat. The stage completes when the liveness key is set for the
     * first time (open the listener then); while Redis is unreachable it stays pending and the
     * heartbeat keeps trying.
     */
    public CompletionStage<Void> start() {
        if (!started.compareAndSet(false, true)) {
            throw new IllegalStateException("node registry " + nodeId + " already started");
        }
        return heartbeat.start();
    }

    /** Registers a connection of this node: {@code ZADD} with score now + lease, plus the key's TTL. */
    public CompletionStage<Void> register(StreamId stream, String connectionId) {
        ConnectionRef ref = new ConnectionRef(nodeId, incarnation, connectionId);
        requireRunning();
        held.add(stream, connectionId);
        String key = keys.connections(stream);
        long expiresAt = clock.millis() + config.lease().toMillis();
        return write(() -> "register " + ref.member() + " in " + key, KEPT, registerFailures,
                redis -> List.of(redis.zadd(key, expiresAt, ref.member()),
                        redis.pexpire(key, config.connectionsKeyTtl().toMillis())),
                heartbeat::reRegisterSoon);
    }

    /** Removes exactly this node's member for the connection ({@code ZREM}) and forgets it. */
    public CompletionStage<Void> unregister(StreamId stream, String connectionId) {
        ConnectionRef ref = new ConnectionRef(nodeId, incarnation, connectionId);
        held.remove(stream, connectionId);
        heartbeat.noteRemoval(stream, connectionId);
        String key = keys.connections(stream);
        return write(() -> "unregister " + ref.member() + " from " + key, RETRIED, unregisterFailures,
                redis -> List.of(redis.zrem(key, ref.member())),
                () -> heartbeat.retryRemoval(stream, connectionId));
    }

    /**
     * Stops the heartbeat, deletes the liveness key and removes every member of this node, pipelined,
     * within {@code stopTimeout}; what could not be removed expires with its lease. Idempotent.
     */
    public void stop() {
        if (!stopped.compareAndSet(false, true)) {
            return;
        }
        heartbeat.stop(config.stopTimeout());
        writer.close();
    }

    @Override
    public void close() {
        stop();
    }

    /** Stops the heartbeat and nothing else, as a crash or a frozen process would: for tests. */
    void haltHeartbeat() {
        heartbeat.halt();
    }

    public String nodeId() {
        return nodeId;
    }

    public String incarnation() {
        return incarnation;
    }

    /** Connections registered locally (whether or not Redis has them right now). */
    public int registeredConnections() {
        return held.size();
    }

    public boolean redisAvailable() {
        return health.isUp();
    }

    RegistryKeys keys() {
        return keys;
    }

    Clock clock() {
        return clock;
    }

    private CompletionStage<Void> write(Supplier<String> what, String note, Counter failures,
                                        Function<RedisClusterAsyncCommands<String, String>, List<RedisFuture<?>>> commands,
                                        Runnable onFailure) {
        RegistryConnection c = heartbeat.connection();
        if (c == null || !c.isOpen()) {
            return fail(failures, onFailure, new RegistryUnavailableException(what.get() + ": not connected to Redis" + note));
        }
        if (!writes.tryAcquire()) {
            return fail(failures, onFailure, new RegistryUnavailableException(what.get() + ": "
                    + config.maxOutstandingWrites() + " registry writes outstanding already" + note));
        }
        CompletableFuture<Void> all = writer.submit(commands);
        all.whenComplete((ok, failure) -> writes.release()); // the permit follows Lettuce, not our timeout
        CompletableFuture<Void> result = new CompletableFuture<>();
        all.copy().orTimeout(config.writeTimeout().toMillis(), TimeUnit.MILLISECONDS).whenComplete((ok, failure) -> {
            if (failure == null) {
                silentWrites.set(0);
                health.up();
                result.complete(null);
                return;
            }
            if (failure instanceof java.util.concurrent.TimeoutException && silentWrites.incrementAndGet() % SILENT_WRITES_BEFORE_RECONNECT == 0) {
                writer.replaceConnection(); // open but unanswered (half-open TCP): the next batch reconnects
            }
            String why = failure instanceof java.util.concurrent.TimeoutException
                    ? "no answer from Redis within " + config.writeTimeout().toMillis() + " ms"
                    : RateLimitedLog.describe(failure);
            if (!RateLimitedLog.isCommandError(failure)) {
                health.down(why);
            }
            fail(failures, onFailure, new RegistryUnavailableException(what.get() + " failed: " + why + note, failure))
                    .whenComplete((never, error) -> result.completeExceptionally(error));
        });
        return result;
    }

    private static CompletableFuture<Void> fail(Counter failures, Runnable onFailure, RegistryUnavailableException e) {
        failures.increment();
        onFailure.run();
        return CompletableFuture.failedFuture(e);
    }

    private void requireRunning() {
        if (stopped.get()) {
            throw new IllegalStateException("node registry " + nodeId + " is stopped");
        }
    }

    private static Counter failures(MeterRegistry meters, Tags tags, String op) {
        return Counter.builder("notify.registry.writes.failed").tags(tags).tag("op", op)
                .description("register/unregister writes Redis did not confirm").register(meters);
    }
}
