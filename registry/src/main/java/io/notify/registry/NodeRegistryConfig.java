package io.notify.registry;

import java.time.Duration;

/**
 * Timings and bounds of a {@link NodeRegistry}; {@link #defaults()} are the ones docs/gateway.md lists (notify.registry.*).
 *
 * <p>Why these defaults: a lease of 45 s renewed every 15 s survives two missed renewals (a GC
 * pause, a slow Redis) before a live connection disappears from routing; the liveness key lives 10 s
 * and is refreshed every 3 s, so a crashed node stops being routed to within ~10 s, long before its
 * leases run out, while three refreshes may fail before a healthy node looks dead.
 *
 * @param lease              how long a registration is valid without renewal (the sorted-set score is now + lease)
 * @param renewInterval      how often all leases of the node are renewed in one pipelined batch
 * @param aliveTtl           TTL of {@code nf:alive:<node>}
 * @param aliveRefresh       how often the liveness key is set again (also the heartbeat tick)
 * @param writeTimeout       how long one write (register, unregister, liveness) or one batch flush may take
 * @param batchCommands      commands per flush in renew / re-register / stop batches
 * @param maxOutstandingWrites register/unregister writes in flight at once; beyond it they fail at once
 * @param stopTimeout        bound of {@link NodeRegistry#stop()}
 */
public record NodeRegistryConfig(Duration lease, Duration renewInterval, Duration aliveTtl, Duration aliveRefresh,
                                 Duration writeTimeout, int batchCommands, int maxOutstandingWrites, Duration stopTimeout) {

    public NodeRegistryConfig {
        RouteLookupConfig.requirePositive("lease", lease);
        RouteLookupConfig.requirePositive("renewInterval", renewInterval);
        RouteLookupConfig.requirePositive("aliveTtl", aliveTtl);
        RouteLookupConfig.requirePositive("aliveRefresh", aliveRefresh);
        RouteLookupConfig.requirePositive("writeTimeout", writeTimeout);
        RouteLookupConfig.requirePositive("stopTimeout", stopTimeout);
        RouteLookupConfig.requirePositive("batchCommands", batchCommands);
        RouteLookupConfig.requirePositive("maxOutstandingWrites", maxOutstandingWrites);
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
        return new NodeRegistryConfig(Duration.ofSeconds(45), Duration.ofSeconds(15), Duration.ofSeconds(10),
                Duration.ofSeconds(3), Duration.ofSeconds(2), 1000, 10_000, Duration.ofSeconds(5));
    }

    /** Same ratios as the defaults, scaled: for tests. */
    public NodeRegistryConfig withTimings(Duration lease, Duration renewInterval, Duration aliveTtl, Duration aliveRefresh) {
        return new NodeRegistryConfig(lease, renewInterval, aliveTtl, aliveRefresh, writeTimeout, batchCommands,
                maxOutstandingWrites, stopTimeout);
    }

    public NodeRegistryConfig withWriteTimeout(Duration value) {
        return new NodeRegistryConfig(lease, renewInterval, aliveTtl, aliveRefresh, value, batchCommands,
                maxOutstandingWrites, stopTimeout);
    }

    public NodeRegistryConfig withBatchCommands(int value) {
        return new NodeRegistryConfig(lease, renewInterval, aliveTtl, aliveRefresh, writeTimeout, value,
                maxOutstandingWrites, stopTimeout);
    }

    /** TTL given to every {@code nf:conns:} key on each write: two leases, so abandoned sets disappear. */
    public Duration connectionsKeyTtl() {
        return lease.multipliedBy(2);
    }

    /** The heartbeat tick: often enough for both the liveness key and the renewals. */
    Duration tick() {
        return aliveRefresh.compareTo(renewInterval) <= 0 ? aliveRefresh : renewInterval;
    }
}
