package io.notify.cli.doctor;

import io.lettuce.core.RedisException;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import io.notify.common.config.PlatformSettings;
import io.notify.registry.RegistryClients;
import io.notify.registry.RegistryRedis;
import io.notify.registry.RegistryKeys;
import io.notify.schemas.topic.TopicCatalog;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * One run of {@code notifyctl doctor} against a running deployment: one Kafka admin client, one Redis
 * connection (the registry's own client options, {@link RegistryClients}), the checks in
 * {@link DoctorOptions#checks()} order of need, and their findings in a fixed order (topics, redis,
 * liveness, lag, clock). The liveness keys are sampled first and again after the Kafka checks, at
 * least {@code alive-refresh} later, so the wait costs nothing when Kafka takes as long.
 */
final class Doctor {

    /** The checks, in the order their findings are printed. */
    static final List<String> CHECKS = List.of(TopicsJudge.CHECK, RedisMode.CHECK, LivenessJudge.CHECK, ConsumerLag.CHECK, ClockSkew.CHECK);

    private final DoctorOptions o;
    private final Map<String, List<Finding>> findings = new LinkedHashMap<>();
    private final Map<String, Object> kafkaProps;

    Doctor(DoctorOptions options) {
        this.o = options;
        CHECKS.forEach(c -> findings.put(c, new ArrayList<>()));
        kafkaProps = new HashMap<>(PlatformSettings.kafkaProps(o.bootstrap(), o.kafkaProperties()));
        kafkaProps.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) o.timeout().toMillis());
        kafkaProps.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) o.timeout().toMillis());
    }

    /** Runs the chosen checks; the findings in print order. */
    List<Finding> run() throws InterruptedException {
        RegistryKeys registry = new RegistryKeys(o.registryKeyPrefix());
        TopicCatalog catalog = o.topics();
        RegistryRedis client = null;
        RegistryRedis clusterClient = null;
        try (Admin admin = Admin.create(kafkaProps)) {
            RedisCommands<String, String> redis = null;
            RedisClusterCommands<String, String> keys = null;
            if (wants(RedisMode.CHECK) || wants(LivenessJudge.CHECK) || wants(TopicsJudge.CHECK) || wants(ClockSkew.CHECK)) {
                try {
                    // one node, the first seed: its INFO says the mode (the liveness keys of a Cluster are read below)
                    client = RegistryClients.create(o.redisUri().split(",")[0].trim(), false, o.timeout());
                    redis = client.connect().standalone().sync();
                    keys = redis;
                } catch (RedisException | IllegalArgumentException e) {
                    add(RedisMode.CHECK, Finding.fail(RedisMode.CHECK, "cannot connect to Redis at " + o.redisForHumans() + ": " + e.getMessage(),
                            "check notify.redis.uri (--set, --config or NOTIFY_REDIS_URI) and that Redis runs"));
                }
            }
            AliveKeys first = null;
            try {
                if (redis != null && wants(RedisMode.CHECK)) {
                    findings.get(RedisMode.CHECK).addAll(RedisMode.check(redis, o.redisForHumans(), o.redisCluster()));
                }
                if (redis != null && o.redisCluster()) {
                    // the liveness keys spread over the masters: read them through a cluster connection
                    try {
                        clusterClient = RegistryClients.create(o.redisUri(), true, o.timeout());
                        keys = ((StatefulRedisClusterConnection<String, String>) clusterClient.connect().stateful()).sync();
                    } catch (RedisException | ClassCastException notACluster) {
                        keys = redis; // the redis check says why (mode mismatch); read what the seed holds
                    }
                }
                first = redis == null ? null : AliveKeys.sample(keys, registry);
            } catch (RedisException e) {
                add(RedisMode.CHECK, Finding.fail(RedisMode.CHECK, "Redis at " + o.redisForHumans() + " failed: " + e.getMessage(),
                        "check that Redis runs and answers within --timeout"));
                redis = null;
                keys = null;
            }

            if (first == null && wants(LivenessJudge.CHECK)) {
                add(LivenessJudge.CHECK, Finding.fail(LivenessJudge.CHECK, "cannot read the liveness keys: Redis is unreachable",
                        "see the redis finding"));
            }
            Map<String, TopicState> topics = null;
            try {
                topics = describe(admin, catalog);
            } catch (ExecutionException | TimeoutException | KafkaException e) {
                String problem = "cannot read the topics from Kafka at " + o.bootstrap() + " within " + text(o.timeout()) + ": " + e;
                for (String c : List.of(TopicsJudge.CHECK, ConsumerLag.CHECK, ClockSkew.CHECK)) {
                    if (wants(c)) {
                        add(c, Finding.fail(c, problem, "check --bootstrap-servers, --kafka-property (security) and that the brokers run"));
                    }
                }
            }
            if (topics != null && wants(ConsumerLag.CHECK)) {
                lag(admin);
            }
            if (wants(ClockSkew.CHECK)) {
                clock(admin, redis, topics != null);
            }

            List<String> liveNodes = first == null ? List.of() : List.copyOf(first.keys().keySet());
            if (first != null && (wants(LivenessJudge.CHECK) || wants(TopicsJudge.CHECK))) {
                long due = first.atMillis() + o.aliveRefresh().toMillis() + LivenessJudge.SLACK_MS;
                while (System.currentTimeMillis() < due) {
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(due - System.currentTimeMillis())); // one refresh interval: a running node refreshes its key
                }
                Set<String> nodeTopics = new TreeSet<>();
                if (topics != null) {
                    topics.keySet().forEach(name -> catalog.nodeIdOf(name).ifPresent(nodeTopics::add));
                }
                try {
                    LivenessJudge.Verdict verdict = LivenessJudge.judge(first, AliveKeys.sample(keys, registry), o.aliveTtl(), nodeTopics,
                            registry.alive(""), catalog.prefix() + TopicCatalog.NODE_PREFIX);
                    liveNodes = verdict.liveNodes();
                    if (wants(LivenessJudge.CHECK)) {
                        findings.get(LivenessJudge.CHECK).addAll(verdict.findings());
                    }
                } catch (RedisException e) {
                    add(LivenessJudge.CHECK, Finding.fail(LivenessJudge.CHECK, "cannot read the liveness keys again: " + e.getMessage(),
                            "check that Redis runs and answers within --timeout"));
                }
            }
            if (topics != null && wants(TopicsJudge.CHECK)) {
                TopicState events = topics.get(catalog.events().name());
                TopicRule.Layout layout = new TopicRule.Layout(catalog, events == null ? 0 : events.partitions(), o.streamPartitions(),
                        o.nodeTopicPartitions());
                findings.get(TopicsJudge.CHECK).addAll(TopicsJudge.judge(TopicRule.expected(layout, liveNodes), topics, o.replication()));
            }
        } finally {
            if (clusterClient != null) {
                clusterClient.close();
            }
            if (client != null) {
                client.close();
            }
        }
        List<Finding> out = new ArrayList<>();
        findings.values().forEach(out::addAll);
        return out;
    }

    private boolean wants(String check) {
        return o.checks().contains(check);
    }

    private void add(String check, Finding f) {
        findings.get(check).add(f);
    }

    /** The platform's topics under the prefix (fixed and node topics) with their partitions, replication and configs. */
    private Map<String, TopicState> describe(Admin admin, TopicCatalog catalog)
            throws InterruptedException, ExecutionException, TimeoutException {
        long ms = o.timeout().toMillis();
        List<String> names = admin.listTopics().names().get(ms, TimeUnit.MILLISECONDS).stream()
                .filter(n -> n.startsWith(catalog.prefix() + "notify.")).sorted().toList();
        Map<String, TopicState> out = new LinkedHashMap<>();
        if (names.isEmpty()) {
            return out;
        }
        Map<String, TopicDescription> described = admin.describeTopics(names).allTopicNames().get(ms, TimeUnit.MILLISECONDS);
        Map<ConfigResource, Config> configs = admin.describeConfigs(names.stream()
                .map(n -> new ConfigResource(ConfigResource.Type.TOPIC, n)).toList()).all().get(ms, TimeUnit.MILLISECONDS);
        for (String name : names) {
            TopicDescription d = described.get(name);
            Map<String, String> c = new HashMap<>();
            configs.get(new ConfigResource(ConfigResource.Type.TOPIC, name)).entries()
                    .forEach(e -> c.put(e.name(), e.value() == null ? "" : e.value()));
            out.put(name, new TopicState(name, d.partitions().size(), d.partitions().get(0).replicas().size(), c));
        }
        return out;
    }

    private void lag(Admin admin) throws InterruptedException {
        try {
            findings.get(ConsumerLag.CHECK).addAll(ConsumerLag.judge(ConsumerLag.read(admin, o.fanoutGroup(), o.timeout()),
                    o.lagWarn(), o.lagFail()));
        } catch (ExecutionException | TimeoutException | KafkaException e) {
            add(ConsumerLag.CHECK, Finding.fail(ConsumerLag.CHECK, "cannot read the offsets of group " + o.fanoutGroup() + ": " + e,
                    "check the admin client's rights (Describe on the group, its topics)"));
        }
    }

    private void clock(Admin admin, RedisCommands<String, String> redis, boolean kafkaUp) throws InterruptedException {
        List<ClockSkew.Skew> skews = new ArrayList<>();
        if (redis != null) {
            try {
                skews.add(ClockSkew.redis(redis));
            } catch (RedisException e) {
                add(ClockSkew.CHECK, Finding.warn(ClockSkew.CHECK, "cannot read Redis's TIME: " + e.getMessage(), "see the redis check"));
            }
        }
        if (kafkaUp) {
            Map<String, Object> p = new HashMap<>(kafkaProps);
            p.put(ProducerConfig.ACKS_CONFIG, "1");
            p.put(ProducerConfig.LINGER_MS_CONFIG, 0);
            p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, o.timeout().toMillis());
            p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, (int) o.timeout().toMillis() + 1000);
            p.put(ProducerConfig.CLIENT_ID_CONFIG, "notifyctl-doctor");
            p.remove(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG);
            try (Producer<byte[], byte[]> producer = new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer())) {
                skews.add(ClockSkew.broker(admin, producer, o.topics().prefix() + ClockSkew.SCRATCH_TOPIC, o.timeout()));
            } catch (ExecutionException | TimeoutException | KafkaException e) {
                add(ClockSkew.CHECK, Finding.warn(ClockSkew.CHECK, "cannot measure the broker's clock on " + o.topics().prefix()
                        + ClockSkew.SCRATCH_TOPIC + ": " + e, "allow notifyctl to create and write that topic, or --checks without clock"));
            }
        }
        findings.get(ClockSkew.CHECK).addAll(ClockSkew.judge(skews, o.skewWarn(), o.skewFail()));
    }

    /** Exit code of a run: that of its worst finding (0 all OK, 1 warnings only, 2 a failure). */
    static int exitCode(List<Finding> findings) {
        return findings.stream().mapToInt(f -> f.level().exitCode()).max().orElse(0);
    }

    /** For messages: {@code d} in the settings syntax. */
    static String text(Duration d) {
        return io.notify.common.config.SettingRead.format(d);
    }
}
