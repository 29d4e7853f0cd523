package io.notify.platform;

import io.notify.devstack.BrokerOptions;
import io.notify.devstack.FreePorts;
import io.notify.devstack.KafkaBrokerProcess;
import io.notify.devstack.RedisOptions;
import io.notify.devstack.RedisCluster;
import io.notify.devstack.RedisServer;
import io.notify.fanout.FanoutMain;
import io.notify.gateway.GatewayMain;
import io.notify.ingest.IngestMain;
import io.notify.schemas.topic.TopicCatalog;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.slf4j.LoggerFactory;

/**
 * The whole platform as separate processes, for benchmarks and chaos runs that crash parts of it
 * for real: a Kafka (KRaft) broker and Redis from devstack, the topics of a fresh prefix, N
 * fanout-streams instances (one Streams application, each with its query API), M gateway nodes
 * ({@code gw-1..M}) that know every query API, and optionally ingest, wired by {@link
 * PlatformConfig} as the in-process {@link Platform} is. Tokens use a dev HMAC secret in the work
 * dir ({@link DevKeys}). {@link #close} stops everything, services first, also
 * after a failed start; every child also exits by itself when this JVM dies.
 */
public final class PlatformStack implements AutoCloseable {

    public static final Duration START_BOUND = Duration.ofSeconds(180);

    private final StackOptions options;
    private final String prefix = "st" + Long.toString(System.currentTimeMillis(), 36) + ".";
    private final DevKeys keys;
    private PlatformConfig config;
    private final List<ServiceProcess> fanouts = new ArrayList<>();
    private final List<ServiceProcess> gateways = new ArrayList<>();
    private KafkaBrokerProcess broker;
    private RedisServer redis;
    private RedisCluster cluster;
    private ServiceProcess ingest;

    private PlatformStack(StackOptions options) throws IOException {
        this.options = options;
        this.keys = DevKeys.inDataDir(options.work());
    }

    public static PlatformStack start(StackOptions options, Consumer<String> progress) throws Exception {
        PlatformStack s = new PlatformStack(options);
        try {
            s.startAll(progress);
            return s;
        } catch (Exception | Error e) {
            s.close();
            throw e;
        }
    }

    private void startAll(Consumer<String> progress) throws Exception {
        progress.accept("starting Kafka and Redis (child processes)");
        quietBrokerStartup();
        // A restart after a long run (chaos restart-broker) replays more log: allow it 3 minutes.
        // Server JVM flags: benches and chaos measure the platform, not a C1-only test broker.
        broker = new KafkaBrokerProcess(BrokerOptions.defaults().withStartTimeout(Duration.ofMinutes(3)),
                KafkaBrokerProcess.SERVER_JVM_OPTIONS, System.getProperty("java.class.path")).start();
        String redisUri;
        if (options.redisCluster()) {
            cluster = RedisCluster.start();
            redisUri = cluster.uris();
        } else {
            redis = RedisServer.start(RedisOptions.defaults());
            redisUri = redis.uri();
        }
        config = new PlatformConfig(broker.bootstrapServers(), redisUri, options.redisCluster(), prefix, options.partitions(), keys,
                Map.of(), options.ingestSettings(), options.fanoutSettings(), options.gatewaySettings());
        config.createTopics();
        progress.accept("starting " + options.fanouts() + " fanout-streams instance(s) (-Xmx" + options.fanoutHeap() + ")");
        for (int i = 1; i <= options.fanouts(); i++) {
            fanouts.add(fanout(i).start());
        }
        for (ServiceProcess f : fanouts) {
            f.awaitReady(START_BOUND);
        }
        progress.accept("starting " + options.gateways() + " gateway node(s) (-Xmx" + options.gatewayHeap() + ")");
        for (int i = 1; i <= options.gateways(); i++) {
            gateways.add(gateway(i).start());
        }
        if (options.ingest()) {
            ingest = ingestService().start();
        }
        for (ServiceProcess g : gateways) {
            g.awaitReady(START_BOUND);
        }
        if (ingest != null) {
            ingest.awaitReady(START_BOUND);
        }
    }

    private ServiceProcess fanout(int i) {
        int[] ports = FreePorts.pick(2); // the query API, the management listener
        Map<String, String> s = new LinkedHashMap<>();
        s.put("notify.fanout.processing-guarantee", options.guarantee());
        s.putAll(config.fanoutSettings(options.work().resolve("fanout-" + i + "-state").toString(), ports[0], ports[1]));
        return new ServiceProcess("fanout-" + i, ports[0], ports[1], FanoutMain.class.getName(), s,
                List.of("-Xmx" + options.fanoutHeap()), options.work().resolve("fanout-" + i + ".log"));
    }

