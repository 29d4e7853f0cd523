package io.notify.cli.doctor;

import io.notify.schemas.topic.TopicCatalog;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * What one doctor run checks, and against what: the connection (as replay, tail and why take it), what
 * it reads of the deployment's own settings, and the thresholds.
 *
 * @param redisUri            {@code notify.redis.uri}
 * @param registryKeyPrefix   {@code notify.registry.key-prefix} (default the topic prefix)
 * @param redisCluster        {@code notify.redis.cluster}: whether the services expect a Redis Cluster
 * @param aliveTtl            {@code notify.registry.alive-ttl}
 * @param aliveRefresh        {@code notify.registry.alive-refresh}: how long the liveness check waits between its two samples
 * @param nodeTopicPartitions {@code notify.gateway.node-topic-partitions}
 * @param streamPartitions    {@code notify.fanout.stream-partitions} (0: as many as notify.events)
 * @param fanoutGroup         fanout-streams' consumer group: the topic prefix + {@code notify.fanout.application-id}
 * @param replication         the replication factor the topics should have
 */
record DoctorOptions(TopicCatalog topics, String bootstrap, Map<String, String> kafkaProperties, Duration timeout,
                     String redisUri, String registryKeyPrefix, boolean redisCluster, Duration aliveTtl, Duration aliveRefresh,
                     int nodeTopicPartitions, int streamPartitions, String fanoutGroup, List<String> checks, int replication,
                     long lagWarn, long lagFail, Duration skewWarn, Duration skewFail) {

    private static final Pattern USER_INFO = Pattern.compile("//[^/@]*@");

    /** The Redis URI without its user info (a password), for messages. */
    String redisForHumans() {
        return USER_INFO.matcher(redisUri).replaceFirst("//***@");
    }
}
