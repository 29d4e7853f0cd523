package io.notify.common.config;

import java.util.HashMap;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The settings every service shares, parsed and validated here once for all of them: where Kafka
 * is, the topic prefix (one deployment's topics, {@link #TOPIC_PREFIX}, the topic catalog's rule), where Redis is, and
 * the prefix of the connection-registry keys. The registry prefix defaults to the topic prefix, so
 * that the gateways (which write routes) and fanout-streams (which reads them) agree unless both
 * are told otherwise.
 *
 * @param bootstrapServers  {@code notify.kafka.bootstrap-servers}
 * @param topicPrefix       {@code notify.topic-prefix}, 0..100 chars of {@code [A-Za-z0-9._-]}
 * @param redisUri          {@code notify.redis.uri}: one Redis, or with {@code redisCluster} one or more
 *                          seed nodes of a Redis Cluster separated by commas
 * @param redisCluster      {@code notify.redis.cluster}, default false: the registry's Redis is a Redis Cluster
 * @param registryKeyPrefix {@code notify.registry.key-prefix}, default the topic prefix
 * @param kafkaClient       {@code notify.kafka.client.<name>=<value>}: Kafka client properties given
 *                          to every Kafka client of the service (producers, consumers, admin clients,
 *                          Kafka Streams), e.g. {@code security.protocol}, {@code sasl.mechanism},
 *                          {@code sasl.jaas.config}, {@code ssl.truststore.location}
 */
public record PlatformSettings(String bootstrapServers, String topicPrefix, String redisUri, boolean redisCluster,
                               String registryKeyPrefix,
                               Map<String, String> kafkaClient) {

    /**
     * What a topic prefix may be: the rule of notify-schemas' {@code TopicCatalog.PREFIX}, stated here
     * so that this module needs nothing of Kafka or the schemas (PlatformSettingsTest keeps them equal).
     */
    public static final Pattern TOPIC_PREFIX = Pattern.compile("^[A-Za-z0-9._-]{0,100}$");

    /** Secrets shown as {@code ***} ({@link Redacted}). */
    @Override
    public String toString() {
        return Redacted.toString(this);
    }

    public PlatformSettings {
        kafkaClient = Map.copyOf(kafkaClient);
    }

    /** The properties every Kafka client of the service starts from: the bootstrap servers and {@link #kafkaClient}. */
    public static Map<String, Object> kafkaProps(String bootstrapServers, Map<String, String> kafkaClient) {
        Map<String, Object> p = new HashMap<>(kafkaClient);
        p.put("bootstrap.servers", bootstrapServers);
        return p;
    }

    public static PlatformSettings load(Settings s) {
        String topicPrefix = s.string("notify.topic-prefix", "");
        if (!TOPIC_PREFIX.matcher(topicPrefix).matches()) {
            throw new ConfigException("notify.topic-prefix", "must be 0..100 chars of [A-Za-z0-9._-]");
        }
        String redisUri = s.string("notify.redis.uri", "redis://127.0.0.1:6379");
        boolean redisCluster = s.bool("notify.redis.cluster", false);
        if (redisUri.contains(",") && !redisCluster) {
            throw new ConfigException("notify.redis.uri", "lists several servers; a list of seed nodes needs notify.redis.cluster=true");
        }
        return new PlatformSettings(
                s.string("notify.kafka.bootstrap-servers", "127.0.0.1:9092"),
                topicPrefix,
                redisUri,
                redisCluster,
                s.string("notify.registry.key-prefix", topicPrefix),
                s.withPrefix("notify.kafka.client."));
    }
}
