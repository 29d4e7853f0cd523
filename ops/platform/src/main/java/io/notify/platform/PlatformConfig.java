package io.notify.platform;

import io.notify.common.config.PlatformSettings;
import io.notify.push.webpush.VapidKeys;
import io.notify.schemas.topic.TopicCatalog;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.errors.TopicExistsException;

/**
 * How the services of one Notify platform are wired to each other: the one place that writes each
 * service's settings and creates the platform's topics, for the in-process {@link Platform} (tests,
 * {@code notifyctl dev}) and the multi-process {@link PlatformStack} (bench, chaos). Built by
 * {@link Platform#builder} or {@link Platform#forTest}; immutable.
 *
 * <p>Every service gets the shared settings (Kafka, topic prefix, Redis; the registry key prefix
 * follows the topic prefix), then the platform's wiring (ports, the query API URLs, the dev JWT key,
 * the query API's service token, the producer key; the query API on loopback), then the settings
 * added for its kind, which override both.
 */
public final class PlatformConfig {

    /** How long {@link #createTopics} waits for the topics and their partition leaders. */
    static final Duration TOPIC_TIMEOUT = Duration.ofSeconds(60);

    /**
     * Partition counts of the platform's topics. {@code events} is the one tests vary: with one
     * partition the order of publishing is the order of every stream's seqs.
     */
    public record Partitions(int events, int dlq, int streamLog, int undelivered) {

        /** Small, for ITs on a shared broker. */
        public static final Partitions TEST = new Partitions(3, 1, 3, 1);
        /** The production starting points docs/topics.md gives (TopicDocsTest keeps them equal). */
        public static final Partitions PRODUCTION = new Partitions(12, 3, 12, 6);
        /** What {@code notifyctl dev}, bench and chaos run with: half of production where a 2-core laptop feels it. */
        public static final Partitions DEV = new Partitions(6, 3, 6, 3);

        public Partitions {
            if (events < 1 || dlq < 1 || streamLog < 1 || undelivered < 1) {
                throw new IllegalArgumentException("every topic needs at least one partition: " + this);
            }
        }

        public Partitions withEvents(int n) {
            return new Partitions(n, dlq, streamLog, undelivered);
        }

        /** notify.events (so the by-stream topic and the fanout tasks) and the stream log with {@code n} partitions each. */
        public Partitions withStreams(int n) {
            return new Partitions(n, dlq, n, undelivered);
        }
    }

    private final String bootstrapServers;
    private final String redisUri;
    private final boolean redisCluster;
    private final String prefix;
    private final Partitions partitions;
    private final DevKeys keys;
    private final Map<String, String> kafkaClient;
    private final Map<String, String> ingest;
    private final Map<String, String> fanout;
    private final Map<String, String> gateway;
    private final Map<String, String> push;
    private final VapidKeys vapid;

    PlatformConfig(String bootstrapServers, String redisUri, boolean redisCluster, String prefix, Partitions partitions, DevKeys keys,
                   Map<String, String> kafkaClient, Map<String, String> ingest, Map<String, String> fanout,
                   Map<String, String> gateway) {
        this(bootstrapServers, redisUri, redisCluster, prefix, partitions, keys, kafkaClient, ingest, fanout, gateway, Map.of(),
                VapidKeys.generate());
    }

    /** @param vapid the Web Push key pair of this platform's push sender (the browsers' applicationServerKey is its public half) */
    PlatformConfig(String bootstrapServers, String redisUri, boolean redisCluster, String prefix, Partitions partitions, DevKeys keys,
                   Map<String, String> kafkaClient, Map<String, String> ingest, Map<String, String> fanout,
                   Map<String, String> gateway, Map<String, String> push, VapidKeys vapid) {
        this.bootstrapServers = bootstrapServers;
        this.redisUri = redisUri;
        this.redisCluster = redisCluster;
        this.prefix = prefix;
        this.partitions = partitions;
        this.keys = keys;
        this.kafkaClient = Map.copyOf(kafkaClient);
        this.ingest = Map.copyOf(ingest);
        this.fanout = Map.copyOf(fanout);
        this.gateway = Map.copyOf(gateway);
        this.push = Map.copyOf(push);
        this.vapid = vapid;
    }

