package io.notify.platform;

import java.nio.file.Path;
import java.util.Map;

/**
 * The shape of a {@link PlatformStack}: how many fanout-streams instances and gateway nodes, whether
 * an ingest service runs, and settings added to every service of a kind (they override the
 * stack's own). Heaps are the child JVMs' {@code -Xmx}. {@code redisCluster}: the registry on a Redis
 * Cluster instead of one Redis. {@code partitions}: the topics' partition counts.
 */
public record StackOptions(Path work, int fanouts, int gateways, boolean ingest, String guarantee,
                           String fanoutHeap, String gatewayHeap, Map<String, String> fanoutSettings,
                           Map<String, String> gatewaySettings, Map<String, String> ingestSettings, boolean redisCluster,
                           PlatformConfig.Partitions partitions) {

    public StackOptions {
        if (fanouts < 1 || gateways < 0) {
            throw new IllegalArgumentException("a stack needs at least one fanout-streams instance");
        }
        fanoutSettings = Map.copyOf(fanoutSettings);
        gatewaySettings = Map.copyOf(gatewaySettings);
        ingestSettings = Map.copyOf(ingestSettings);
    }

    public static StackOptions of(Path work, int fanouts, int gateways) {
        return new StackOptions(work, fanouts, gateways, false, "exactly_once_v2", "512m", "256m", Map.of(), Map.of(), Map.of(), false,
                PlatformConfig.Partitions.DEV);
    }

    /** A 3-master Redis Cluster (devstack {@code RedisCluster}, each master with a replica) instead of one Redis. */
    public StackOptions withRedisCluster(boolean on) {
        return new StackOptions(work, fanouts, gateways, ingest, guarantee, fanoutHeap, gatewayHeap, fanoutSettings, gatewaySettings,
                ingestSettings, on, partitions);
    }

    public StackOptions withIngest(boolean on) {
        return new StackOptions(work, fanouts, gateways, on, guarantee, fanoutHeap, gatewayHeap, fanoutSettings, gatewaySettings, ingestSettings, redisCluster, partitions);
    }

    public StackOptions withGuarantee(String value) {
        return new StackOptions(work, fanouts, gateways, ingest, value, fanoutHeap, gatewayHeap, fanoutSettings, gatewaySettings, ingestSettings, redisCluster, partitions);
    }

    public StackOptions withGatewayHeap(String value) {
        return new StackOptions(work, fanouts, gateways, ingest, guarantee, fanoutHeap, value, fanoutSettings, gatewaySettings, ingestSettings, redisCluster, partitions);
    }

    public StackOptions withGatewaySettings(Map<String, String> values) {
        return new StackOptions(work, fanouts, gateways, ingest, guarantee, fanoutHeap, gatewayHeap, fanoutSettings, values, ingestSettings, redisCluster, partitions);
    }

    public StackOptions withFanoutSettings(Map<String, String> values) {
        return new StackOptions(work, fanouts, gateways, ingest, guarantee, fanoutHeap, gatewayHeap, values, gatewaySettings,
                ingestSettings, redisCluster, partitions);
    }

    /** The topics' partition counts ({@link PlatformConfig.Partitions#DEV} unless set). */
    public StackOptions withPartitions(PlatformConfig.Partitions value) {
        return new StackOptions(work, fanouts, gateways, ingest, guarantee, fanoutHeap, gatewayHeap, fanoutSettings, gatewaySettings,
                ingestSettings, redisCluster, value);
    }

    public StackOptions withIngestSettings(Map<String, String> values) {
        return new StackOptions(work, fanouts, gateways, ingest, guarantee, fanoutHeap, gatewayHeap, fanoutSettings,
                gatewaySettings, values, redisCluster, partitions);
    }
}
