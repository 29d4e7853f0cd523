package io.notify.client.support;

import io.notify.gateway.GatewayService;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import io.notify.common.config.Settings;
import io.notify.devstack.Infra;
import io.notify.devstack.JavaProcess;
import io.notify.fanout.FanoutConfig;
import io.notify.fanout.FanoutService;
import io.notify.gateway.GatewayMain;
import io.notify.gateway.GatewayServer;
import io.notify.ingest.IngestConfig;
import io.notify.ingest.IngestServer;
import io.notify.schemas.topic.TopicCatalog;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.streams.KafkaStreams;

/**
 * The real platform for client ITs, in the test JVM: the devstack's Kafka and Redis (one prefix for
 * topics and registry keys), ingest, fanout-streams with its query API, and gateway nodes wired as
 * {@link GatewayMain} wires them (HMAC dev secret) — in-process, or as a child JVM that a test can
 * kill -9. Events are published through ingest's HTTP API, as a business service would.
 *
 * <p>{@code notify.events} has one partition here, so the order of publishing is the order of the
 * per-stream seqs and a test can assert the exact list of ids its listener receives.
 */
public final class NotifyStack implements AutoCloseable {

    public static final String SECRET = "client-it-secret-0123456789abcdef0123456789";
    public static final String ISSUER = "notify-client-it";
    public static final String AUDIENCE = "notify";
    private static final String PRODUCER_KEY = "client-it-producer-key-0123456789";
    private static final Pattern LISTENING = Pattern.compile("listening on [^\\s:]+:(\\d+)");

    private final Infra infra;
    private final Path dir;
    private final IngestServer ingest;
    private final FanoutService fanout;
    private final List<GatewayServer> gateways = new ArrayList<>();
    private final Map<GatewayServer, String> nodeIds = new HashMap<>();
    private final List<JavaProcess> children = new ArrayList<>();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    public NotifyStack(Infra infra, Path dir) {
        this.infra = infra;
        this.dir = dir;
        TopicCatalog topics = TopicCatalog.of(infra.prefix());
        infra.createTopic(topics.events().name(), 1); // one partition: publish order = seq order (see class comment)
        infra.createTopic(topics.eventsDlq().name(), 1);
        infra.createTopic(topics.streamLog().name(), 3);
        infra.createTopic(topics.undelivered().name(), 1);
        this.ingest = new IngestServer(IngestConfig.load(Settings.of(Map.of(
                "notify.kafka.bootstrap-servers", infra.bootstrapServers(),
                "notify.topic-prefix", infra.prefix(),
                "notify.ingest.host", "127.0.0.1",
                "notify.ingest.port", "0",
                "notify.ingest.io-threads", "2",
                "notify.ingest.api-keys", "it:" + PRODUCER_KEY)))).start();
        this.fanout = new FanoutService(FanoutConfig.load(Settings.of(Map.of(
                "notify.kafka.bootstrap-servers", infra.bootstrapServers(),
                "notify.topic-prefix", infra.prefix(),
                "notify.redis.uri", infra.redisUri(),
                "notify.fanout.state-dir", dir.resolve("fanout-state").toString(),
                "notify.fanout.commit-interval", "100ms",
                "notify.fanout.query.host", "127.0.0.1",
                "notify.fanout.query.port", "0")))).start();
        Await.until("fanout-streams RUNNING", Duration.ofSeconds(60),
                () -> fanout.app().streams().state() == KafkaStreams.State.RUNNING);
    }

    /** The settings of gateway {@code nodeId}, as key=value pairs for GatewayMain. */
    private Map<String, String> gatewaySettings(String nodeId) {
        Map<String, String> m = new HashMap<>();
        m.put("notify.gateway.node-id", nodeId);
        m.put("notify.gateway.host", "127.0.0.1");
        m.put("notify.gateway.port", "0");
        m.put("notify.gateway.io-threads", "2");
        m.put("notify.gateway.jwt.hmac-secret", SECRET);
        m.put("notify.gateway.jwt.issuer", ISSUER);
        m.put("notify.gateway.jwt.audience", AUDIENCE);
        m.put("notify.gateway.query-url", "http://127.0.0.1:" + fanout.queryPort());
        m.put("notify.gateway.node-topic-partitions", "1");
        m.put("notify.gateway.drain-window", "1s");
        m.put("notify.gateway.drain-grace", "1s");
        m.put("notify.kafka.bootstrap-servers", infra.bootstrapServers());
        m.put("notify.redis.uri", infra.redisUri());
        m.put("notify.topic-prefix", infra.prefix());
        m.put("notify.registry.key-prefix", infra.prefix()); // fanout looks routes up under the topic prefix
        return m;
    }