    /** The push sender's VAPID key pair: browsers subscribe with its public key (notifyctl dev prints it). */
    public VapidKeys vapid() {
        return vapid;
    }

    public String bootstrapServers() {
        return bootstrapServers;
    }

    public String redisUri() {
        return redisUri;
    }

    /** The registry's Redis is a Redis Cluster ({@code notify.redis.cluster}); {@link #redisUri} lists its seed nodes. */
    public boolean redisCluster() {
        return redisCluster;
    }

    /** The topic prefix, also the registry key prefix ("" in production and {@code notifyctl dev}). */
    public String prefix() {
        return prefix;
    }

    /** Kafka client properties every service's clients get ({@code notify.kafka.client.*}): SASL, TLS. */
    public Map<String, String> kafkaClient() {
        return kafkaClient;
    }

    public TopicCatalog topics() {
        return TopicCatalog.of(prefix);
    }

    public DevKeys keys() {
        return keys;
    }

    /**
     * The platform's settings for ingest listening on {@code port}, its management listener
     * ({@code /metrics}) on {@code managementPort} (0: any); {@code corsOrigins} may be empty.
     */
    public Map<String, String> ingestSettings(int port, int managementPort, String corsOrigins) {
        Map<String, String> s = shared();
        s.put("notify.ingest.port", Integer.toString(port));
        s.put("notify.ingest.management-port", Integer.toString(managementPort));
        s.put("notify.ingest.api-keys", DevKeys.ingestApiKeys());
        if (!corsOrigins.isEmpty()) {
            s.put("notify.ingest.cors-origins", corsOrigins); // the demo pages publish through ingest with fetch
        }
        s.putAll(ingest);
        return s;
    }

    /**
     * The platform's settings for a fanout-streams instance with its state in {@code stateDir}, its
     * query API on {@code 127.0.0.1:queryPort} accepting the platform's query token, and its
     * management listener on {@code managementPort}.
     */
    public Map<String, String> fanoutSettings(String stateDir, int queryPort, int managementPort) {
        Map<String, String> s = shared();
        s.put("notify.fanout.state-dir", stateDir);
        s.put("notify.fanout.query.host", "127.0.0.1"); // every dev and test platform runs on one machine
        s.put("notify.fanout.query.port", Integer.toString(queryPort));
        s.put("notify.fanout.management-port", Integer.toString(managementPort));
        s.putAll(keys.fanoutSettings());
        s.putAll(fanout);
        return s;
    }

    /**
     * The platform's settings for gateway {@code nodeId} on {@code port} (0: any) with its management
     * listener on {@code managementPort}, reading history from {@code queryUrls}; {@code allowedOrigins}
     * may be empty (no browser origin allowed).
     */
    public Map<String, String> gatewaySettings(String nodeId, int port, int managementPort, List<String> queryUrls,
                                               String allowedOrigins) {
        Map<String, String> s = shared();
        s.put("notify.gateway.node-id", nodeId);
        s.put("notify.gateway.port", Integer.toString(port));
        s.put("notify.gateway.management-port", Integer.toString(managementPort));
        s.put("notify.gateway.query-url", String.join(",", queryUrls));
        s.putAll(keys.gatewaySettings());
        // dev and tests only: a local push service (http, loopback) may be registered; docs/push.md
        s.put("notify.gateway.push.allow-private-endpoints", "true");
        s.put("notify.gateway.push.vapid-public-key", vapid.publicKeyBase64Url());
        if (!allowedOrigins.isEmpty()) {
            s.put("notify.gateway.allowed-origins", allowedOrigins);
        }
        s.putAll(gateway);
        return s;
    }

