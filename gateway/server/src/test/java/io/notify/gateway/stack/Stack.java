package io.notify.gateway.stack;

import io.notify.gateway.GatewayService;
import io.notify.common.config.Settings;
import io.notify.devstack.Infra;
import io.notify.devstack.JavaProcess;
import io.notify.fanout.FanoutConfig;
import io.notify.fanout.FanoutService;
import io.notify.gateway.GatewayMain;
import io.notify.gateway.GatewayServer;
import io.notify.gateway.support.TestConfig;
import io.notify.gateway.support.Tokens;
import io.notify.ingest.IngestConfig;
import io.notify.ingest.IngestServer;
import io.notify.schemas.publish.NotifyPublisher;
import io.notify.schemas.topic.TopicCatalog;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The whole platform for end-to-end ITs, on the run's shared Kafka and Redis with this test's
 * prefix: ingest, one fanout-streams instance with its query API, and gateway nodes — in-process,
 * or as child JVMs that can be killed with SIGKILL. Events are published through ingest's HTTP API.
 */
final class Stack implements AutoCloseable {

    static final String API_KEY = "stack-producer-key-0123456789";

    private final Infra infra;
    private final Tokens tokens;
    private final Path dir;
    private final IngestServer ingest;
    private final FanoutService fanout;
    private final List<AutoCloseable> gateways = new ArrayList<>();
    private final HttpClient http = HttpClient.newHttpClient();

    Stack(Infra infra, Tokens tokens, Path dir) {
        this.infra = infra;
        this.tokens = tokens;
        this.dir = dir;
        TopicCatalog t = TopicCatalog.of(infra.prefix());
        infra.createTopic(t.events().name(), 3);
        infra.createTopic(t.eventsDlq().name(), 1);
        infra.createTopic(t.streamLog().name(), 3);
        infra.createTopic(t.undelivered().name(), 1);
        this.ingest = new IngestServer(IngestConfig.load(Settings.of(Map.of(
                "notify.kafka.bootstrap-servers", infra.bootstrapServers(),
                "notify.topic-prefix", infra.prefix(),
                "notify.ingest.host", "127.0.0.1",
                "notify.ingest.port", "0",
                "notify.ingest.io-threads", "1",
                "notify.ingest.worker-threads", "4",
                "notify.ingest.api-keys", "stack:" + API_KEY)))).start();
        this.fanout = new FanoutService(FanoutConfig.load(Settings.of(Map.of(
                "notify.kafka.bootstrap-servers", infra.bootstrapServers(),
                "notify.topic-prefix", infra.prefix(),
                "notify.redis.uri", infra.redisUri(),
                "notify.fanout.state-dir", dir.resolve("fanout").toString(),
                "notify.fanout.query.host", "127.0.0.1",
                "notify.fanout.query.port", "0")))).start();
    }

    Map<String, String> gatewaySettings(String nodeId) {
        Map<String, String> m = TestConfig.base();
        m.remove("notify.gateway.jwt.hmac-secret");
        m.put("notify.gateway.jwt.jwks-file", tokens.jwksFile().toString());
        m.put("notify.gateway.node-id", nodeId);
        m.put("notify.kafka.bootstrap-servers", infra.bootstrapServers());
        m.put("notify.redis.uri", infra.redisUri());
        m.put("notify.topic-prefix", infra.prefix());
        m.put("notify.registry.key-prefix", infra.prefix());
        m.put("notify.gateway.query-url", "http://127.0.0.1:" + fanout.queryPort());
        m.put("notify.gateway.node-topic-partitions", "2");
        return m;
    }

    /** An in-process gateway node on a free port. */
    GatewayServer gateway(String nodeId) {
        GatewayServer server = GatewayService.fromSettings(Settings.of(gatewaySettings(nodeId))).start();
        gateways.add(server);
        return server;
    }

    /** A gateway node in a child JVM (GatewayMain) and the port it listens on. */
    record ChildGateway(JavaProcess process, int port) {
    }

    ChildGateway gatewayProcess(String nodeId) throws IOException, InterruptedException {
        List<String> args = new ArrayList<>();
        gatewaySettings(nodeId).forEach((k, v) -> args.add(k + "=" + v));
        JavaProcess p = new JavaProcess(GatewayMain.class.getName(), args,
                List.of("-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"), dir.resolve(nodeId + ".log")).start();
        gateways.add(p);
        p.awaitLog("listening on", Duration.ofSeconds(60));
        Matcher m = Pattern.compile("listening on [0-9.]+:(\\d+)").matcher(Files.readString(p.logFile()));
        if (!m.find()) {
            throw new IOException("no port in " + p.logFile());
        }
        return new ChildGateway(p, Integer.parseInt(m.group(1)));
    }

    static URI ws(int port) {
        return URI.create("ws://127.0.0.1:" + port + "/v1/ws");
    }

    static URI sse(int port) {
        return URI.create("http://127.0.0.1:" + port + "/v1/sse");
    }

    String token(String user) {
        return tokens.valid(user);
    }

    /** Publishes a durable event for {@code user} through ingest; returns after the 202. */
    void publish(String user, String id) {
        post("application/json", event(user, id), 202);
    }

    /** Publishes durable events for {@code user} through ingest as one NDJSON batch, in list order; returns after the 202. */
    void publishBatch(String user, List<String> ids) {
        post("application/x-ndjson", String.join("\n", ids.stream().map(id -> event(user, id)).toList()), 202);
    }

    /** A publisher that produces straight to this stack's notify.events (as a business service on the JVM would). */
    NotifyPublisher publisher() {
        return NotifyPublisher.builder().bootstrapServers(infra.bootstrapServers()).topicPrefix(infra.prefix()).build();
    }

    private static String event(String user, String id) {
        return "{\"id\":\"" + id + "\",\"type\":\"stack.test\",\"to\":{\"users\":[\"" + user + "\"]},\"data\":{\"n\":\"" + id + "\"}}";
    }

    private void post(String contentType, String body, int expected) {
        try {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + ingest.port() + "/v1/events"))
                    .header("Authorization", "Bearer " + API_KEY).header("Content-Type", contentType)
                    .timeout(Duration.ofSeconds(30)).POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                    HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() != expected) {
                throw new IllegalStateException("ingest answered " + r.statusCode() + ": " + r.body());
            }
        } catch (IOException e) {
            throw new IllegalStateException("publish failed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    String prefix() {
        return infra.prefix();
    }

    Infra infra() {
        return infra;
    }

    @Override
    public void close() throws Exception {
        for (AutoCloseable g : gateways) {
            g.close();
        }
        fanout.close();
        ingest.close();
    }

    static Map<String, String> headers(String token) {
        Map<String, String> h = new HashMap<>();
        h.put("Authorization", "Bearer " + token);
        return h;
    }
}
