package io.notify.e2e.browser;

import io.notify.gateway.GatewayService;
import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import io.notify.common.config.Settings;
import io.notify.devstack.FreePorts;
import io.notify.devstack.Infra;
import io.notify.fanout.FanoutConfig;
import io.notify.fanout.FanoutService;
import io.notify.gateway.GatewayServer;
import io.notify.ingest.IngestConfig;
import io.notify.ingest.IngestServer;
import io.notify.schemas.topic.TopicCatalog;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;

/**
 * The platform as {@code notifyctl dev} runs it, in this JVM, on the run's Kafka and Redis with this
 * test's prefix: ingest (CORS on for the gateways' origins), one fanout-streams instance with its
 * query API, and gateway nodes with an HS256 dev key. Gateway ports are chosen before anything
 * starts, because every node's origin allowlist and ingest's CORS list must name the origin of the
 * demo page, which is a gateway.
 */
final class BrowserStack implements AutoCloseable {

    static final String PRODUCER_KEY = "e2e-producer-key-0123456789";
    private static final String ISSUER = "notify-e2e";
    private static final String AUDIENCE = "notify";

    private final Infra infra;
    private final String jwtSecret = UUID.randomUUID() + "-" + UUID.randomUUID();
    private final IngestServer ingest;
    private final FanoutService fanout;
    private final Map<String, Integer> ports = new LinkedHashMap<>();
    private final Map<String, GatewayServer> gateways = new LinkedHashMap<>();
    private final String origins;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    BrowserStack(Infra infra, Path dir, List<String> nodeIds) {
        this.infra = infra;
        int[] free = FreePorts.pick(nodeIds.size());
        for (int i = 0; i < nodeIds.size(); i++) {
            ports.put(nodeIds.get(i), free[i]);
        }
        this.origins = ports.values().stream().map(BrowserStack::origin).collect(Collectors.joining(","));
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
                "notify.ingest.api-keys", "e2e:" + PRODUCER_KEY,
                "notify.ingest.cors-origins", origins)))).start();
        this.fanout = new FanoutService(FanoutConfig.load(Settings.of(Map.of(
                "notify.kafka.bootstrap-servers", infra.bootstrapServers(),
                "notify.topic-prefix", infra.prefix(),
                "notify.redis.uri", infra.redisUri(),
                "notify.fanout.state-dir", dir.resolve("fanout").toString(),
                "notify.fanout.query.host", "127.0.0.1",
                "notify.fanout.query.port", "0",
                // The default 50 ms is a production bound on a stream-thread wait. On a loaded 2-core CI
                // machine the first Redis lookup can exceed it, and the live push is then skipped
                // (undelivered: registry_unavailable). The event is still in the inbox, but a connected
                // page would only see it after the next event's gap fill. This test is about the browser.
                "notify.fanout.route-timeout", "2s")))).start();
        for (String nodeId : nodeIds) {
            gateways.put(nodeId, startGateway(nodeId, ports.get(nodeId)));
        }
    }

    private GatewayServer startGateway(String nodeId, int port) {
        Map<String, String> v = new HashMap<>();
        v.put("notify.kafka.bootstrap-servers", infra.bootstrapServers());
        v.put("notify.redis.uri", infra.redisUri());
        v.put("notify.topic-prefix", infra.prefix());
        v.put("notify.registry.key-prefix", infra.prefix());
        v.put("notify.gateway.node-id", nodeId);
        v.put("notify.gateway.host", "127.0.0.1");
        v.put("notify.gateway.port", Integer.toString(port));
        v.put("notify.gateway.io-threads", "2");
        v.put("notify.gateway.node-topic-partitions", "2");
        v.put("notify.gateway.query-url", "http://127.0.0.1:" + fanout.queryPort());
        v.put("notify.gateway.jwt.hmac-secret", jwtSecret);
        v.put("notify.gateway.jwt.issuer", ISSUER);
        v.put("notify.gateway.jwt.audience", AUDIENCE);
        v.put("notify.gateway.allowed-origins", origins);
        v.put("notify.gateway.drain-window", "1s");
        v.put("notify.gateway.drain-grace", "1s");
        return GatewayService.fromSettings(Settings.of(v)).start();
    }

    /** The browser origin of a gateway port: the demo page's origin when it is served by that node. */
    static String origin(int port) {
        return "http://127.0.0.1:" + port;
    }

    GatewayServer gateway(String nodeId) {
        return gateways.get(nodeId);
    }

    /** Starts {@code nodeId} again, as a new incarnation on the same port (after {@code gateway(nodeId).stop()}). */
    GatewayServer restart(String nodeId) {
        gateways.get(nodeId).stop();
        GatewayServer g = startGateway(nodeId, ports.get(nodeId));
        gateways.put(nodeId, g);
        return g;
    }

    /**
     * The demo page on {@code nodeId} in dev mode: connected with {@code token} to all gateways
     * (that node first), publish form on.
     */
    String demoUrl(String nodeId, String token, String transport) {
        List<String> order = new ArrayList<>(ports.keySet());
        order.remove(nodeId);
        order.add(0, nodeId);
        String gatewayList = order.stream().map(n -> origin(ports.get(n))).collect(Collectors.joining(","));
        return origin(ports.get(nodeId)) + "/?token=" + enc(token) + "&gateways=" + enc(gatewayList)
                + "&transport=" + transport + "&ingest=" + enc("http://127.0.0.1:" + ingest.port()) + "&key=" + enc(PRODUCER_KEY);
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    /** A client token for {@code user}, valid for an hour. */
    String token(String user) {
        Instant now = Instant.now();
        JWTClaimsSet claims = new JWTClaimsSet.Builder().subject(user).issuer(ISSUER).audience(AUDIENCE)
                .issueTime(Date.from(now)).expirationTime(Date.from(now.plus(Duration.ofHours(1)))).build();
        try {
            SignedJWT jwt = new SignedJWT(new JWSHeader(JWSAlgorithm.HS256), claims);
            jwt.sign(new MACSigner(jwtSecret.getBytes(StandardCharsets.US_ASCII)));
            return jwt.serialize();
        } catch (JOSEException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Publishes a durable event with id {@code id} to {@code user} through ingest; returns after the 202. */
    void publish(String user, String id) throws IOException, InterruptedException {
        String body = "{\"id\":\"" + id + "\",\"type\":\"e2e.test\",\"to\":{\"users\":[\"" + user + "\"]},\"data\":{\"text\":\"" + id + "\"}}";
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + ingest.port() + "/v1/events"))
                .header("Authorization", "Bearer " + PRODUCER_KEY).header("Content-Type", "application/json")
                .timeout(Duration.ofSeconds(30)).POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 202) {
            throw new IllegalStateException("ingest answered " + r.statusCode() + " to " + id + ": " + r.body());
        }
    }

    /** Server-side counters and the stream's head, for failure messages. */
    String diagnostics(String user) {
        StringBuilder sb = new StringBuilder();
        gateways.forEach((nodeId, g) -> {
            sb.append(nodeId).append(":\n");
            g.meterRegistry().scrape().lines()
                    .filter(l -> l.matches("notify_gateway_(connections|events_delivered|duplicates_dropped|gap_fills|delivery_messages"
                            + "|resets|closes|events_replayed|acks)_?\\w*\\{?.*"))
                    .forEach(l -> sb.append("  ").append(l).append('\n'));
        });
        sb.append("fanout:\n");
        fanout.meters().scrape().lines().filter(l -> l.startsWith("notify_") && !l.contains("_bucket{"))
                .forEach(l -> sb.append("  ").append(l).append('\n'));
        try {
            HttpResponse<String> head = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + fanout.queryPort()
                    + "/v1/streams/u:" + user + "/events?after=0&limit=50")).timeout(Duration.ofSeconds(5)).build(),
                    HttpResponse.BodyHandlers.ofString());
            sb.append("query API inbox of u:").append(user).append(": ").append(head.statusCode()).append(' ').append(head.body());
        } catch (IOException e) {
            sb.append("query API unreachable: ").append(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return sb.toString();
    }

    @Override
    public void close() {
        gateways.values().forEach(GatewayServer::stop);
        fanout.close();
        ingest.close();
    }
}
