package io.notify.platform;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.nimbusds.jose.crypto.MACVerifier;
import com.nimbusds.jwt.SignedJWT;
import io.notify.common.auth.ServiceToken;
import io.notify.common.config.Settings;
import io.notify.fanout.FanoutConfig;
import io.notify.gateway.config.GatewayConfig;
import io.notify.ingest.IngestConfig;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The settings the kit writes load through each service's real config loader, and say what the platform means. */
class PlatformConfigTest {

    private final DevKeys keys = DevKeys.random();
    private final PlatformConfig config = new PlatformConfig("127.0.0.1:19092", "redis://127.0.0.1:16379", false, "t1.",
            PlatformConfig.Partitions.TEST, keys,
            Map.of("security.protocol", "SASL_PLAINTEXT"),
            Map.of("notify.ingest.io-threads", "1"),
            Map.of("notify.fanout.route-timeout", "2s"),
            Map.of("notify.gateway.drain-window", "3s", "notify.gateway.port", "7000"));

    @Test
    void everyServiceSharesKafkaRedisAndThePrefixAndTheRegistryFollowsIt() {
        for (Map<String, String> s : List.of(config.ingestSettings(0, 0, ""), config.fanoutSettings("/tmp/x", 0, 0),
                config.gatewaySettings("gw-1", 0, 0, List.of("http://127.0.0.1:1"), ""))) {
            assertEquals("127.0.0.1:19092", s.get("notify.kafka.bootstrap-servers"));
            assertEquals("t1.", s.get("notify.topic-prefix"));
            assertEquals("redis://127.0.0.1:16379", s.get("notify.redis.uri"));
            assertFalse(s.containsKey("notify.registry.key-prefix"), "defaults to the topic prefix in every service");
            assertEquals("SASL_PLAINTEXT", s.get("notify.kafka.client.security.protocol"), "Kafka client security for every service");
        }
        assertEquals("t1.", GatewayConfig.load(Settings.of(config.gatewaySettings("gw-1", 0, 0, List.of("http://q"), "")))
                .registryKeyPrefix());
    }

    @Test
    void aRedisClusterIsNamedToEveryServiceWithItsSeedNodes() {
        PlatformConfig cluster = new PlatformConfig("127.0.0.1:19092", "redis://127.0.0.1:7000,redis://127.0.0.1:7001", true, "t1.",
                PlatformConfig.Partitions.TEST, keys, Map.of(), Map.of(), Map.of(), Map.of());
        for (Map<String, String> s : List.of(cluster.ingestSettings(0, 0, ""), cluster.fanoutSettings("/tmp/x", 0, 0),
                cluster.gatewaySettings("gw-1", 0, 0, List.of("http://127.0.0.1:1"), ""))) {
            assertEquals("true", s.get("notify.redis.cluster"));
            assertEquals("redis://127.0.0.1:7000,redis://127.0.0.1:7001", s.get("notify.redis.uri"));
        }
        assertTrue(GatewayConfig.load(Settings.of(cluster.gatewaySettings("gw-1", 0, 0, List.of("http://q"), ""))).redisCluster());
        assertFalse(config.gatewaySettings("gw-1", 0, 0, List.of("http://q"), "").containsKey("notify.redis.cluster"));
    }

    @Test
    void aGatewayGetsItsNodeTheQueryApisAndTheDevKeyAndKindSettingsOverrideTheWiring() {
        Map<String, String> s = config.gatewaySettings("gw-2", 0, 0, List.of("http://127.0.0.1:1", "http://127.0.0.1:2"),
                "http://localhost:5");
        assertEquals("gw-2", s.get("notify.gateway.node-id"));
        assertEquals("http://127.0.0.1:1,http://127.0.0.1:2", s.get("notify.gateway.query-url"));
        assertEquals(keys.secret(), s.get("notify.gateway.jwt.hmac-secret"));
        assertEquals(keys.queryToken(), s.get("notify.gateway.query-token"));
        assertEquals("http://localhost:5", s.get("notify.gateway.allowed-origins"));
        assertEquals("7000", s.get("notify.gateway.port"), "a setting for the kind wins over the platform's wiring");
        GatewayConfig loaded = GatewayConfig.load(Settings.of(s));
        assertEquals("gw-2", loaded.nodeId());
        assertEquals(3, loaded.drainWindow().toSeconds());
        assertEquals("Bearer " + keys.queryToken(), loaded.queryToken().authorization());
    }