    /** A gateway node in this JVM, wired like {@link GatewayMain}; returns its base URL. */
    public URI startGateway(String nodeId) {
        GatewayServer server = GatewayService.fromSettings(Settings.of(gatewaySettings(nodeId))).start();
        gateways.add(server);
        nodeIds.put(server, nodeId);
        return URI.create("http://127.0.0.1:" + server.port());
    }

    /** A counter of an in-process gateway node, e.g. {@code notify.gateway.acks}. */
    public double count(String nodeId, String meter, String... tags) {
        return gateways.stream().filter(g -> nodeId.equals(nodeIds.get(g))).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no in-process gateway " + nodeId))
                .metrics().count(meter, tags);
    }

    /** A gateway node as a child JVM ({@link GatewayMain}); waits until it listens. */
    public ChildGateway startChildGateway(String nodeId) throws Exception {
        List<String> args = new ArrayList<>();
        gatewaySettings(nodeId).forEach((k, v) -> args.add(k + "=" + v));
        Path log = dir.resolve(nodeId + ".log");
        JavaProcess process = new JavaProcess(GatewayMain.class.getName(), args,
                List.of("-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"), log).start();
        children.add(process);
        process.awaitLog("listening on", Duration.ofSeconds(60));
        Matcher m = LISTENING.matcher(Files.readString(log, StandardCharsets.UTF_8));
        if (!m.find()) {
            throw new IllegalStateException("no port in " + log);
        }
        return new ChildGateway(process, URI.create("http://127.0.0.1:" + m.group(1)));
    }

    /** A child-JVM gateway and its base URL. */
    public record ChildGateway(JavaProcess process, URI url) {
    }

    /** A client token for {@code user}, signed with the stack's dev secret. */
    public static String token(String user, Duration ttl) {
        Instant now = Instant.now();
        JWTClaimsSet claims = new JWTClaimsSet.Builder().subject(user).issuer(ISSUER).audience(AUDIENCE)
                .issueTime(Date.from(now)).expirationTime(Date.from(now.plus(ttl))).build();
        try {
            SignedJWT jwt = new SignedJWT(new JWSHeader(JWSAlgorithm.HS256), claims);
            jwt.sign(new MACSigner(SECRET.getBytes(StandardCharsets.US_ASCII)));
            return jwt.serialize();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** Publishes one durable event for {@code user} through ingest; returns once ingest answered 202. */
    public void publish(String user, String id) {
        String body = "{\"id\":\"" + id + "\",\"type\":\"demo.hello\",\"to\":{\"users\":[\"" + user
                + "\"]},\"data\":{\"text\":\"hello " + id + "\"}}";
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + ingest.port() + "/v1/events"))
                .header("Authorization", "Bearer " + PRODUCER_KEY)
                .header("Content-Type", "application/json")
                .timeout(Duration.ofSeconds(15))
                .POST(HttpRequest.BodyPublishers.ofString(body)).build();
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        String last = "";
        while (System.nanoTime() < deadline) {
            try {
                HttpResponse<String> r = http.send(request, HttpResponse.BodyHandlers.ofString());
                if (r.statusCode() == 202) {
                    return;
                }
                last = r.statusCode() + " " + r.body();
                if (r.statusCode() != 503) { // 503: Kafka not ready yet; anything else is a test bug
                    break;
                }
            } catch (Exception e) {
                last = e.toString();
            }
            java.util.concurrent.locks.LockSupport.parkNanos(200_000_000); // pause between retries of a 503
        }
        throw new AssertionError("publishing " + id + " failed: " + last);
    }

    @Override
    public void close() {
        for (JavaProcess p : children) {
            try {
                p.kill();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        gateways.forEach(GatewayServer::stop);
        fanout.close();
        ingest.close();
    }
}
