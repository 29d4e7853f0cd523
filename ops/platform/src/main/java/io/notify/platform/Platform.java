package io.notify.platform;

import io.notify.common.config.Settings;
import io.notify.common.http.OpsEndpoints;
import io.notify.common.service.NotifyService;
import io.notify.devstack.Await;
import io.notify.devstack.FreePorts;
import io.notify.devstack.Infra;
import io.notify.fanout.FanoutConfig;
import io.notify.fanout.FanoutService;
import io.notify.gateway.GatewayMain;
import io.notify.gateway.GatewayServer;
import io.notify.gateway.GatewayService;
import io.notify.ingest.IngestConfig;
import io.notify.ingest.IngestServer;
import io.notify.push.PushConfig;
import io.notify.push.PushService;
import io.notify.schemas.publish.NotifyPublisher;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.kafka.streams.KafkaStreams;

/**
 * The whole Notify platform in this JVM: the topics, ingest, one fanout-streams instance with its
 * query API, the push sender, and gateway nodes — each started through its service's one wiring ({@link
 * GatewayService#fromSettings}, {@link FanoutService}, {@link IngestServer}) with the settings
 * {@link PlatformConfig} writes. A gateway node can also run as a child JVM ({@link
 * #startChildGateway}) that a test kills with SIGKILL. Used by {@code notifyctl dev} and by every
 * test that needs more than one service; {@link PlatformStack} is the multi-process form.
 *
 * <p>{@link #close} stops the gateways (draining them first if asked), then everything else in
 * reverse order; a failed start closes what it started.
 */
public final class Platform implements AutoCloseable {

    private static final HttpClient USER_HTTP = HttpClient.newHttpClient();

    /** How long {@link Builder#start} waits for fanout-streams to be RUNNING. */
    static final Duration START_BOUND = Duration.ofSeconds(90);

    private final PlatformConfig config;
    private final Path workDir;
    private final String origins;
    private final boolean drainOnClose;
    private final boolean pickedPorts;
    private final Map<String, Integer> ports = new LinkedHashMap<>();
    private final Map<String, Integer> managementPorts = new LinkedHashMap<>();
    private final Map<String, GatewayServer> gateways = new LinkedHashMap<>();
    private final List<ServiceProcess> children = new ArrayList<>();
    private IngestServer ingest;
    private FanoutService fanout;
    private PushService push;
    private Publishing publishing;

    Platform(PlatformBuilder b) {
        this.config = b.config();
        this.workDir = b.workDir;
        this.drainOnClose = b.drainOnClose;
        List<Integer> nodePorts = b.gatewayPorts;
        this.pickedPorts = nodePorts.isEmpty() && b.browserOrigins && !b.nodes.isEmpty();
        if (pickedPorts) {
            // client ports known before anything starts (the origins name them); their management
            // ports are picked with them, never guessed as port + 100, which nobody reserved
            int[] free = b.portPicker.apply(2 * b.nodes.size());
            nodePorts = Arrays.stream(free, 0, b.nodes.size()).boxed().toList();
            for (int i = 0; i < b.nodes.size(); i++) {
                managementPorts.put(b.nodes.get(i), free[b.nodes.size() + i]);
            }
        }
        for (int i = 0; i < b.nodes.size(); i++) {
            ports.put(b.nodes.get(i), nodePorts.isEmpty() ? 0 : nodePorts.get(i));
        }
        this.origins = b.browserOrigins ? PlatformConfig.browserOrigins(ports.values()) : "";
    }

    /** Whether the gateways' ports were picked before anything started (another start may pick others). */
    boolean pickedPorts() {
        return pickedPorts;
    }

    void startAll(PlatformBuilder b) throws Exception {
        config.createTopics();
        ingest = new IngestServer(IngestConfig.load(Settings.of(
                config.ingestSettings(b.ingestPort, OpsEndpoints.defaultManagementPort(b.ingestPort), origins)))).start();
        fanout = new FanoutService(FanoutConfig.load(Settings.of(
                config.fanoutSettings(workDir.resolve("fanout-state").toString(), b.queryPort, OpsEndpoints.defaultManagementPort(b.queryPort))))).start();
        publishing = new Publishing(http(ingest.port()));
        Await.until("fanout-streams RUNNING", START_BOUND, () -> fanout.app().streams().state() == KafkaStreams.State.RUNNING);
        push = new PushService(PushConfig.load(Settings.of(config.pushSettings(0)))).start();
        for (String node : b.nodes) {
            startGateway(node);
        }
    }