    @Test
    void ingestAdmitsTheDevProducerKeyAndCorsOnlyWhenAsked() {
        assertEquals(DevKeys.ingestApiKeys(), config.ingestSettings(8080, 0, "").get("notify.ingest.api-keys"));
        assertFalse(config.ingestSettings(8080, 0, "").containsKey("notify.ingest.cors-origins"));
        assertEquals("http://localhost:1", config.ingestSettings(8080, 0, "http://localhost:1").get("notify.ingest.cors-origins"));
        IngestConfig.load(Settings.of(config.ingestSettings(0, 0, "http://localhost:1")));
    }

    @Test
    void fanoutGetsItsStateDirAndQueryPortOnLoopbackAcceptingThePlatformsQueryToken() {
        Map<String, String> s = config.fanoutSettings("/tmp/state-1", 8090, 0);
        assertEquals("/tmp/state-1", s.get("notify.fanout.state-dir"));
        assertEquals("8090", s.get("notify.fanout.query.port"));
        assertEquals("2s", s.get("notify.fanout.route-timeout"));
        FanoutConfig loaded = FanoutConfig.load(Settings.of(s));
        assertEquals("127.0.0.1", loaded.queryHost(), "notifyctl dev, bench and chaos bind the query API to loopback");
        assertEquals(List.of(keys.queryToken()), loaded.queryTokens().stream().map(ServiceToken::value).toList(),
                "the one token its gateways send");
    }

    @Test
    void aDataDirKeepsItsQueryTokenAndATestPlatformHasItsOwn(@TempDir Path dir) throws Exception {
        DevKeys first = DevKeys.inDataDir(dir);
        assertEquals(first.queryToken(), DevKeys.existing(dir).queryToken(), "notifyctl token --service prints what dev started with");
        assertEquals(first.secret(), DevKeys.inDataDir(dir).secret());
        assertEquals(first.queryToken(), Files.readString(dir.resolve(DevKeys.QUERY_TOKEN_FILE)).trim());
        assertTrue(first.queryToken().length() >= 32);
        assertNotEquals(first.queryToken(), first.secret(), "the query token is not the JWT key");
        assertNotEquals(DevKeys.random().queryToken(), DevKeys.random().queryToken());
        new ServiceToken(first.queryToken()); // a usable service token as is
    }

    @Test
    void browserOriginsNameBothLoopbackSpellingsOfEachPort() {
        assertEquals("http://localhost:1,http://127.0.0.1:1,http://localhost:2,http://127.0.0.1:2",
                PlatformConfig.browserOrigins(List.of(1, 2)));
    }

    @Test
    void partitionsAreAtLeastOne() {
        assertThrows(IllegalArgumentException.class, () -> PlatformConfig.Partitions.TEST.withEvents(0));
        assertEquals(1, PlatformConfig.Partitions.TEST.withEvents(1).events());
    }

    @Test
    void devTokensCarryTheDevIssuerAndAudience() throws Exception {
        SignedJWT jwt = SignedJWT.parse(keys.token("42"));
        assertEquals("42", jwt.getJWTClaimsSet().getSubject());
        assertEquals(DevKeys.ISSUER, jwt.getJWTClaimsSet().getIssuer());
        assertEquals(List.of(DevKeys.AUDIENCE), jwt.getJWTClaimsSet().getAudience());
        assertTrue(jwt.verify(new MACVerifier(keys.secret().getBytes(StandardCharsets.US_ASCII))), "signed with the platform's secret");
    }
}
