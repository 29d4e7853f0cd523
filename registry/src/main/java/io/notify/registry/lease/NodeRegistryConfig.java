package io.notify.registry.lease;

import static io.notify.registry.SettingChecks.requirePositive;

import io.notify.common.config.ConfigException;
import io.notify.common.config.Settings;
import java.time.Duration;

/**
 * Timings and bounds of a {@link NodeRegistry}; {@link #defaults()} are the ones docs/gateway.md lists, and
 * {@link #load(Settings)} reads the {@code notify.registry.*} settings a gateway node can be given.
 *
 * <p>Why these defaults: what stops routing to a crashed or frozen node is its liveness key, which
 * lives 4 s and is refreshed every 1 s (three refreshes may fail before a healthy node looks dead).
 * A member's own lease only collects members that a live node no longer holds and failed to remove
 * (a removal lost in a failover, or beyond the pending-removal bound), so it is long: 30 min,
 * renewed every 10 min, which survives two missed renewals. Every renewal rewrites the member's
 * score, and a rewrite invalidates the key in every router's client-side cache: renewing every
 * 15 s (the old default) invalidated one key per nine routed events in bench fanout (0.112 per
 * event at 10,000 users, 0.0002 with these defaults), each costing that user's next event a read. Whether Redis still has every member is checked far more often, every
 * 15 s, with reads only ({@code ZMSCORE}), which invalidate nothing; members found missing are
 * written again, and only they.
 *
 * @param lease              how long a registration is valid without renewal (the sorted-set score is now + lease)
 * @param renewInterval      how often all leases of the node are renewed in one pipelined batch
 * @param verifyInterval     how often Redis is checked, read-only, for every member the node holds
 * @param aliveTtl           TTL of {@code nf:alive:<node>}
 * @param aliveRefresh       how often the liveness key is set again (also the heartbeat tick)
 * @param writeTimeout       how long one write (register, unregister, liveness) or one batch flush may take
 * @param batchCommands      commands per flush in renew / re-register / stop batches
 * @param maxOutstandingWrites register/unregister writes in flight at once; beyond it they fail at once
 * @param stopTimeout        bound of {@link NodeRegistry#stop()}
 */
public record NodeRegistryConfig(Duration lease, Duration renewInterval, Duration verifyInterval,
                                 Duration aliveTtl, Duration aliveRefresh, Duration writeTimeout, int batchCommands, int maxOutstandingWrites, Duration stopTimeout) {

    public NodeRegistryConfig {
        requirePositive("lease", lease);
        requirePositive("renewInterval", renewInterval);
        requirePositive("verifyInterval", verifyInterval);
        requirePositive("aliveTtl", aliveTtl);
        requirePositive("aliveRefresh", aliveRefresh);
        requirePositive("writeTimeout", writeTimeout);
        requirePositive("stopTimeout", stopTimeout);
        requirePositive("batchCommands", batchCommands);
        requirePositive("maxOutstandingWrites", maxOutstandingWrites);
        if (renewInterval.compareTo(lease) >= 0) {
            throw new IllegalArgumentException("registry setting renewInterval (" + renewInterval
                    + ") must be shorter than lease (" + lease + ")");
        }
        if (aliveRefresh.compareTo(aliveTtl) >= 0) {
            throw new IllegalArgumentException("registry setting aliveRefresh (" + aliveRefresh
                    + ") must be shorter than aliveTtl (" + aliveTtl + ")");
        }
    }

    public static NodeRegistryConfig defaults() {
        return new NodeRegistryConfig(Duration.ofMinutes(30), Duration.ofMinutes(10), Duration.ofSeconds(15),
                Duration.ofSeconds(4), Duration.ofSeconds(1), Duration.ofSeconds(2), 1000, 10_000, Duration.ofSeconds(5));
    }

    /**
     * The registry timings a gateway node can be told: {@code notify.registry.lease}, {@code
     * renew-interval}, {@code verify-interval}, {@code alive-ttl}, {@code alive-refresh}; the rest is
     * {@link #defaults()}, as is every timing not set. Shorter timings make a dead or frozen node stop
     * being routed to sooner, at the cost of more Redis writes; chaos runs use them to keep a quick
     * mode quick.
     *
     * @throws ConfigException naming the setting that is out of its bounds or not shorter than its pair
     */
    public static NodeRegistryConfig load(Settings s) {
        NodeRegistryConfig d = defaults();
        Duration lease = s.duration("notify.registry.lease", d.lease(), Duration.ofSeconds(1), Duration.ofHours(1));
        Duration renew = s.duration("notify.registry.renew-interval", d.renewInterval(), Duration.ofMillis(100), Duration.ofHours(1));
        Duration aliveTtl = s.duration("notify.registry.alive-ttl", d.aliveTtl(), Duration.ofSeconds(1), Duration.ofMinutes(10));
        Duration aliveRefresh = s.duration("notify.registry.alive-refresh", d.aliveRefresh(), Duration.ofMillis(100),
                Duration.ofMinutes(5));
        if (renew.compareTo(lease) >= 0) {
            throw new ConfigException("notify.registry.renew-interval", "must be shorter than notify.registry.lease");
        }
        if (aliveRefresh.compareTo(aliveTtl) >= 0) {
            throw new ConfigException("notify.registry.alive-refresh", "must be shorter than notify.registry.alive-ttl");
        }
        NodeRegistryConfig timed = d.withTimings(lease, renew, aliveTtl, aliveRefresh);
        return timed.withVerifyInterval(s.duration("notify.registry.verify-interval", timed.verifyInterval(),
                Duration.ofMillis(100), Duration.ofHours(1)));
    }

    /** Other timings; the verify interval becomes at most the renew interval. */
    public NodeRegistryConfig withTimings(Duration lease, Duration renewInterval, Duration aliveTtl, Duration aliveRefresh) {
        Duration verify = verifyInterval.compareTo(renewInterval) <= 0 ? verifyInterval : renewInterval;
        return new NodeRegistryConfig(lease, renewInterval, verify, aliveTtl, aliveRefresh, writeTimeout, batchCommands,
                maxOutstandingWrites, stopTimeout);
    }

    public NodeRegistryConfig withVerifyInterval(Duration value) {
        return new NodeRegistryConfig(lease, renewInterval, value, aliveTtl, aliveRefresh, writeTimeout, batchCommands,
                maxOutstandingWrites, stopTimeout);
    }

    public NodeRegistryConfig withWriteTimeout(Duration value) {
        return new NodeRegistryConfig(lease, renewInterval, verifyInterval, aliveTtl, aliveRefresh, value, batchCommands,
                maxOutstandingWrites, stopTimeout);
    }

    public NodeRegistryConfig withBatchCommands(int value) {
        return new NodeRegistryConfig(lease, renewInterval, verifyInterval, aliveTtl, aliveRefresh, writeTimeout, value,
                maxOutstandingWrites, stopTimeout);
    }

    /** TTL given to every {@code nf:conns:} key on each write: two leases, so abandoned sets disappear. */
    public Duration connectionsKeyTtl() {
        return lease.multipliedBy(2);
    }

    /** The heartbeat tick: often enough for the liveness key, the checks and the renewals. */
    Duration tick() {
        Duration t = aliveRefresh.compareTo(renewInterval) <= 0 ? aliveRefresh : renewInterval;
        return t.compareTo(verifyInterval) <= 0 ? t : verifyInterval;
    }
}