    private ServiceProcess gateway(int i) {
        int[] ports = FreePorts.pick(2); // clients, the management listener
        String node = nodeId(i);
        Map<String, String> s = new LinkedHashMap<>();
        s.put("notify.gateway.host", "127.0.0.1");
        s.put("notify.gateway.drain-window", "0s");
        s.put("notify.gateway.drain-grace", "1s");
        s.putAll(config.gatewaySettings(node, ports[0], ports[1], fanouts.stream().map(ServiceProcess::baseUrl).toList(), ""));
        return new ServiceProcess(node, ports[0], ports[1], GatewayMain.class.getName(), s,
                Stream.concat(Stream.of("-Xmx" + options.gatewayHeap()), GatewayMain.JVM_OPTIONS.stream()).toList(),
                options.work().resolve(node + ".log"));
    }

    /**
     * Starts one more gateway node ({@code gw-<n+1>}, the stack's gateway settings) and waits until it
     * is ready: a node joining a running fleet, as after a scale-out.
     */
    public ServiceProcess addGateway() throws IOException, InterruptedException {
        ServiceProcess g = gateway(gateways.size() + 1).start();
        gateways.add(g);
        g.awaitReady(START_BOUND);
        return g;
    }

    private ServiceProcess ingestService() {
        int[] ports = FreePorts.pick(2); // producers, the management listener
        Map<String, String> s = new LinkedHashMap<>();
        s.put("notify.ingest.host", "127.0.0.1");
        s.putAll(config.ingestSettings(ports[0], ports[1], ""));
        return new ServiceProcess("ingest", ports[0], ports[1], IngestMain.class.getName(), s, List.of("-Xmx512m"),
                options.work().resolve("ingest.log"));
    }

    /** The broker readiness probe logs a WARN per refused connection while the child JVM boots. */
    public static void quietBrokerStartup() {
        if (LoggerFactory.getLogger("org.apache.kafka.clients.NetworkClient") instanceof ch.qos.logback.classic.Logger l) {
            l.setLevel(ch.qos.logback.classic.Level.ERROR);
        }
    }

    public String nodeId(int i) {
        return "gw-" + i;
    }

    public List<ServiceProcess> fanouts() {
        return List.copyOf(fanouts);
    }

    /** The query API of fanout-streams instance {@code fanout} (one of {@link #fanouts}), called with the stack's service token. */
    public QueryApi queryApi(ServiceProcess fanout) {
        return new QueryApi(URI.create(fanout.baseUrl()), keys.queryToken());
    }

    public List<ServiceProcess> gateways() {
        return List.copyOf(gateways);
    }

    /** The ingest service; fails when the stack was started without one. */
    public ServiceProcess ingest() {
        if (ingest == null) {
            throw new IllegalStateException("this stack runs no ingest service");
        }
        return ingest;
    }

    public KafkaBrokerProcess broker() {
        return broker;
    }

    /** The stack's one Redis; null when it runs on a Redis Cluster ({@link StackOptions#redisCluster}). */
    public RedisServer redis() {
        return redis;
    }

    /** The registry's Redis: one URI, or the Cluster's seed URIs comma-separated. */
    public String redisUri() {
        return config.redisUri();
    }

    public boolean redisCluster() {
        return cluster != null;
    }

    public DevKeys keys() {
        return keys;
    }

    public String prefix() {
        return prefix;
    }

    public String bootstrapServers() {
        return broker.bootstrapServers();
    }

    public TopicCatalog topics() {
        return TopicCatalog.of(prefix);
    }

    /** How the stack's services are wired (known once Kafka and Redis run). */
    public PlatformConfig config() {
        return config;
    }

    @Override
    public void close() {
        // Front to back, each tier at once: a gateway drains its connections on SIGTERM, and eight
        // of them one after another waited 8 × 15 s.
        List<AutoCloseable> front = new ArrayList<>(gateways);
        if (ingest != null) {
            front.add(ingest);
        }
        closeAll(front);
        closeAll(fanouts);
        closeAll(redis == null ? List.of() : List.of(redis));
        closeAll(cluster == null ? List.of() : List.of(cluster));
        closeAll(broker == null ? List.of() : List.of(broker));
        gateways.clear();
        fanouts.clear();
    }

    private static void closeAll(List<? extends AutoCloseable> services) {
        List<Thread> stopping = new ArrayList<>();
        for (AutoCloseable c : services) {
            Thread t = new Thread(() -> {
                try {
                    c.close();
                } catch (Exception | LinkageError e) { // LinkageError: jars replaced under a running JVM
                    System.err.println("stopping " + c + " failed: " + e);
                }
            }, "stop-" + c);
            t.start();
            stopping.add(t);
        }
        for (Thread t : stopping) {
            try {
                t.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
