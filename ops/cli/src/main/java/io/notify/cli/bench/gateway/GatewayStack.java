package io.notify.cli.bench.gateway;

import io.notify.cli.dev.DevKeys;
import io.notify.devstack.FreePorts;
import io.notify.devstack.JavaProcess;
import io.notify.devstack.KafkaBrokerProcess;
import io.notify.devstack.RedisOptions;
import io.notify.devstack.RedisServer;
import io.notify.fanout.FanoutMain;
import io.notify.gateway.GatewayMain;
import io.notify.schemas.topic.TopicCatalog;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.slf4j.LoggerFactory;

/**
 * The system under test of the gateway benchmarks, every part a child process: Kafka (KRaft) and
 * Redis from devstack, the topics of a fresh prefix, one fanout-streams instance (query API) and
 * ONE gateway node in a JVM of its own, so that its heap and RSS are its alone. Tokens use a dev
 * HMAC secret created in the work dir ({@link DevKeys}). {@link #close} stops everything, children
 * first, also after a failure; each child also exits by itself when this JVM dies.
 */
final class GatewayStack implements AutoCloseable {

    /** What the gateway node is told beyond the defaults. */
    record Options(String gatewayHeap, long handshakeRate, int handshakeBurst, Path work) {
    }

    static final String NODE_ID = "bench-gw-1";
    private static final Duration HTTP_TIMEOUT = Duration.ofSeconds(5);
    private static final Duration START_BOUND = Duration.ofSeconds(180);

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(HTTP_TIMEOUT).build();
    private final List<AutoCloseable> started = new ArrayList<>();
    private final String prefix = "gb" + Long.toString(System.currentTimeMillis(), 36) + ".";
    private final DevKeys keys;
    private KafkaBrokerProcess broker;
    private JavaProcess gateway;
    private int gatewayPort;
    private int queryPort;

    private GatewayStack(DevKeys keys) {
        this.keys = keys;
    }

    static GatewayStack start(Options o, Consumer<String> progress) throws Exception {
        GatewayStack s = new GatewayStack(DevKeys.inDataDir(o.work()));
        try {
            s.startAll(o, progress);
            return s;
        } catch (Exception | Error e) {
            s.close();
            throw e;
        }
    }

