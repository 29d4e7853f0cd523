package io.notify.deploy;

import io.notify.common.config.Settings;
import io.notify.fanout.FanoutConfig;
import io.notify.gateway.config.GatewayConfig;
import io.notify.ingest.IngestConfig;
import java.time.Duration;
import java.util.Map;
import java.util.Set;

/**
 * What a workload's configuration means to the service it runs, read by the service's own config
 * record ({@code GatewayConfig.load}, {@code FanoutConfig.load}, {@code IngestConfig.load}) from
 * the environment the pod would get, so defaults and bounds are the services' and never copied.
 *
 * @param managementPort the port of {@code /healthz}, {@code /readyz} and {@code /metrics}
 * @param stopBound      how long the service may take from SIGTERM to exit
 * @param stopRule       which settings make up {@code stopBound}, for messages
 * @param config         the loaded record
 */
record ServiceConfig(int managementPort, Duration stopBound, String stopRule, Object config) {

    static final String GATEWAY = "notify-gateway";
    static final String FANOUT = "notify-fanout-streams";
    static final String INGEST = "notify-ingest";
    static final Set<String> WORKLOADS = Set.of(GATEWAY, FANOUT, INGEST);

    /** Loads the config of workload {@code name}; throws the service's own ConfigException when it would refuse to start. */
    static ServiceConfig load(String name, Map<String, String> env) {
        Settings settings = new Settings(Map.of(), env);
        return switch (name) {
            case GATEWAY -> {
                GatewayConfig c = GatewayConfig.load(settings);
                // GatewayMain's drain: connections closed over the window, everything stopped by
                // window + grace, then the receipts producer waits up to inbox.produce-timeout
                yield new ServiceConfig(c.managementPort(), c.drainWindow().plus(c.drainGrace()).plus(c.inbox().produceTimeout()),
                        "notify.gateway.drain-window + drain-grace + inbox.produce-timeout", c);
            }
            case FANOUT -> {
                FanoutConfig c = FanoutConfig.load(settings);
                yield new ServiceConfig(c.managementPort(), c.shutdownTimeout(), "notify.fanout.shutdown-timeout", c);
            }
            case INGEST -> {
                IngestConfig c = IngestConfig.load(settings);
                // IngestServer.stop waits for requests in flight up to produce-timeout + 1s
                yield new ServiceConfig(c.managementPort(), c.produceTimeout().plusSeconds(1), "notify.ingest.produce-timeout + 1s", c);
            }
            default -> throw new IllegalArgumentException("not a Notify workload: " + name);
        };
    }
}
