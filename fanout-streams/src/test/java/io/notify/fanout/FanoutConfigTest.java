package io.notify.fanout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.notify.common.auth.ServiceToken;
import io.notify.common.config.ConfigException;
import io.notify.common.config.Settings;
import io.notify.fanout.commit.CatchUpCommit;
import io.notify.fanout.metrics.FanoutMetrics;
import io.notify.fanout.routing.MissingNodeTopicHandler;
import io.notify.fanout.routing.NodeTopics;
import io.notify.fanout.routing.RoutePrefetch;
import io.notify.registry.RouteLookup;
import io.notify.registry.route.InMemoryRouteLookup;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;

class FanoutConfigTest {

    /** The one setting without a default. */
    private static final Map<String, String> TOKEN = Map.of(FanoutConfig.QUERY_TOKENS, FanoutFixture.QUERY_TOKEN);

    private static FanoutConfig load(Map<String, String> values) {
        Map<String, String> all = new HashMap<>(TOKEN);
        all.putAll(values);
        return FanoutConfig.load(Settings.of(all));
    }

    @Test
    void defaultsAreTheDocumentedOnes() {
        FanoutConfig c = load(Map.of());
        assertEquals("notify-fanout", c.streamsApplicationId());
        assertEquals("127.0.0.1:9092", c.bootstrapServers());
        assertEquals(Duration.ofHours(24), c.dedupWindow());
        assertEquals(1000, c.inboxMaxEvents());
        assertEquals(Duration.ofDays(7), c.inboxMaxAge());
        assertEquals(Duration.ofMillis(100), c.commitInterval());
        assertEquals(Duration.ofMillis(5), c.linger());
        assertEquals(Duration.ofMillis(100), load(Map.of("notify.fanout.processing-guarantee", "at_least_once"))
                .commitInterval());
        assertEquals(Duration.ofMillis(20), load(Map.of("notify.fanout.commit-interval", "20ms"))
                .commitInterval(), "the low-latency setting of earlier releases is still one key away");
        assertEquals(FanoutConfig.ProcessingGuarantee.EXACTLY_ONCE_V2, c.processingGuarantee());
        assertEquals(0, c.standbyReplicas());
        assertEquals(Duration.ofMillis(250), c.routeTimeout());
        assertEquals(0, c.cacheMaxBytes(), "no record cache under exactly_once_v2");
        assertEquals(8090, c.queryPort());
        assertEquals("0.0.0.0", c.queryHost(), "peers and gateways must reach it; the token guards it");
    }

    /** docs/asyncapi.yaml names the repartition topic FanoutTopology makes, with the default application id. */
    @Test
    void theAsyncApiDocumentNamesTheByStreamTopic() throws IOException {
        String doc = Files.readString(Path.of("..", "docs", "asyncapi.yaml"));
        int start = doc.indexOf("\n  byStream:\n");
        assertTrue(start >= 0, "docs/asyncapi.yaml has no channel byStream");
        Matcher next = Pattern.compile("\n  \\S").matcher(doc);
        String channel = doc.substring(start, next.find(start + 1) ? next.start() : doc.length());
        assertTrue(channel.contains("\n    address: '" + FanoutTopology.byStreamTopic("{applicationId}") + "'\n"), channel);
        assertTrue(channel.contains("\n        default: " + load(Map.of()).streamsApplicationId() + "\n"), channel);
    }

    @Test
    void theQueryApiHasNoOpenMode() {
        ConfigException e = assertThrows(ConfigException.class, () -> FanoutConfig.load(Settings.of(Map.of())));
        assertTrue(e.getMessage().startsWith("notify.fanout.query.tokens: at least one service token is required"),
                e.getMessage());
        assertKey("notify.fanout.query.tokens", Map.of(FanoutConfig.QUERY_TOKENS, " , "));
        assertKey("notify.fanout.query.tokens", Map.of(FanoutConfig.QUERY_TOKENS, "short"));
        assertKey("notify.fanout.query.tokens", Map.of(FanoutConfig.QUERY_TOKENS,
                FanoutFixture.QUERY_TOKEN + "," + FanoutFixture.QUERY_TOKEN));
    }

    @Test
    void theStreamsRebalanceProtocolIsRefusedAndClassicTaken() {
        ConfigException e = assertThrows(ConfigException.class,
                () -> load(Map.of("notify.fanout.streams.group.protocol", "streams")));
        assertTrue(e.getMessage().startsWith("notify.fanout.streams.group.protocol: only 'classic' is supported"), e.getMessage());
        assertEquals("classic", load(Map.of("notify.fanout.streams.group.protocol", "classic")).streamsOverrides().get("group.protocol"));
    }