    private void startAll(Options o, Consumer<String> progress) throws Exception {
        progress.accept("starting Kafka and Redis (child processes)");
        quietBrokerStartup();
        broker = new KafkaBrokerProcess().start();
        started.add(broker);
        RedisServer redis = RedisServer.start(RedisOptions.defaults());
        started.add(redis);
        TopicCatalog t = TopicCatalog.of(prefix);
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()))) {
            admin.createTopics(List.of(new NewTopic(t.events().name(), 6, (short) 1),
                    new NewTopic(t.eventsDlq().name(), 1, (short) 1),
                    new NewTopic(t.streamLog().name(), 6, (short) 1),
                    new NewTopic(t.undelivered().name(), 3, (short) 1))).all().get(60, TimeUnit.SECONDS);
        }
        progress.accept("starting fanout-streams (child JVM -Xmx512m)");
        queryPort = FreePorts.pick();
        JavaProcess fanout = new JavaProcess(FanoutMain.class.getName(), List.of(
                "notify.kafka.bootstrap-servers=" + broker.bootstrapServers(),
                "notify.topic-prefix=" + prefix,
                "notify.registry.key-prefix=" + prefix,
                "notify.redis.uri=" + redis.uri(),
                "notify.fanout.commit-interval=100ms",
                "notify.fanout.state-dir=" + o.work().resolve("fanout-state"),
                "notify.fanout.query.host=127.0.0.1",
                "notify.fanout.query.port=" + queryPort),
                List.of("-Xmx512m"), o.work().resolve("fanout.log")).start();
        started.add(0, () -> fanout.stop(Duration.ofSeconds(15)));
        awaitReady(fanout, queryPort, "fanout-streams");
        progress.accept("starting the gateway node (child JVM -Xmx" + o.gatewayHeap() + ")");
        gatewayPort = FreePorts.pick();
        gateway = new JavaProcess(GatewayMain.class.getName(), List.of(
                "notify.gateway.node-id=" + NODE_ID,
                "notify.gateway.host=127.0.0.1",
                "notify.gateway.port=" + gatewayPort,
                "notify.kafka.bootstrap-servers=" + broker.bootstrapServers(),
                "notify.redis.uri=" + redis.uri(),
                "notify.topic-prefix=" + prefix,
                "notify.registry.key-prefix=" + prefix,
                "notify.gateway.query-url=http://127.0.0.1:" + queryPort,
                "notify.gateway.jwt.hmac-secret=" + keys.secret(),
                "notify.gateway.jwt.issuer=" + DevKeys.ISSUER,
                "notify.gateway.jwt.audience=" + DevKeys.AUDIENCE,
                "notify.gateway.handshake-rate=" + o.handshakeRate(),
                "notify.gateway.handshake-burst=" + o.handshakeBurst(),
                "notify.gateway.drain-window=0s",
                "notify.gateway.drain-grace=1s"),
                List.of("-Xmx" + o.gatewayHeap(), "-XX:+UseG1GC"), o.work().resolve("gateway.log")).start();
        started.add(0, () -> gateway.stop(Duration.ofSeconds(10)));
        awaitReady(gateway, gatewayPort, "gateway");
    }

    /** The broker readiness probe logs a WARN per refused connection while the child JVM boots. */
    private static void quietBrokerStartup() {
        if (LoggerFactory.getLogger("org.apache.kafka.clients.NetworkClient") instanceof ch.qos.logback.classic.Logger l) {
            l.setLevel(ch.qos.logback.classic.Level.ERROR);
        }
    }

    private void awaitReady(JavaProcess p, int port, String name) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + START_BOUND.toNanos();
        while (System.nanoTime() - deadline < 0) {
            if (!p.isAlive()) {
                throw new IOException(name + " exited during start; see " + p.logFile());
            }
            try {
                if (get(port, "/readyz").statusCode() == 200) {
                    return;
                }
            } catch (IOException notListeningYet) {
                // still starting
            }
            TimeUnit.MILLISECONDS.sleep(200); // poll interval of a bounded readiness wait
        }
        throw new IOException(name + " not ready within " + START_BOUND + "; see " + p.logFile());
    }

    HttpResponse<String> get(int port, String path) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).timeout(HTTP_TIMEOUT)
                .GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    /** The gateway's /metrics, summed per sample name and label filter. */
    MetricsText gatewayMetrics() throws IOException, InterruptedException {
        requireGateway();
        HttpResponse<String> r = get(gatewayPort, "/metrics");
        if (r.statusCode() != 200) {
            throw new IOException("gateway /metrics answered " + r.statusCode());
        }
        return new MetricsText(r.body());
    }

    /**
     * Waits until the gateway's own connection gauge equals {@code n}, within {@code bound}; returns
     * the gauge (which differs from {@code n} only when the bound passed).
     */
    long awaitGatewayConnections(long n, Duration bound) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + bound.toNanos();
        long held;
        do {
            held = (long) gatewayMetrics().sum("notify_gateway_connections");
            if (held == n) {
                return held;
            }
            TimeUnit.MILLISECONDS.sleep(200); // poll interval of a bounded wait on the gateway's gauge
        } while (System.nanoTime() - deadline < 0);
        return held;
    }

    void requireGateway() throws IOException {
        if (!gateway.isAlive()) {
            throw new IOException("the gateway exited; see " + gateway.logFile());
        }
    }

    long gatewayPid() {
        return gateway.pid();
    }

    Path gatewayLog() {
        return gateway.logFile();
    }

    int gatewayPort() {
        return gatewayPort;
    }

    int queryPort() {
        return queryPort;
    }

    String bootstrapServers() {
        return broker.bootstrapServers();
    }

    TopicCatalog topics() {
        return TopicCatalog.of(prefix);
    }

    HttpClient http() {
        return http;
    }

    @Override
    public void close() {
        for (AutoCloseable c : started) {
            try {
                c.close();
            } catch (Exception | LinkageError e) { // LinkageError: jars replaced under a running JVM
                System.err.println("stopping a benchmark child failed: " + e);
            }
        }
        started.clear();
    }
}
