package io.notify.registry.lease;

import io.lettuce.core.SetArgs;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.notify.protocol.stream.StreamId;
import io.notify.registry.RateLimitedLog;
import io.notify.registry.RedisHealth;
import io.notify.registry.RegistryConnection;
import io.notify.registry.RegistryRedis;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The heartbeat loop of a {@link NodeRegistry}, on a thread of its own: sets the liveness key every
 * tick ({@code SET key incarnation PX ttl GET}), checks every verify interval that Redis has every
 * member it holds (read-only) and writes again only those it lacks, renews all leases every renew
 * interval in one pipelined {@link LeaseBatch}, and re-registers everything (then repeats pending
 * removals) whenever Redis may have lost or missed writes: after any failure, when the liveness key
 * turns out to have been missing, or when a renewal finds fewer members than the node holds. On a
 * Redis Cluster, a change of topology (a failover, which loses what the dead master acknowledged but
 * had not replicated) brings the read-only check forward to the next tick.
 *
 * <p>Owns the node's two connections: one for single writes (auto-flush) and one for batches
 * (auto-flush off, used only by the heartbeat thread and, after it ended, by {@link #stop}).
 */
final class NodeHeartbeat {

    private static final Logger LOG = LoggerFactory.getLogger(NodeHeartbeat.class);
    private static final int MAX_PENDING_REMOVALS = 100_000;
    private static final int DEAD_AFTER_TICKS = 3;

    private record Pending(StreamId stream, String connectionId) {
    }

    private final NodeRegistry node;
    private final RegistryRedis redis;
    private final NodeRegistryConfig config;
    private final HeldConnections held;
    private final RedisHealth health;
    private final String aliveKey;
    private final ScheduledExecutorService scheduler;
    private final Timer renewLatency;
    private final Timer reRegisterLatency;
    private final Timer verifyLatency;
    private final Counter renewFailures;
    private final Counter verifyMissing;
    private final CompletableFuture<Void> firstAlive = new CompletableFuture<>();
    private final Set<Pending> pendingRemovals = ConcurrentHashMap.newKeySet();
    private volatile RegistryConnection ops;
    private volatile boolean fullNeeded = true;
    /** The Cluster's topology changed (a failover may have lost acknowledged writes): check at the next tick. */
    private volatile boolean checkNow;
    private final AutoCloseable topologyWatch;
    /** A re-registration or a check's repair is writing members: unregisters meanwhile are repeated after it. */
    private volatile boolean batchWriting;
    private RegistryConnection batchConnection; // heartbeat thread only
    private LeaseBatch batch;
    private long nextRenewAtMs;
    private long nextVerifyAtMs;
    private long aliveSetAtNanos;
    private volatile boolean stopping;
    private boolean aliveSetBefore;
    private int failedTicks;
    private final RateLimitedLog takeoverLog = new RateLimitedLog(LOG, Duration.ofMinutes(1));

    NodeHeartbeat(NodeRegistry node, RegistryRedis redis, NodeRegistryConfig config, HeldConnections held,
                  RedisHealth health, MeterRegistry meters, Tags tags) {
        this.node = node;
        this.redis = redis;
        this.config = config;
        this.held = held;
        this.health = health;
        this.aliveKey = node.keys().alive(node.nodeId());
        this.scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "notify-registry-heartbeat-" + node.nodeId());
            t.setDaemon(true);
            return t;
        });
        this.renewLatency = renewTimer(meters, tags, "renew");
        this.reRegisterLatency = renewTimer(meters, tags, "reregister");
        this.verifyLatency = renewTimer(meters, tags, "verify");
        this.renewFailures = Counter.builder("notify.registry.renew.failures").tags(tags)
                .description("lease renewal / re-registration batches that failed").register(meters);
        this.verifyMissing = Counter.builder("notify.registry.verify.missing").tags(tags)
                .description("members a read-only check found missing in Redis and wrote again")
                .register(meters);
        // a master that dies takes the writes it acknowledged but had not replicated yet: look at once
        this.topologyWatch = redis.onTopologyChange(() -> checkNow = true);
    }

    CompletionStage<Void> start() {
        long tick = config.tick().toMillis();
        scheduler.scheduleWithFixedDelay(this::tick, 0, tick, TimeUnit.MILLISECONDS);
        return firstAlive.copy();
    }

    RegistryConnection connection() {
        return ops;
    }

    /** A registration failed: the next tick writes all registrations again. */
    void reRegisterSoon() {
        fullNeeded = true;
    }

    /** An unregister raced a re-registration batch, which may have written the member back. */
    void noteRemoval(StreamId stream, String connectionId) {
        if (batchWriting) {
            addPending(stream, connectionId);
        }
    }

    /** An unregister was not confirmed: remove the member again once Redis answers. */
    void retryRemoval(StreamId stream, String connectionId) {
        addPending(stream, connectionId);
        fullNeeded = true;
    }

    private void addPending(StreamId stream, String connectionId) {
        if (pendingRemovals.size() < MAX_PENDING_REMOVALS) {
            pendingRemovals.add(new Pending(stream, connectionId)); // beyond the bound, leases expire them
        }
    }

    private void tick() {
        try {
            if (!connected()) {
                fullNeeded = true;
                return;
            }
            refreshAlive();
            failedTicks = 0;
            long now = node.clock().millis();
            if (fullNeeded) {
                reRegister(now);
            } else if (now >= nextRenewAtMs) {
                renew(now);
            } else if (now >= nextVerifyAtMs || checkNow) {
                verify(now);
            }
        } catch (RuntimeException e) {
            fullNeeded = true;
            health.down(RateLimitedLog.describe(e));
            boolean silent = !RateLimitedLog.isCommandError(e) && ops != null && ops.isOpen();
            if (silent && ++failedTicks >= DEAD_AFTER_TICKS) {
                // open but silent (a half-open TCP connection is never noticed by Lettuce): start afresh
                LOG.warn("node {}: Redis connection open but unanswered for {} heartbeats; reconnecting", node.nodeId(), failedTicks);
                closeConnections();
                failedTicks = 0;
            }
        }
    }

    private boolean connected() {
        if (ops == null) {
            try {
                RegistryConnection single = redis.connect();
                try {
                    batchConnection = redis.connect();
                } catch (RuntimeException e) {
                    single.close();
                    throw e;
                }
                batch = new LeaseBatch(batchConnection, config.batchCommands(), config.writeTimeout(), this::refreshAliveIfDue);
                ops = single;
            } catch (RuntimeException e) {
                health.down("cannot connect: " + RateLimitedLog.describe(e));
                return false;
            }
        }
        if (!ops.isOpen() || !batchConnection.isOpen()) {
            health.down("connection lost");
            return false; // Lettuce reconnects; nothing is queued meanwhile
        }
        return true;
    }

    /** Mid-batch: a long batch must not let the liveness key expire (routers would give the node up). */
    private void refreshAliveIfDue() {
        if (!stopping && System.nanoTime() - aliveSetAtNanos >= config.aliveRefresh().toNanos()) {
            refreshAlive();
        }
    }

    private void refreshAlive() {
        String previous = LeaseBatch.await(ops.async().setGet(aliveKey, node.incarnation(),
                SetArgs.Builder.px(config.aliveTtl().toMillis())), "refresh " + aliveKey, config.writeTimeout().toNanos());
        aliveSetAtNanos = System.nanoTime();
        health.up();
        if (!node.incarnation().equals(previous)) {
            if (previous != null && aliveSetBefore) {
                takeoverLog.warn(aliveKey + " named incarnation " + previous + " instead of " + node.incarnation()
                        + ": another process runs with node id " + node.nodeId(), null);
            } else if (previous != null) {
                LOG.info("node {} incarnation {} replaces incarnation {} (a restart within the liveness TTL)",
                        node.nodeId(), node.incarnation(), previous);
            } else if (aliveSetBefore) {
                LOG.info("{} had expired or was lost (Redis restart, flush, or a long pause); re-registering {} connections",
                        aliveKey, held.size());
            }
            fullNeeded = true;
        }
        aliveSetBefore = true;
        firstAlive.complete(null);
    }

    private void renew(long now) {
        Map<String, List<String>> members = members(held.snapshot());
        int expected = members.values().stream().mapToInt(List::size).sum();
        long begin = System.nanoTime();
        try {
            long renewed = batch.upsert(members, now + config.lease().toMillis(), true,
                    config.connectionsKeyTtl().toMillis(), begin + config.renewInterval().toNanos());
            renewLatency.record(System.nanoTime() - begin, TimeUnit.NANOSECONDS);
            nextRenewAtMs = now + config.renewInterval().toMillis();
            nextVerifyAtMs = now + config.verifyInterval().toMillis();
            if (renewed < expected) {
                LOG.debug("renewal found {} of {} members of node {}; re-registering all", renewed, expected, node.nodeId());
                fullNeeded = true; // lost in Redis, or unregistered meanwhile: a full write settles it
            }
        } catch (RuntimeException e) {
            renewFailures.increment();
            throw e;
        }
    }

    /**
     * Read-only: are all held members still in Redis? Those missing (lost, or removed as a dead
     * node's while this one was frozen, or still in flight) are written again, and only they: a full
     * re-registration would rewrite every score and so invalidate every router's cached copy. As in
     * a re-registration, unregisters that race it are repeated afterwards.
     */
    private void verify(long now) {
        checkNow = false;
        batchWriting = true; // from before the snapshot: an unregister meanwhile is repeated after the repair
        long begin = System.nanoTime();
        try {
            Map<String, List<String>> missing = batch.missing(members(held.snapshot()), begin + config.renewInterval().toNanos());
            verifyLatency.record(System.nanoTime() - begin, TimeUnit.NANOSECONDS);
            nextVerifyAtMs = now + config.verifyInterval().toMillis();
            if (!missing.isEmpty()) {
                int n = missing.values().stream().mapToInt(List::size).sum();
                verifyMissing.increment(n);
                LOG.debug("check found {} members of node {} missing in Redis; writing them again", n, node.nodeId());
                batch.upsert(missing, now + config.lease().toMillis(), false, config.connectionsKeyTtl().toMillis(),
                        begin + config.renewInterval().toNanos());
            }
        } finally {
            batchWriting = false;
        }
        removePending(begin);
    }

    private void reRegister(long now) {
        batchWriting = true;
        long begin = System.nanoTime();
        try {
            Map<String, List<String>> members = members(held.snapshot());
            fullNeeded = false; // before: a liveness refresh mid-batch that finds the key gone asks for another pass
            batch.upsert(members, now + config.lease().toMillis(), false,
                    config.connectionsKeyTtl().toMillis(), begin + config.renewInterval().toNanos());
            nextRenewAtMs = now + config.renewInterval().toMillis();
            nextVerifyAtMs = now + config.verifyInterval().toMillis();
        } catch (RuntimeException e) {
            renewFailures.increment();
            throw e;
        } finally {
            batchWriting = false;
        }
        removePending(begin);
        reRegisterLatency.record(System.nanoTime() - begin, TimeUnit.NANOSECONDS);
    }

    /** Removes members unregistered during a re-registration or whose removal failed, unless held again. */
    private void removePending(long beginNanos) {
        if (pendingRemovals.isEmpty()) {
            return;
        }
        List<Pending> drained = new ArrayList<>(pendingRemovals);
        pendingRemovals.removeAll(drained);
        Map<StreamId, List<String>> byStream = new HashMap<>();
        for (Pending p : drained) {
            if (!held.contains(p.stream(), p.connectionId())) {
                byStream.computeIfAbsent(p.stream(), s -> new ArrayList<>()).add(p.connectionId());
            }
        }
        try {
            batch.remove(members(byStream), List.of(), beginNanos + config.renewInterval().toNanos());
        } catch (RuntimeException e) {
            pendingRemovals.addAll(drained);
            fullNeeded = true;
            throw e;
        }
    }

    void halt() {
        scheduler.shutdownNow();
        stopWatching();
    }

    private void stopWatching() {
        try {
            topologyWatch.close();
        } catch (Exception e) {
            LOG.debug("ending the topology watch: {}", e.toString());
        }
    }

    /** Stops the loop, then deletes the liveness key and every member of this node, pipelined. */
    void stop(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        stopping = true; // the removal batch below must not set the liveness key again between its flushes
        stopWatching();
        scheduler.shutdown();
        try {
            if (!scheduler.awaitTermination(timeout.toMillis() / 2, TimeUnit.MILLISECONDS)) {
                scheduler.shutdownNow();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            scheduler.shutdownNow();
        }
        Map<String, List<String>> members = members(held.snapshot());
        int count = held.size();
        held.clear();
        try {
            if (batch != null) {
                batch.remove(members, List.of(aliveKey), deadline);
                LOG.info("node {} left the registry: liveness key and {} connections removed", node.nodeId(), count);
            }
        } catch (RuntimeException e) {
            LOG.warn("node {} could not remove its {} registrations on stop ({}); they expire with their leases",
                    node.nodeId(), count, e.getMessage());
        } finally {
            closeConnections();
        }
    }

    private void closeConnections() {
        RegistryConnection single = ops;
        ops = null;
        if (single != null) {
            single.close();
        }
        if (batchConnection != null) {
            batchConnection.close();
            batchConnection = null;
        }
    }

    private Map<String, List<String>> members(Map<StreamId, List<String>> byStream) {
        return HeldConnections.membersByKey(byStream, node.keys(), node.nodeId(), node.incarnation());
    }

    private static Timer renewTimer(MeterRegistry meters, Tags tags, String mode) {
        return Timer.builder("notify.registry.renew.latency").tags(tags).tag("mode", mode)
                .description("time of one pipelined renewal (renew), re-registration (reregister) or read-only check (verify) batch")
                .register(meters);
    }
}
