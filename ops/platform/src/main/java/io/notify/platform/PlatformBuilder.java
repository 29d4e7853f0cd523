package io.notify.platform;

import io.notify.devstack.FreePorts;
import java.net.BindException;
import java.nio.file.Path;
import java.util.ArrayList;
import io.notify.push.webpush.VapidKeys;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** What a platform is made of; {@link #start} starts it. */
public final class PlatformBuilder {

    private static final Logger LOG = LoggerFactory.getLogger(PlatformBuilder.class);
    /** Starts tried with freshly picked ports when a picked port was taken before its gateway bound it. */
    static final int PORT_ATTEMPTS = 3;

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
    IntFunction<int[]> portPicker = FreePorts::pick;
    boolean drainOnClose;
    int ingestPort;
    int queryPort;
    final Map<String, String> kafkaClient = new LinkedHashMap<>();
    final Map<String, String> ingestSettings = new LinkedHashMap<>();
    final Map<String, String> fanoutSettings = new LinkedHashMap<>();
    final Map<String, String> gatewaySettings = new LinkedHashMap<>();
    final Map<String, String> pushSettings = new LinkedHashMap<>();
    private VapidKeys vapid = VapidKeys.generate(); // one pair per platform, whatever config() is asked

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

    /**
     * How the ports of {@link #browserOrigins} are picked ({@code count} distinct free ports); default
     * {@link FreePorts#pick(int)}. For tests of the kit that must hand it a port someone else holds.
     */
    public PlatformBuilder portPicker(IntFunction<int[]> value) {
        this.portPicker = value;
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

    /** The push sender's VAPID pair (default: a new one): keep it across restarts, browsers' subscriptions are bound to it. */
    public PlatformBuilder vapid(VapidKeys keys) {
        this.vapid = keys;
        return this;
    }

    /** A setting for the push sender, overriding the platform's (docs/push.md: FCM and APNs credentials, retries). */
    public PlatformBuilder push(String key, String value) {
        pushSettings.put(key, value);
        return this;
    }

    /**
     * The settings this builder starts the platform with, for services started some other way
     * (from their container images: ops/e2e ImagesIT); {@link PlatformConfig#createTopics} makes its topics.
     */
    public PlatformConfig config() {
        return new PlatformConfig(bootstrapServers, redisUri, redisCluster, prefix, partitions, keys, kafkaClient,
                ingestSettings, fanoutSettings, gatewaySettings, pushSettings, vapid);
    }

    public Platform start() throws Exception {
        if (!gatewayPorts.isEmpty() && gatewayPorts.size() != nodes.size()) {
            throw new IllegalArgumentException(nodes.size() + " gateways but " + gatewayPorts.size() + " ports");
        }
        if (keys == null) {
            keys = DevKeys.inDataDir(workDir);
        }
        for (int attempt = 1; ; attempt++) {
            Platform p = new Platform(this);
            try {
                p.startAll(this);
                return p;
            } catch (Exception | Error e) {
                p.close();
                // a port picked before anything started (the origins name it) can be bound by another
                // process of the machine before its gateway binds it, seconds later: FreePorts cannot hold it
                if (!p.pickedPorts() || !bindFailure(e) || attempt == PORT_ATTEMPTS) {
                    throw e;
                }
                LOG.warn("a picked gateway port was taken before its gateway bound it ({}); starting again on other ports, attempt {} of {}",
                        e.getMessage(), attempt + 1, PORT_ATTEMPTS);
            }
        }
    }

    static boolean bindFailure(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof BindException) {
                return true;
            }
        }
        return false;
    }
}