    /** A platform on the given Kafka and Redis with production names and partitions ({@code notifyctl dev}). */
    public static PlatformBuilder builder(String bootstrapServers, String redisUri, Path workDir) {
        return new PlatformBuilder(bootstrapServers, redisUri, workDir);
    }

    /**
     * A platform for an IT: the run's Kafka and Redis with the test's prefix, small topics, a random
     * JWT key, everything on 127.0.0.1 and port 0, quick drains, and a generous route timeout.
     */
    public static PlatformBuilder forTest(Infra infra, Path workDir) {
        return forTest(infra.bootstrapServers(), infra.redisUri(), infra.prefix(), workDir);
    }

    /** As {@link #forTest(Infra, Path)}, on another Kafka (a broker of the test's own, e.g. with SASL listeners). */
    public static PlatformBuilder forTest(String bootstrapServers, String redisUri, String prefix, Path workDir) {
        return new PlatformBuilder(bootstrapServers, redisUri, workDir)
                .prefix(prefix)
                .partitions(PlatformConfig.Partitions.TEST)
                .keys(DevKeys.random())
                .ingest("notify.ingest.host", "127.0.0.1")
                .ingest("notify.ingest.io-threads", "1")
                .ingest("notify.ingest.worker-threads", "4")
                .fanout("notify.fanout.commit-interval", "100ms")
                // The default 50 ms bounds a stream-thread wait in production. On a loaded 2-core CI
                // machine the first Redis lookup can exceed it; the live push is then skipped
                // (undelivered: registry_unavailable) and a connected client sees the event only at
                // the next event's gap fill. Tests are about delivery, not that bound.
                .fanout("notify.fanout.route-timeout", "2s")
                .gateway("notify.gateway.host", "127.0.0.1")
                .gateway("notify.gateway.io-threads", "2")
                .gateway("notify.gateway.node-topic-partitions", "2")
                .gateway("notify.gateway.drain-window", "1s")
                .gateway("notify.gateway.drain-grace", "1s");
    }

    /**
     * Starts gateway {@code nodeId} in this JVM: on its reserved ports if it was named at build time
     * or ran before (a restart), else on any free ones.
     */
    public GatewayServer startGateway(String nodeId) {
        int port = ports.getOrDefault(nodeId, 0);
        int managementPort = managementPorts.getOrDefault(nodeId, OpsEndpoints.defaultManagementPort(port));
        GatewayServer server = GatewayService.fromSettings(Settings.of(
                config.gatewaySettings(nodeId, port, managementPort, List.of(queryUrl()), origins))).start();
        ports.put(nodeId, server.port());
        managementPorts.put(nodeId, server.managementPort());
        gateways.put(nodeId, server);
        return server;
    }

    /** Stops gateway {@code nodeId} and starts it again, a new incarnation on the same port. */
    public GatewayServer restartGateway(String nodeId) {
        gateway(nodeId).stop();
        return startGateway(nodeId);
    }

    /** A gateway started in this JVM. */
    public GatewayServer gateway(String nodeId) {
        return Objects.requireNonNull(gateways.get(nodeId), () -> "no in-process gateway " + nodeId);
    }

    /**
     * Gateway {@code nodeId} in a child JVM ({@link GatewayMain}, small test heap), ready when it
     * returns; {@link ServiceProcess#kill()} is kill -9.
     */
    public ServiceProcess startChildGateway(String nodeId) throws IOException, InterruptedException {
        int[] free = FreePorts.pick(2); // clients, the management listener
        ServiceProcess p = new ServiceProcess(nodeId, free[0], free[1], GatewayMain.class.getName(),
                config.gatewaySettings(nodeId, free[0], free[1], List.of(queryUrl()), origins),
                List.of("-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"), workDir.resolve(nodeId + ".log"));
        children.add(p);
        return p.start().awaitReady(START_BOUND);
    }

    /** The WebSocket endpoint of a gateway port. */
    public static URI ws(int port) {
        return URI.create("ws://127.0.0.1:" + port + "/v1/ws");
    }