    @Test
    void severalTokensAreAcceptedAtOnceForARotationAndNonePrinted() {
        FanoutConfig c = load(Map.of(FanoutConfig.QUERY_TOKENS, "old-query-token-0123456789, new-query-token-0123456789",
                "notify.fanout.query.host", "10.1.2.3"));
        assertEquals(List.of("old-query-token-0123456789", "new-query-token-0123456789"),
                c.queryTokens().stream().map(ServiceToken::value).toList());
        assertEquals("10.1.2.3", c.queryHost());
        assertFalse(c.toString().contains("query-token-0123456789"), "a logged config shows no token");
        assertEquals(c.queryTokens(), c.withQueryPort(1).withStreamsOverrides(Map.of()).queryTokens());
    }

    @Test
    void streamsPropertiesCarryTheConfigAndThePrefixedApplicationId() {
        FanoutConfig c = load(Map.of(
                "notify.topic-prefix", "it-1.",
                "notify.fanout.processing-guarantee", "at_least_once",
                "notify.fanout.commit-interval", "250ms",
                "notify.fanout.standby-replicas", "1",
                "notify.fanout.cache-max-bytes", "0",
                "notify.fanout.state-dir", "/tmp/x",
                "notify.fanout.streams.replication.factor", "3"));
        NodeTopics nodeTopics = NodeTopics.assumeAll();
        RouteLookup routes = new InMemoryRouteLookup(Clock.systemUTC());
        Properties p = FanoutStreamsConfig.properties(c, nodeTopics, FanoutMetrics.inMemory(), routes);
        assertEquals("it-1.notify-fanout", p.get(StreamsConfig.APPLICATION_ID_CONFIG));
        assertEquals("at_least_once", p.get(StreamsConfig.PROCESSING_GUARANTEE_CONFIG));
        assertEquals("250", p.get(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG));
        assertEquals("1", p.get(StreamsConfig.NUM_STANDBY_REPLICAS_CONFIG));
        assertEquals("0", p.get(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG));
        assertEquals("/tmp/x", p.get(StreamsConfig.STATE_DIR_CONFIG));
        assertEquals("3", p.get("replication.factor"));
        assertEquals("127.0.0.1:8090", p.get(StreamsConfig.APPLICATION_SERVER_CONFIG));
        assertEquals(MissingNodeTopicHandler.class.getName(), p.get(StreamsConfig.PRODUCTION_EXCEPTION_HANDLER_CLASS_CONFIG));
        assertSame(nodeTopics, p.get(MissingNodeTopicHandler.NODE_TOPICS));
        assertEquals("10000", p.get("consumer.session.timeout.ms"), "a dead instance's partitions move after 10 s, not Kafka's 45 s");
        assertEquals("1000", p.get("consumer.heartbeat.interval.ms"), "a rebalance round is noticed within 1 s, not Kafka's 3 s");
        assertEquals("1000", p.get(StreamsConfig.ACCEPTABLE_RECOVERY_LAG_CONFIG), "a rejoining instance behind more warms up first");
        assertEquals("60000", p.get(StreamsConfig.PROBING_REBALANCE_INTERVAL_MS_CONFIG), "warm-ups checked every minute");
        assertEquals("-1", p.get(StreamsConfig.MAX_TASK_IDLE_MS_CONFIG),
                "a task never waits to fetch its other inputs: no stream's order spans two input partitions");
        assertEquals(RoutePrefetch.class.getName(), p.get("main.consumer.interceptor.classes"));
        assertSame(routes, p.get("main.consumer." + RoutePrefetch.LOOKUP));
        assertEquals(Set.of("it-1.notify.events", "it-1.notify-fanout-by-stream-repartition"), p.get("main.consumer." + RoutePrefetch.TOPICS));
        StreamsConfig streams = new StreamsConfig(p); // Kafka accepts the whole set
        Map<String, Object> consumer = streams.getMainConsumerConfigs("g", "c", 0);
        assertSame(routes, consumer.get(RoutePrefetch.LOOKUP), "the interceptor's configure() gets the lookup itself");
    }

