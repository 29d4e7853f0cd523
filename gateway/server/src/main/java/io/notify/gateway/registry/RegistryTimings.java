package io.notify.gateway.registry;

import io.notify.common.config.ConfigException;
import io.notify.common.config.Settings;
import io.notify.registry.lease.NodeRegistryConfig;
import java.time.Duration;

/**
 * The registry timings a gateway node can be told ({@code notify.registry.lease}, {@code
 * renew-interval}, {@code verify-interval}, {@code alive-ttl}, {@code alive-refresh}); defaults are {@link
 * NodeRegistryConfig#defaults()}. Shorter timings make a dead or frozen node stop being routed to
 * sooner, at the cost of more Redis writes; chaos runs use them to keep a quick mode quick.
 */
public final class RegistryTimings {

    private RegistryTimings() {
    }

    public static NodeRegistryConfig load(Settings s) {
        NodeRegistryConfig d = NodeRegistryConfig.defaults();
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
}
