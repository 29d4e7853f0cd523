package io.notify.common.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Map;
import org.junit.jupiter.api.Test;

class PlatformSettingsTest {

    @Test
    void defaultsAndTheRegistryPrefixFollowsTheTopicPrefix() {
        assertEquals(new PlatformSettings("127.0.0.1:9092", "", "redis://127.0.0.1:6379", false, "", Map.of()),
                PlatformSettings.load(Settings.of(Map.of())));
        assertEquals(new PlatformSettings("k:9092", "t1.", "redis://r:6379", false, "t1.", Map.of()), PlatformSettings.load(Settings.of(Map.of(
                "notify.kafka.bootstrap-servers", "k:9092", "notify.topic-prefix", "t1.", "notify.redis.uri", "redis://r:6379"))));
        assertEquals("apart.", PlatformSettings.load(Settings.of(Map.of("notify.topic-prefix", "t1.",
                "notify.registry.key-prefix", "apart."))).registryKeyPrefix());
    }

    @Test
    void kafkaClientSettingsGoToEveryClientWithTheBootstrapServers() {
        PlatformSettings s = PlatformSettings.load(Settings.of(Map.of(
                "notify.kafka.bootstrap-servers", "k:9093",
                "notify.kafka.client.security.protocol", "SASL_SSL",
                "notify.kafka.client.sasl.mechanism", "PLAIN")));
        assertEquals(Map.of("security.protocol", "SASL_SSL", "sasl.mechanism", "PLAIN"), s.kafkaClient());
        assertEquals(Map.of("bootstrap.servers", "k:9093", "security.protocol", "SASL_SSL", "sasl.mechanism", "PLAIN"),
                PlatformSettings.kafkaProps(s.bootstrapServers(), s.kafkaClient()));
    }

    @Test
    void aRedisClusterTakesSeveralSeedNodesAStandaloneRedisOne() {
        PlatformSettings cluster = PlatformSettings.load(Settings.of(Map.of("notify.redis.cluster", "true",
                "notify.redis.uri", "redis://r1:6379,redis://r2:6379")));
        assertEquals(true, cluster.redisCluster());
        assertEquals("redis://r1:6379,redis://r2:6379", cluster.redisUri());
        ConfigException e = assertThrows(ConfigException.class, () -> PlatformSettings.load(Settings.of(Map.of(
                "notify.redis.uri", "redis://r1:6379,redis://r2:6379"))));
        assertEquals("notify.redis.uri: lists several servers; a list of seed nodes needs notify.redis.cluster=true", e.getMessage());
    }

    @Test
    void aBadTopicPrefixIsRefusedNamingTheKey() {
        ConfigException e = assertThrows(ConfigException.class,
                () -> PlatformSettings.load(Settings.of(Map.of("notify.topic-prefix", "no spaces"))));
        assertEquals("notify.topic-prefix: must be 0..100 chars of [A-Za-z0-9._-]", e.getMessage());
    }

    @Test
    void theTopicPrefixRuleIsTheTopicCatalogs() {
        assertEquals(io.notify.schemas.topic.TopicCatalog.PREFIX.pattern(), PlatformSettings.TOPIC_PREFIX.pattern());
    }
}