    @Test
    void exactlyOnceCommitsOnCatchUpUnlessTurnedOff() {
        FanoutConfig eos = load(Map.of());
        assertTrue(eos.commitOnCatchUp());
        assertTrue(eos.commitsOnCatchUp());
        assertFalse(load(Map.of("notify.fanout.processing-guarantee", "at_least_once")).commitsOnCatchUp(),
                "under at_least_once a commit only bounds what a crash replays");
        Properties p = FanoutStreamsConfig.properties(eos, NodeTopics.assumeAll(), FanoutMetrics.inMemory(), null);
        assertEquals(CatchUpCommit.class.getName(), p.get("main.consumer.interceptor.classes"));
        assertEquals("0", p.get(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG),
                "no record cache under exactly_once_v2: changelog writes leave as they happen, not inside the commit");
        Map<String, Object> consumer = new StreamsConfig(p).getMainConsumerConfigs("g", "c", 0);
        assertEquals(1000, Integer.parseInt(consumer.get(ConsumerConfig.MAX_POLL_RECORDS_CONFIG).toString()),
                "the interceptor's configure() sees max.poll.records, its measure of a full poll");

        Properties both = FanoutStreamsConfig.properties(eos, NodeTopics.assumeAll(), FanoutMetrics.inMemory(), new InMemoryRouteLookup(Clock.systemUTC()));
        assertEquals(RoutePrefetch.class.getName() + "," + CatchUpCommit.class.getName(), both.get("main.consumer.interceptor.classes"));

        Properties off = FanoutStreamsConfig.properties(load(Map.of("notify.fanout.commit-on-catch-up", "false")),
                NodeTopics.assumeAll(), FanoutMetrics.inMemory(), null);
        assertNull(off.get("main.consumer.interceptor.classes"), "interval commits only");
        assertEquals(10L * 1024 * 1024, load(Map.of("notify.fanout.processing-guarantee", "at_least_once")).cacheMaxBytes());
        assertKey("notify.fanout.commit-on-catch-up", Map.of("notify.fanout.commit-on-catch-up", "sometimes"));
    }

    @Test
    void theSessionTimeoutBoundsTheHeartbeat() {
        Properties p = FanoutStreamsConfig.properties(load(Map.of("notify.fanout.session-timeout", "6s")),
                NodeTopics.assumeAll(), FanoutMetrics.inMemory(), null);
        assertEquals("6000", p.get("consumer.session.timeout.ms"));
        assertEquals("1000", p.get("consumer.heartbeat.interval.ms"), "1 s, under a third of the shortest session");
        assertKey("notify.fanout.session-timeout", Map.of("notify.fanout.session-timeout", "5s")); // under the broker's floor
    }

    @Test
    void errorsNameTheKey() {
        assertKey("notify.fanout.processing-guarantee", Map.of("notify.fanout.processing-guarantee", "exactly_once"));
        assertKey("notify.fanout.dedup-window", Map.of("notify.fanout.dedup-window", "forever"));
        assertKey("notify.fanout.inbox.max-events", Map.of("notify.fanout.inbox.max-events", "0"));
        assertKey("notify.fanout.route-timeout", Map.of("notify.fanout.route-timeout", "1m"));
        assertKey("notify.fanout.application-id", Map.of("notify.fanout.application-id", "has space"));
        assertKey("notify.topic-prefix", Map.of("notify.topic-prefix", "bad/prefix"));
    }

    private static void assertKey(String key, Map<String, String> values) {
        ConfigException e = assertThrows(ConfigException.class, () -> load(values));
        assertEquals(key, e.getMessage().substring(0, e.getMessage().indexOf(':')), e.getMessage());
    }

    @Test
    void theProductionExampleLoadsWithOneStandbyAndExactlyOnceAndATokenFromOutsideIt() {
        Path file = Path.of("config/production.properties");
        assertThrows(ConfigException.class, () -> FanoutConfig.load(Settings.fromArgs(new String[]{"--config=" + file}, Map.of())),
                "the file holds no token: it comes from the environment (NOTIFY_FANOUT_QUERY_TOKENS)");
        assertThrows(ConfigException.class, () -> Settings.fromArgs(new String[]{"--config=" + file,
                FanoutConfig.QUERY_TOKENS + "=" + FanoutFixture.QUERY_TOKEN}, Map.of()), "never on the command line");
        FanoutConfig c = FanoutConfig.load(Settings.fromArgs(new String[]{"--config=" + file},
                Map.of(Settings.envName(FanoutConfig.QUERY_TOKENS), FanoutFixture.QUERY_TOKEN)));
        assertEquals(1, c.standbyReplicas());
        assertEquals(FanoutConfig.ProcessingGuarantee.EXACTLY_ONCE_V2, c.processingGuarantee());
        assertEquals("3", c.streamsOverrides().get("replication.factor"));
        assertFalse(c.stateDir().toString().startsWith(System.getProperty("java.io.tmpdir")));
    }
}
