package io.notify.platform;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** What a platform is made of; {@link #start} starts it. */
public final class PlatformBuilder {

    final String bootstrapServers;
    final String redisUri;
    boolean redisCluster;
    final Path workDir;
    String prefix = "";
    PlatformConfig.Partitions partitions = PlatformConfig.Partitions.DEV;
    DevKeys keys;
    final List<String> nodes = new ArrayList<>();
    List<Integer> gatewayPorts = List.of();
    boolean browserOrigins;
    boolean drainOnClose;
    int ingestPort;
    int queryPort;
    final Map<String, String> kafkaClient = new LinkedHashMap<>();
    final Map<String, String> ingestSettings = new LinkedHashMap<>();
    final Map<String, String> fanoutSettings = new LinkedHashMap<>();
    final Map<String, String> gatewaySettings = new LinkedHashMap<>();

    PlatformBuilder(String bootstrapServers, String redisUri, Path workDir) {
        this.bootstrapServers = bootstrapServers;
        this.redisUri = redisUri;
        this.workDir = workDir;
    }

    /** The Redis URI lists seed nodes of a Redis Cluster ({@code notify.redis.cluster=true} for every service). */
    public PlatformBuilder redisCluster() {
        this.redisCluster = true;
        return this;
    }

    /** Topic and registry key prefix; default none. */
    public PlatformBuilder prefix(String value) {
        this.prefix = value;
        return this;
    }

    public PlatformBuilder partitions(PlatformConfig.Partitions value) {
        this.partitions = value;
        return this;
    }

    /** The dev JWT key; default the work dir's ({@link DevKeys#inDataDir}). */
    public PlatformBuilder keys(DevKeys value) {
        this.keys = value;
        return this;
    }

    /** Gateway nodes started with the platform, in this order. */
    public PlatformBuilder gateways(String... nodeIds) {
        nodes.addAll(List.of(nodeIds));
        return this;
    }

    /** The ports of the gateways named in {@link #gateways}, in that order; default free ports. */
    public PlatformBuilder gatewayPorts(List<Integer> values) {
        this.gatewayPorts = List.copyOf(values);
        return this;
    }

    /**
     * Lets the browser pages that the gateways named in {@link #gateways} serve connect to every
     * gateway and publish through ingest: their origins go to each gateway's allowlist and
     * ingest's CORS list. Their ports are then chosen before anything starts.
     */
    public PlatformBuilder browserOrigins() {
        this.browserOrigins = true;
        return this;
    }

    /** {@link Platform#close} drains every gateway over its drain window first (as SIGTERM does); default stop at once. */
    public PlatformBuilder drainOnClose() {
        this.drainOnClose = true;
        return this;
    }

    public PlatformBuilder ingestPort(int value) {
        this.ingestPort = value;
        return this;
    }

    public PlatformBuilder queryPort(int value) {
        this.queryPort = value;
        return this;
    }

    /** A Kafka client property for every client of every service and of the kit ({@code notify.kafka.client.<key>}). */
    public PlatformBuilder kafkaClient(String key, String value) {
        kafkaClient.put(key, value);
        return this;
    }

    /** A setting for ingest, overriding the platform's. */
    public PlatformBuilder ingest(String key, String value) {
        ingestSettings.put(key, value);
        return this;
    }

    /** A setting for fanout-streams, overriding the platform's. */
    public PlatformBuilder fanout(String key, String value) {
        fanoutSettings.put(key, value);
        return this;
    }

    /** A setting for every gateway node, overriding the platform's. */
    public PlatformBuilder gateway(String key, String value) {
        gatewaySettings.put(key, value);
        return this;
    }

    /**
     * The settings this builder starts the platform with, for services started some other way
     * (from their container images: ops/e2e ImagesIT); {@link PlatformConfig#createTopics} makes its topics.
     */
    public PlatformConfig config() {
        return new PlatformConfig(bootstrapServers, redisUri, redisCluster, prefix, partitions, keys, kafkaClient,
                ingestSettings, fanoutSettings, gatewaySettings);
    }

    public Platform start() throws Exception {
        if (!gatewayPorts.isEmpty() && gatewayPorts.size() != nodes.size()) {
            throw new IllegalArgumentException(nodes.size() + " gateways but " + gatewayPorts.size() + " ports");
        }
        if (keys == null) {
            keys = DevKeys.inDataDir(workDir);
        }
        Platform p = new Platform(this);
        try {
            p.startAll(this);
            return p;
        } catch (Exception | Error e) {
            p.close();
            throw e;
        }
    }
}