    /**
     * The platform's settings for the push sender with its management listener on {@code managementPort}:
     * Web Push with this platform's VAPID pair, and (dev and tests only) {@code http} endpoints on loopback
     * allowed, for a local push service. FCM and APNs are on when the push settings added name their credentials.
     */
    public Map<String, String> pushSettings(int managementPort) {
        Map<String, String> s = shared();
        s.put("notify.push.management-host", "127.0.0.1");
        s.put("notify.push.management-port", Integer.toString(managementPort));
        s.put("notify.push.webpush.subject", "mailto:dev@notify.invalid");
        s.put("notify.push.webpush.vapid-public-key", vapid.publicKeyBase64Url());
        s.put("notify.push.webpush.vapid-private-key", vapid.privateKeyBase64Url());
        s.put("notify.push.webpush.allow-insecure-endpoints", "true");
        s.putAll(push);
        return s;
    }

    private Map<String, String> shared() {
        Map<String, String> s = new LinkedHashMap<>();
        s.put("notify.kafka.bootstrap-servers", bootstrapServers);
        s.put("notify.topic-prefix", prefix);
        s.put("notify.redis.uri", redisUri);
        if (redisCluster) {
            s.put("notify.redis.cluster", "true");
        }
        kafkaClient.forEach((k, v) -> s.put("notify.kafka.client." + k, v));
        return s;
    }

    /** The browser origins of gateways on {@code ports} (localhost and 127.0.0.1), comma-separated: where their demo pages come from. */
    public static String browserOrigins(Collection<Integer> ports) {
        List<String> origins = new ArrayList<>();
        for (int p : ports) {
            origins.add("http://localhost:" + p);
            origins.add("http://127.0.0.1:" + p);
        }
        return String.join(",", origins);
    }

    /**
     * Creates the platform's topics (those that exist are kept) and waits until every partition has
     * a leader, so that the services' first produce does not race the metadata.
     */
    public void createTopics() throws InterruptedException, ExecutionException, TimeoutException {
        TopicCatalog t = topics();
        Map<String, Integer> wanted = new LinkedHashMap<>();
        wanted.put(t.events().name(), partitions.events());
        wanted.put(t.eventsDlq().name(), partitions.dlq());
        wanted.put(t.streamLog().name(), partitions.streamLog());
        wanted.put(t.undelivered().name(), partitions.undelivered());
        long deadline = System.nanoTime() + TOPIC_TIMEOUT.toNanos();
        try (Admin admin = Admin.create(PlatformSettings.kafkaProps(bootstrapServers, kafkaClient))) {
            // one request for all four; each topic's own future says whether it already existed
            Map<String, KafkaFuture<Void>> created = admin.createTopics(wanted.entrySet().stream()
                    .map(w -> new NewTopic(w.getKey(), w.getValue(), (short) 1)).toList()).values();
            for (KafkaFuture<Void> topic : created.values()) {
                try {
                    topic.get(TOPIC_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
                } catch (ExecutionException e) {
                    if (!(e.getCause() instanceof TopicExistsException)) {
                        throw e;
                    }
                }
            }
            while (!allLeadersKnown(admin, wanted)) {
                if (System.nanoTime() - deadline > 0) {
                    throw new TimeoutException("no leader for every partition of " + wanted.keySet() + " within " + TOPIC_TIMEOUT);
                }
                LockSupport.parkNanos(20_000_000); // poll interval of a bounded metadata wait
            }
        }
    }

    private static boolean allLeadersKnown(Admin admin, Map<String, Integer> wanted) throws InterruptedException {
        try {
            Map<String, TopicDescription> found = admin.describeTopics(wanted.keySet()).allTopicNames().get(5, TimeUnit.SECONDS);
            return wanted.entrySet().stream().allMatch(w -> {
                TopicDescription d = found.get(w.getKey());
                return d != null && d.partitions().size() >= w.getValue()
                        && d.partitions().stream().map(TopicPartitionInfo::leader).allMatch(l -> l != null && !l.isEmpty());
            });
        } catch (ExecutionException | TimeoutException notYet) {
            return false; // not visible on the broker yet
        }
    }
}
