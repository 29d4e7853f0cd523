package io.notify.registry.route;

import io.micrometer.core.instrument.MeterRegistry;
import io.notify.protocol.stream.StreamId;
import io.notify.registry.ConnectionRef;
import io.notify.registry.RateLimitedLog;
import io.notify.registry.RedisHealth;
import io.notify.registry.RegistryClients;
import io.notify.registry.RegistryConnection;
import io.notify.registry.RegistryKeys;
import io.notify.registry.RegistryRedis;
import io.notify.registry.RouteFilter;
import io.notify.registry.RouteLookup;
import io.notify.registry.Routes;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The router's {@link RouteLookup} on Redis, answering from a local cache kept coherent by Redis
 * client-side caching (tracking in default mode on a RESP3 connection, see {@link TrackingSession}).
 *
 * <p>Guarantees: in steady state a lookup costs no network round trip; a cache miss costs one (two
 * when the stream names a node never seen before). {@link #lookup} never throws and never waits
 * longer than its timeout: when Redis is down, slow, or has {@code maxOutstandingReads} reads in
 * flight already, it answers {@link Routes#unavailable()} at once or at the timeout. Leases are
 * filtered at lookup time with the router's clock, so a cached entry never routes to an expired
 * lease or to a node whose liveness key's known TTL has run out. A failed or raced read is never
 * cached. When Redis comes back (Lettuce reconnects), tracking is re-enabled and caching resumes
 * with no action from the caller. Stale removal is exact ({@link StaleRemover}), asynchronous and
 * never throws.
 *
 * <p>{@link #prefetch} starts the read of a stream that is not cached (at most
 * {@code maxPrefetches} at once, apart from the lookups' own bound), so that a burst of events to
 * users the router has not seen lately costs pipelined reads instead of one round trip per event on
 * the stream thread: a lookup finds the stream cached, or joins the read in flight. A joined read
 * may have been answered from Redis a little before the lookup began; routing is a hint either way
 * (a connection registered meanwhile gets the event from its gateway's recheck, a connection gone
 * meanwhile is not there to receive it).
 *
 * <p>On a Redis Cluster nothing is cached: {@code CLIENT TRACKING} is a property of one connection
 * to one node, and Lettuce opens and replaces its connections to the masters as the topology
 * changes (a failover), so no invalidation stream covers every read. Every lookup then reads from
 * Redis (one round trip; the liveness {@code MGET} is split by slot), and prefetches are what keeps
 * a burst off the stream thread: a lookup joins the prefetch in flight.
 *
 * <p>Thread-safe; meant to be shared by all stream threads of a router process.
 */
public final class RedisRouteLookup implements RouteLookup {

    private static final Logger LOG = LoggerFactory.getLogger(RedisRouteLookup.class);

    private final RegistryKeys keys;
    private final Clock clock;
    private final TrackedCache cache;
    private final TrackingSession session;
    private final RouteReader reader;
    private final StaleRemover remover;
    private final StaleObservations observations = new StaleObservations(10_000);
    private final RedisHealth health;
    private final Semaphore outstanding;
    private final int maxOutstanding;
    private final Semaphore prefetchPermits;
    private final Map<String, CompletableFuture<RouteReader.Result>> inFlight = new ConcurrentHashMap<>();
    private final ScheduledExecutorService scheduler;
    private final RouterMetrics metrics;
    private final RateLimitedLog failureLog = new RateLimitedLog(LOG, Duration.ofSeconds(10));
    private final RateLimitedLog dataLog = new RateLimitedLog(LOG, Duration.ofSeconds(60));

    public RedisRouteLookup(RegistryRedis redis, RegistryKeys keys, Clock clock, MeterRegistry meters) {
        this(redis, keys, RouteLookupConfig.defaults(), clock, meters);
    }

    /**
     * Connects now if Redis answers (otherwise keeps trying in the background; lookups answer
     * unavailable meanwhile). Pass a client from {@link RegistryClients} for bounded Lettuce queues.
     */
    public RedisRouteLookup(RegistryRedis redis, RegistryKeys keys, RouteLookupConfig config, Clock clock, MeterRegistry meters) {
        this.keys = keys;
        this.clock = clock;
        this.maxOutstanding = config.maxOutstandingReads();
        this.outstanding = new Semaphore(maxOutstanding);
        this.prefetchPermits = new Semaphore(config.maxPrefetches());
        this.metrics = new RouterMetrics(meters);
        this.cache = new TrackedCache(config.maxCachedKeys(), metrics.evictions::increment);
        metrics.cacheSize(meters, cache);
        this.health = new RedisHealth("registry route lookup", LOG, meters, RouterMetrics.ROLE);
        this.reader = new RouteReader(keys, cache, clock);
        this.scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "notify-registry-router");
            t.setDaemon(true);
            return t;
        });
        this.session = new TrackingSession(redis, cache, health,
                metrics.keyInvalidations, metrics.flushInvalidations, scheduler,
                config.checkTimeout(), config.deadAfterChecks());
        this.remover = new StaleRemover(config.maxOutstandingRemovals());
        session.start(config.checkInterval());
    }

    @Override
    public Routes lookup(StreamId stream, Duration timeout) {
        long startNanos = System.nanoTime();
        try {
            String key = keys.connections(stream);
            StreamSnapshot cached = cache.get(key, StreamSnapshot.class);
            if (cached != null) {
                long now = clock.millis();
                Map<String, NodeAlive> alive = new HashMap<>();
                if (reader.fromCache(cached.nodes(), now, alive).isEmpty()) {
                    metrics.hits.increment();
                    return judge(key, new RouteReader.Result(cached, alive), now);
                }
            }
            return readThrough(key, cached, timeout, startNanos);
        } catch (RuntimeException e) {
            metrics.unavailable.increment();
            failureLog.warn("registry lookup of " + stream + " failed", e);
            return Routes.unavailable();
        }
    }

    @Override
    public void prefetch(StreamId stream) {
        try {
            String key = keys.connections(stream);
            if (inFlight.containsKey(key)) {
                return;
            }
            StreamSnapshot cached = cache.get(key, StreamSnapshot.class);
            if (cached != null) {
                return; // cached: at most its nodes' liveness is missing, which the lookup reads with the fleet's few keys
            }
            RegistryConnection c = session.connection();
            if (c == null || !c.isOpen() || !session.prefetches() || !health.isUp()) {
                return;
            }
            if (!prefetchPermits.tryAcquire()) {
                metrics.prefetchesAtBound.increment();
                return;
            }
            CompletableFuture<RouteReader.Result> read = send(c, key, null, prefetchPermits);
            inFlight.put(key, read);
            read.whenComplete((result, failure) -> inFlight.remove(key, read));
            metrics.prefetches.increment();
        } catch (RuntimeException e) {
            failureLog.warn("registry prefetch of " + stream + " failed", e);
        }
    }

    private Routes readThrough(String key, StreamSnapshot cached, Duration timeout, long startNanos) {
        CompletableFuture<RouteReader.Result> read = cached == null ? inFlight.get(key) : null;
        boolean joined = read != null;
        if (!joined) {
            RegistryConnection c = session.connection();
            if (c == null || !c.isOpen()) {
                return unavailable("not connected to Redis");
            }
            if (!cache.tracking()) {
                session.enableTracking(); // a no-op on a Redis Cluster, where nothing is cached
            }
            if (!outstanding.tryAcquire()) {
                return unavailable("Redis reads outstanding at their bound");
            }
            read = send(c, key, cached, outstanding);
        }
        long remaining = timeout.toNanos() - (System.nanoTime() - startNanos);
        try {
            RouteReader.Result result = read.get(Math.max(0, remaining), TimeUnit.NANOSECONDS);
            (joined ? metrics.prefetchJoins : metrics.misses).increment();
            return judge(key, result, clock.millis());
        } catch (TimeoutException e) {
            return unavailable("no answer from Redis within the lookup timeout");
        } catch (ExecutionException e) {
            return unavailable("Redis read failed: " + RateLimitedLog.describe(e.getCause()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return unavailable("interrupted");
        }
    }

    /** Sends one read holding a permit of {@code permits}, released when it completes; records its latency and Redis's health. */
    private CompletableFuture<RouteReader.Result> send(RegistryConnection c, String key, StreamSnapshot cached,
                                                      Semaphore permits) {
        long sentNanos = System.nanoTime();
        CompletableFuture<RouteReader.Result> read;
        try {
            read = reader.read(c.async(), key, cached);
        } catch (RuntimeException e) {
            permits.release();
            throw e;
        }
        read.whenComplete((result, failure) -> {
            permits.release();
            metrics.redisLatency.record(System.nanoTime() - sentNanos, TimeUnit.NANOSECONDS);
            if (RateLimitedLog.isCommandError(failure)) {
                dataLog.warn("registry read of " + key + " answered with an error", failure); // Redis is up
            } else if (failure != null) {
                health.down("read failed: " + RateLimitedLog.describe(failure));
            } else {
                health.up();
                if (result.snapshot() != cached && !result.snapshot().unparseable().isEmpty()) {
                    metrics.unparseable.increment(result.snapshot().unparseable().size());
                    dataLog.warn("ignoring registry members of " + key + " that are not node|incarnation|conn, e.g. '"
                            + result.snapshot().unparseable().get(0) + "'", null);
                }
            }
        });
        return read;
    }

    /** Applies the routing rule; remembers the reading behind any stale verdict for {@link #removeStaleAsync}. */
    private Routes judge(String key, RouteReader.Result result, long now) {
        Map<String, String> incarnations = result.incarnations(now);
        Routes routes = RouteFilter.filter(result.snapshot().leases(), incarnations, now);
        if (!routes.stale().isEmpty()) {
            observations.record(key, result.snapshot(), incarnations);
        }
        return routes;
    }

    @Override
    public void removeStale(StreamId stream, List<ConnectionRef> stale) {
        removeStaleAsync(stream, stale).exceptionally(failure -> -1L);
    }

    /**
     * As {@link #removeStale}, telling the caller the outcome: the number of members removed, -1
     * when the request was dropped (not connected, or removals at their bound); completes
     * exceptionally when Redis failed (also counted and logged). Never throws.
     */
    public CompletionStage<Long> removeStaleAsync(StreamId stream, List<ConnectionRef> stale) {
        try {
            if (stale.isEmpty()) {
                return CompletableFuture.completedFuture(0L);
            }
            RegistryConnection c = session.connection();
            if (c == null || !c.isOpen()) {
                metrics.staleDropped.increment(stale.size());
                return CompletableFuture.completedFuture(-1L);
            }
            String key = keys.connections(stream);
            long now = clock.millis();
            List<StaleRemover.Candidate> candidates = candidates(key, stale);
            return remover.remove(c.async(), key, candidates, now).whenComplete((removed, failure) -> {
                if (failure != null) {
                    metrics.staleFailed.increment(candidates.size());
                    failureLog.warn("removing " + candidates.size() + " stale members of " + key + " failed", failure);
                } else if (removed < 0) {
                    metrics.staleDropped.increment(candidates.size());
                } else {
                    metrics.staleRemoved.increment(removed);
                    metrics.staleKept.increment(candidates.size() - removed);
                }
            });
        } catch (RuntimeException e) {
            metrics.staleFailed.increment(stale.size());
            failureLog.warn("removing stale members of " + stream + " failed", e);
            return CompletableFuture.failedFuture(e);
        }
    }

    /**
     * A member's score counts as seen only if the lookup that reported it stale judged its node gone
     * (liveness key missing or naming another incarnation); otherwise only an expired lease may
     * remove it.
     */
    private List<StaleRemover.Candidate> candidates(String key, List<ConnectionRef> stale) {
        StaleObservations.Observation seen = observations.take(key);
        List<StaleRemover.Candidate> out = new ArrayList<>(stale.size());
        for (ConnectionRef ref : stale) {
            out.add(new StaleRemover.Candidate(ref, seen == null ? StaleRemover.UNSEEN : seen.scoreIfNodeGone(ref)));
        }
        return out;
    }

    /** Read round trips to Redis so far (lookups only; PING checks and removals are not reads). */
    public long redisRoundTrips() {
        return reader.roundTrips();
    }

    /** Keys in the local cache now (stream sets and node liveness keys). */
    public int cachedKeys() {
        return cache.size();
    }

    /** Redis reads in flight now; never more than {@code maxOutstandingReads}. */
    public int outstandingReads() {
        return maxOutstanding - outstanding.availablePermits();
    }

    /** True while Redis tracks this router's reads, i.e. while lookups can be served from the cache. */
    public boolean caching() {
        return cache.tracking();
    }

    public boolean redisAvailable() {
        return health.isUp();
    }

    @Override
    public void close() {
        scheduler.shutdownNow();
        session.close();
    }

    /** An expected unavailability: counted; logged by {@link RedisHealth} when Redis's state changes. */
    private Routes unavailable(String why) {
        metrics.unavailable.increment();
        if (LOG.isDebugEnabled()) {
            LOG.debug("registry lookup unavailable: {}", why);
        }
        return Routes.unavailable();
    }
}