    /** The SSE endpoint of a gateway port. */
    public static URI sse(int port) {
        return URI.create("http://127.0.0.1:" + port + "/v1/sse");
    }

    /** The base URL of a gateway port (its demo page, /notify.js, /metrics). */
    public static URI http(int port) {
        return URI.create("http://127.0.0.1:" + port);
    }

    /**
     * A user's own request to a gateway's client port (the inbox, push and preferences APIs): bearer
     * {@link #token(String)}, a JSON {@code body} when not null; the answer as text.
     */
    public HttpResponse<String> asUser(int port, String user, String method, String path, String body)
            throws IOException, InterruptedException {
        HttpRequest.Builder r = HttpRequest.newBuilder(URI.create(http(port) + path))
                .header("Authorization", "Bearer " + token(user)).timeout(Duration.ofSeconds(10));
        if (body != null) {
            r.header("Content-Type", "application/json").method(method, HttpRequest.BodyPublishers.ofString(body));
        } else {
            r.method(method, HttpRequest.BodyPublishers.noBody());
        }
        return USER_HTTP.send(r.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** A client token for {@code user}, valid for an hour. */
    public String token(String user) {
        return config.keys().token(user);
    }

    /** A client token for {@code user} whose {@code rooms} claim lists {@code rooms} (room patterns), valid for an hour. */
    public String token(String user, List<String> rooms) {
        return config.keys().token(user, Duration.ofHours(1), rooms);
    }

    /** Publishing through this platform's ingest, as a business service does over HTTP. */
    public Publishing publishing() {
        return publishing;
    }

    /** Publishes one durable event with id {@code id} to {@code user} through ingest; returns after the 202. */
    public void publish(String user, String id) {
        publishing.publish(user, id);
    }

    /** A publisher that produces straight to this platform's notify.events, as a business service on the JVM would. */
    public NotifyPublisher publisher() {
        var builder = NotifyPublisher.builder().bootstrapServers(config.bootstrapServers()).topicPrefix(config.prefix());
        config.kafkaClient().forEach(builder::property);
        return builder.build();
    }

    public PlatformConfig config() {
        return config;
    }

    public FanoutService fanout() {
        return fanout;
    }

    public int ingestPort() {
        return ingest.port();
    }

    public int queryPort() {
        return fanout.queryPort();
    }

    /** Where ingest serves {@code /metrics}. */
    public int ingestManagementPort() {
        return ingest.managementPort();
    }

    /** Where fanout-streams serves {@code /metrics}. */
    public int fanoutManagementPort() {
        return fanout.managementPort();
    }

    /** The query API of this platform's fanout-streams instance, called with the platform's service token. */
    public QueryApi queryApi() {
        return new QueryApi(URI.create(queryUrl()), config.keys().queryToken());
    }

    /** The base URL of this platform's query API (what its gateways call). */
    public String queryUrl() {
        return "http://127.0.0.1:" + fanout.queryPort();
    }

    /** The gateways started in this JVM, by node id, in start order. */
    public Map<String, GatewayServer> gateways() {
        return Collections.unmodifiableMap(new LinkedHashMap<>(gateways));
    }

    /** The port of every gateway started in this JVM, in start order. */
    public List<Integer> gatewayPorts() {
        return gateways.values().stream().map(GatewayServer::port).toList();
    }

    @Override
    public void close() {
        for (ServiceProcess p : children) {
            try {
                p.kill();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        if (drainOnClose) {
            gateways.values().parallelStream().forEach(GatewayServer::drain);
        }
        List<NotifyService> started = services();
        for (int i = started.size() - 1; i >= 0; i--) { // the reverse of the start order
            started.get(i).stop();
        }
    }

    /** The push sender's management listener ({@code /metrics}). */
    public int pushManagementPort() {
        return push.managementPort();
    }

    /** The push sender (docs/push.md): notify.fallback's push records to Web Push, FCM and APNs. */
    public PushService push() {
        return push;
    }

    /** The services started in this JVM, in the order they started: ingest, fanout-streams, the push sender, the gateways. */
    public List<NotifyService> services() {
        List<NotifyService> all = new ArrayList<>();
        if (ingest != null) {
            all.add(ingest);
        }
        if (fanout != null) {
            all.add(fanout);
        }
        if (push != null) {
            all.add(push);
        }
        all.addAll(gateways.values());
        return all;
    }
}
