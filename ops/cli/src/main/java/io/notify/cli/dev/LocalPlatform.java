package io.notify.cli.dev;

import io.notify.gateway.GatewayService;
import io.notify.common.config.Settings;
import io.notify.devstack.DevStack;
import io.notify.devstack.DevStackOptions;
import io.notify.fanout.FanoutConfig;
import io.notify.fanout.FanoutService;
import io.notify.gateway.GatewayServer;
import io.notify.ingest.IngestConfig;
import io.notify.ingest.IngestServer;
import io.notify.schemas.topic.TopicCatalog;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.errors.TopicExistsException;

/**
 * The whole platform in one process on embedded defaults: Kafka (KRaft) and Redis from devstack,
 * the topics, ingest, one fanout-streams instance with its query API, and N gateway nodes, wired
 * with the dev credentials of {@link DevKeys}. {@link #close} drains the gateways first, then
 * stops everything in reverse order.
 */
public final class LocalPlatform implements AutoCloseable {

    /** Ports and sizes of a local platform. */
    public record Options(Path dataDir, int kafkaPort, int redisPort, int ingestPort, int queryPort,
                          List<Integer> gatewayPorts, String drainWindow) {
    }

    private final DevStack infra;
    private final IngestServer ingest;
    private final FanoutService fanout;
    private final List<GatewayServer> gateways = new ArrayList<>();
    private final DevKeys keys;

    private LocalPlatform(Options o) throws Exception {
        this.keys = DevKeys.inDataDir(o.dataDir());
        this.infra = DevStack.start(DevStackOptions.dev(o.dataDir()).withKafkaPort(o.kafkaPort()).withRedisPort(o.redisPort())
                .withKafkaControllerPort(o.kafkaPort() + 1));
        createTopics(infra.bootstrapServers());
        this.ingest = new IngestServer(IngestConfig.load(Settings.of(Map.of(
                "notify.kafka.bootstrap-servers", infra.bootstrapServers(),
                "notify.ingest.port", Integer.toString(o.ingestPort()),
                "notify.ingest.api-keys", DevKeys.PRODUCER + ":" + DevKeys.PRODUCER_KEY,
                // the demo page on each gateway publishes through ingest with fetch
                "notify.ingest.cors-origins", browserOrigins(o.gatewayPorts()))))).start();
        this.fanout = new FanoutService(FanoutConfig.load(Settings.of(Map.of(
                "notify.kafka.bootstrap-servers", infra.bootstrapServers(),
                "notify.redis.uri", infra.redisUri(),
                "notify.fanout.state-dir", o.dataDir().resolve("fanout-state").toString(),
                "notify.fanout.query.port", Integer.toString(o.queryPort()))))).start();
        for (int i = 0; i < o.gatewayPorts().size(); i++) {
            gateways.add(gateway("gw-" + (i + 1), o.gatewayPorts().get(i), o));
        }
    }

    public static LocalPlatform start(Options options) throws Exception {
        return new LocalPlatform(options);
    }

    private GatewayServer gateway(String nodeId, int port, Options o) {
        Map<String, String> v = new HashMap<>();
        v.put("notify.kafka.bootstrap-servers", infra.bootstrapServers());
        v.put("notify.redis.uri", infra.redisUri());
        v.put("notify.gateway.node-id", nodeId);
        v.put("notify.gateway.port", Integer.toString(port));
        v.put("notify.gateway.query-url", "http://127.0.0.1:" + fanout.queryPort());
        v.put("notify.gateway.jwt.hmac-secret", keys.secret());
        v.put("notify.gateway.jwt.issuer", DevKeys.ISSUER);
        v.put("notify.gateway.jwt.audience", DevKeys.AUDIENCE);
        v.put("notify.gateway.drain-window", o.drainWindow());
        v.put("notify.gateway.drain-grace", "1s");
        v.put("notify.gateway.allowed-origins", browserOrigins(o.gatewayPorts()));
        return GatewayService.fromSettings(Settings.of(v)).start();
    }

    /** The origins of the gateways' demo pages (localhost and 127.0.0.1), comma-separated. */
    static String browserOrigins(List<Integer> gatewayPorts) {
        StringBuilder origins = new StringBuilder();
        for (int p : gatewayPorts) {
            origins.append(origins.length() == 0 ? "" : ",")
                    .append("http://localhost:").append(p).append(",http://127.0.0.1:").append(p);
        }
        return origins.toString();
    }

    static void createTopics(String bootstrap) throws Exception {
        TopicCatalog t = TopicCatalog.production();
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            for (NewTopic topic : List.of(
                    new NewTopic(t.events().name(), Optional.of(6), Optional.empty()),
                    new NewTopic(t.eventsDlq().name(), Optional.of(1), Optional.empty()),
                    new NewTopic(t.streamLog().name(), Optional.of(6), Optional.empty()),
                    new NewTopic(t.undelivered().name(), Optional.of(3), Optional.empty()))) {
                try {
                    admin.createTopics(List.of(topic)).all().get(30, TimeUnit.SECONDS);
                } catch (java.util.concurrent.ExecutionException e) {
                    if (!(e.getCause() instanceof TopicExistsException)) {
                        throw e;
                    }
                }
            }
        }
    }

    public DevKeys keys() {
        return keys;
    }

    public int ingestPort() {
        return ingest.port();
    }

    public int queryPort() {
        return fanout.queryPort();
    }

    public List<Integer> gatewayPorts() {
        return gateways.stream().map(GatewayServer::port).toList();
    }

    public String bootstrapServers() {
        return infra.bootstrapServers();
    }

    public String redisUri() {
        return infra.redisUri();
    }

    @Override
    public void close() {
        gateways.parallelStream().forEach(GatewayServer::drain);
        gateways.forEach(GatewayServer::close);
        fanout.close();
        ingest.close();
        infra.close();
    }
}
