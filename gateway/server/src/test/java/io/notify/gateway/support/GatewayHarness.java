package io.notify.gateway.support;

import io.notify.devstack.Infra;
import io.notify.gateway.GatewayServer;
import io.notify.gateway.GatewayService;
import io.notify.gateway.config.GatewayConfig;
import io.notify.protocol.stream.DeliveryMessage;
import io.notify.protocol.stream.SequencedEvent;
import io.notify.protocol.stream.StreamEvent;
import io.notify.protocol.stream.StreamId;
import io.notify.schemas.topic.Topic;
import io.notify.schemas.topic.TopicCatalog;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * A real gateway node for ITs: real Kafka and Redis from the devstack, the real Redis registry,
 * the HTTP resume source pointed at its own {@link QueryApiStub}, tokens from its own RSA key set
 * ({@link Tokens}), listening on port 0; plus a producer that writes DeliveryMessages to its node
 * topic as fanout-streams would. {@link #close} stops all of it.
 */
public final class GatewayHarness implements AutoCloseable {

    private final GatewayServer server;
    private final GatewayConfig config;
    private final KafkaProducer<StreamId, DeliveryMessage> producer;
    private final Topic<StreamId, DeliveryMessage> topic;
    private final Tokens tokens;
    private final QueryApiStub stub;

    public GatewayHarness(Infra infra, String nodeId, Map<String, String> overrides) {
        this(infra, nodeId, overrides, new QueryApiStub(), null);
    }

    /** A node that reads history from {@code stub} (e.g. one over HTTPS); {@link #close} closes it. */
    public GatewayHarness(Infra infra, String nodeId, Map<String, String> overrides, QueryApiStub stub) {
        this(infra, nodeId, overrides, stub, null);
    }

    /** A node whose clock (token and ticket expiry, inbox times) is {@code clock}; null: the system clock. */
    public GatewayHarness(Infra infra, String nodeId, Map<String, String> overrides, Clock clock) {
        this(infra, nodeId, overrides, new QueryApiStub(), clock);
    }

    private GatewayHarness(Infra infra, String nodeId, Map<String, String> overrides, QueryApiStub stub, Clock clock) {
        this.stub = stub;
        this.tokens = new Tokens("test-key", clock == null ? Clock.systemUTC() : clock);
        Map<String, String> m = new HashMap<>();
        m.put("notify.gateway.node-id", nodeId);
        m.put("notify.kafka.bootstrap-servers", infra.bootstrapServers());
        m.put("notify.redis.uri", infra.redisUri());
        m.put("notify.topic-prefix", infra.prefix());
        m.put("notify.registry.key-prefix", infra.prefix());
        m.put("notify.gateway.jwt.hmac-secret", "");
        m.put("notify.gateway.jwt.jwks-file", tokens.jwksFile().toString());
        m.put("notify.gateway.query-url", stub.url().toString());
        m.put("notify.gateway.query-timeout", "2s");
        m.put("notify.gateway.resume-retry-max", "200ms");
        m.put("notify.gateway.node-topic-partitions", "2");
        // the timings of the registry before issue 12 (RegistryIT and the resume tests were written for them)
        m.put("notify.registry.lease", "45s");
        m.put("notify.registry.renew-interval", "15s");
        m.put("notify.registry.alive-ttl", "10s");
        m.put("notify.registry.alive-refresh", "3s");
        m.putAll(overrides);
        Map<String, String> all = TestConfig.base();
        all.remove("notify.gateway.jwt.hmac-secret");
        all.putAll(m);
        all.values().removeIf(String::isEmpty);
        this.server = GatewayService.fromSettings(io.notify.common.config.Settings.of(all),
                new GatewayService.Doubles(null, null, clock)).start();
        this.config = server.config();
        this.topic = TopicCatalog.of(infra.prefix()).node(nodeId);
        Map<String, Object> p = new HashMap<>();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, infra.bootstrapServers());
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.LINGER_MS_CONFIG, 0);
        p.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, 1024 * 1024);
        this.producer = new KafkaProducer<>(p, topic.keySerde().serializer(), topic.valueSerde().serializer());
    }

    /** Mints the tokens this node accepts (and the forged ones it must refuse). */
    public Tokens tokens() {
        return tokens;
    }

    /** The query API this node reads history from: append events to it to make them resumable. */
    public QueryApiStub stub() {
        return stub;
    }

    public GatewayServer server() {
        return server;
    }

    public GatewayConfig config() {
        return config;
    }

    public int port() {
        return server.port();
    }

    /** {@code ws://…/v1/ws}, or {@code wss://} when the node has {@code notify.gateway.tls.*}. */
    public URI ws() {
        return URI.create((config.tls() == null ? "ws" : "wss") + "://127.0.0.1:" + port() + "/v1/ws");
    }

    public URI http(String pathAndQuery) {
        return URI.create(scheme() + "://127.0.0.1:" + port() + pathAndQuery);
    }

    /** A path on the management listener ({@code /metrics}, {@code /healthz}, {@code /readyz}). */
    public URI management(String path) {
        return URI.create(scheme() + "://127.0.0.1:" + server.managementPort() + path);
    }

    private String scheme() {
        return config.tls() == null ? "http" : "https";
    }

    /** Routes events to this node as fanout-streams would: one DeliveryMessage each, to all connections. */
    public void deliver(List<? extends StreamEvent> events) {
        try {
            for (StreamEvent e : events) {
                producer.send(new ProducerRecord<>(topic.name(), e.stream(), DeliveryMessage.toAll(e, System.currentTimeMillis())));
            }
            producer.flush();
        } catch (RuntimeException e) {
            throw new IllegalStateException("produce failed", e);
        }
    }

    public void deliver(StreamEvent... events) {
        deliver(List.of(events));
    }

    /** What fanout-streams does with a new event: appends it to the inbox (the stub), then routes it here. */
    public void publish(List<SequencedEvent> events) {
        stub.append(events);
        deliver(events);
    }

    public void publish(SequencedEvent... events) {
        publish(List.of(events));
    }

    public void deliverTo(StreamEvent event, List<String> connections) {
        try {
            producer.send(new ProducerRecord<>(topic.name(), event.stream(),
                    DeliveryMessage.toConnections(event, connections, System.currentTimeMillis()))).get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    public double count(String name, String... tags) {
        return server.metrics().count(name, tags);
    }

    @Override
    public void close() {
        producer.close(Duration.ofSeconds(2));
        server.stop();
        stub.close();
    }
}
