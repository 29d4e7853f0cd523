package io.notify.cli.doctor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.notify.schemas.topic.TopicCatalog;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The doctor's verdicts on what the cluster, Redis and the clocks answered, without either. */
class DoctorJudgesTest {

    private static final TopicCatalog T = TopicCatalog.of("p.");

    private static Map<String, TopicState> healthy(int rf, String minIsr) {
        Map<String, TopicState> m = new HashMap<>();
        for (TopicRule r : TopicRule.expected(new TopicRule.Layout(T, 6, 0, 3), List.of("gw-1"))) {
            int partitions = r.partitions() > 0 ? r.partitions() : 6;
            m.put(r.topic(), new TopicState(r.topic(), partitions, rf, Map.of("cleanup.policy", r.compact() ? "compact" : "delete",
                    "retention.ms", r.retention() == null ? "-1" : Long.toString(r.retention().toMillis()), "min.insync.replicas", minIsr)));
        }
        return m;
    }

    private static List<Finding> topics(Map<String, TopicState> found, int replication) {
        return TopicsJudge.judge(TopicRule.expected(new TopicRule.Layout(T, 6, 0, 3), List.of("gw-1")), found, replication);
    }

    @Test
    void documentedTopicsAreOneOkLine() {
        assertEquals(List.of(Finding.ok("topics", "14 of 14 topics exist with the expected partitions and configs")), topics(healthy(3, "2"), 3));
        assertEquals(0, Doctor.exitCode(topics(healthy(3, "2"), 3)));
    }

    @Test
    void eachTopicProblemIsNamedWithItsLevel() {
        Map<String, TopicState> m = healthy(3, "2");
        m.remove("p.notify.events");
        m.remove("p.notify.fallback");
        m.put("p.notify.receipts", new TopicState("p.notify.receipts", 4, 3, Map.of("cleanup.policy", "delete", "min.insync.replicas", "2")));
        m.put("p.notify.stream-log", new TopicState("p.notify.stream-log", 6, 3, Map.of("cleanup.policy", "compact",
                "retention.ms", "3600000", "min.insync.replicas", "3")));
        m.put("p.notify.node.gw-1", new TopicState("p.notify.node.gw-1", 1, 3, Map.of("cleanup.policy", "delete", "min.insync.replicas", "1")));
        Map<String, Finding.Level> byProblem = topics(m, 3).stream().collect(Collectors.toMap(Finding::problem, Finding::level));
        assertEquals(Finding.Level.FAIL, byProblem.get("p.notify.events does not exist"));
        assertEquals(Finding.Level.WARN, byProblem.get("p.notify.fallback does not exist (fanout-streams or the gateways create it at start)"));
        assertEquals(Finding.Level.FAIL, byProblem.get("p.notify.receipts has 4 partitions, expected 6 (the by-stream count (notify.events' "
                + "partitions or notify.fanout.stream-partitions)): fanout-streams refuses to start"));
        assertEquals(Finding.Level.FAIL, byProblem.get("p.notify.stream-log has cleanup.policy=compact, must be delete: compaction keeps one "
                + "record per key and loses the history"));
        assertEquals(Finding.Level.WARN, byProblem.get("p.notify.stream-log keeps records 1h, less than the documented 30d (docs/topics.md)"));
        assertEquals(Finding.Level.WARN, byProblem.get("p.notify.stream-log has min.insync.replicas=3 with replication factor 3: one broker "
                + "down stops every acks=all write"));
        assertEquals(Finding.Level.WARN, byProblem.get("p.notify.node.gw-1 has 1 partitions, expected 3 (notify.gateway.node-topic-partitions)"));
        assertEquals(Finding.Level.WARN, byProblem.get("p.notify.node.gw-1 has min.insync.replicas=1: an acknowledged write may live on one broker only"));
        assertEquals(Finding.Level.OK, byProblem.get("9 of 14 topics exist with the expected partitions and configs"), byProblem.toString());
        assertEquals(2, Doctor.exitCode(topics(m, 3)));
    }

    @Test
    void pushTopicsAreCheckedLikeReceiptsInboxStateAndTheDlq() {
        List<TopicRule> rules = TopicRule.expected(new TopicRule.Layout(T, 6, 12, 3), List.of());
        Map<String, TopicRule> byTopic = rules.stream().collect(Collectors.toMap(TopicRule::topic, r -> r));
        assertEquals(new TopicRule("p.notify.push-changes", false, Duration.ofDays(7), 12,
                "the by-stream count (notify.events' partitions or notify.fanout.stream-partitions)", false),
                byTopic.get("p.notify.push-changes"), "co-partitioned with the by-stream topic, like receipts");
        assertEquals(new TopicRule("p.notify.push-registrations", true, null, 0, "", false), byTopic.get("p.notify.push-registrations"));
        assertEquals(new TopicRule("p.notify.push-outcomes", false, Duration.ofDays(7), 0, "", false, "the push sender"),
                byTopic.get("p.notify.push-outcomes"));
        assertEquals(new TopicRule("p.notify.push.dlq", false, Duration.ofDays(30), 0, "", false, "the push sender"),
                byTopic.get("p.notify.push.dlq"), "as notify.events.dlq");

        Map<String, TopicState> m = healthy(3, "2");
        m.remove("p.notify.push-outcomes");
        m.remove("p.notify.push-registrations");
        m.put("p.notify.push-changes", new TopicState("p.notify.push-changes", 3, 3, Map.of("cleanup.policy", "delete",
                "retention.ms", Long.toString(Duration.ofDays(7).toMillis()), "min.insync.replicas", "2")));
        m.put("p.notify.push.dlq", new TopicState("p.notify.push.dlq", 6, 3, Map.of("cleanup.policy", "compact",
                "retention.ms", Long.toString(Duration.ofDays(7).toMillis()), "min.insync.replicas", "2")));
        List<Finding> findings = topics(m, 3);
        Map<String, Finding> byProblem = findings.stream().collect(Collectors.toMap(Finding::problem, f -> f));
        Finding outcomes = byProblem.get("p.notify.push-outcomes does not exist (the push sender creates it at start)");
        assertEquals(Finding.Level.WARN, outcomes.level(), byProblem.keySet().toString());
        assertEquals("start it, or kafka-topics.sh --create --topic p.notify.push-outcomes (configs: docs/topics.md)", outcomes.fix());
        Finding registrations = byProblem.get("p.notify.push-registrations does not exist (fanout-streams or the gateways "
                + "create it at start)");
        assertEquals(Finding.Level.WARN, registrations.level());
        assertEquals("start them, or kafka-topics.sh --create --topic p.notify.push-registrations (configs: docs/topics.md)",
                registrations.fix());
        assertEquals(Finding.Level.FAIL, byProblem.get("p.notify.push-changes has 3 partitions, expected 6 (the by-stream count "
                + "(notify.events' partitions or notify.fanout.stream-partitions)): fanout-streams refuses to start").level());
        assertEquals(Finding.Level.FAIL, byProblem.get("p.notify.push.dlq has cleanup.policy=compact, must be delete: compaction keeps "
                + "one record per key and loses the history").level());
        assertEquals(Finding.Level.WARN, byProblem.get("p.notify.push.dlq keeps records 7d, less than the documented 30d "
                + "(docs/topics.md)").level());
        assertEquals(Finding.Level.OK, byProblem.get("10 of 14 topics exist with the expected partitions and configs").level());

        Map<String, TopicState> deleting = healthy(3, "2");
        deleting.put("p.notify.push-registrations", new TopicState("p.notify.push-registrations", 6, 3,
                Map.of("cleanup.policy", "delete", "min.insync.replicas", "2")));
        assertEquals(List.of(Finding.Level.OK, Finding.Level.FAIL), topics(deleting, 3).stream().map(Finding::level).toList());
    }

    @Test
    void preferencesAreCoPartitionedLikePushChangesAndCompactedLikePushRegistrations() {
        String byStream = "the by-stream count (notify.events' partitions or notify.fanout.stream-partitions)";
        Map<String, TopicRule> byTopic = TopicRule.expected(new TopicRule.Layout(T, 6, 12, 3), List.of()).stream()
                .collect(Collectors.toMap(TopicRule::topic, r -> r));
        assertEquals(new TopicRule("p.notify.preferences", true, null, 12, byStream, false), byTopic.get("p.notify.preferences"));
        assertEquals("fanout-streams or the gateways", byTopic.get("p.notify.preferences").createdBy());

        Map<String, TopicState> m = healthy(3, "2");
        m.put("p.notify.preferences", new TopicState("p.notify.preferences", 3, 3, Map.of("cleanup.policy", "delete",
                "retention.ms", Long.toString(Duration.ofDays(7).toMillis()), "min.insync.replicas", "2")));
        Map<String, Finding> byProblem = topics(m, 3).stream().collect(Collectors.toMap(Finding::problem, f -> f));
        assertEquals(Finding.Level.FAIL, byProblem.get("p.notify.preferences has 3 partitions, expected 6 (" + byStream
                + "): fanout-streams refuses to start").level(), byProblem.keySet().toString());
        Finding deleting = byProblem.get("p.notify.preferences has cleanup.policy=delete, must be compact: the latest state of each "
                + "stream is deleted with its retention");
        assertEquals(Finding.Level.FAIL, deleting.level());
        assertEquals("kafka-configs.sh --alter --entity-type topics --entity-name p.notify.preferences --add-config "
                + "cleanup.policy=compact", deleting.fix());
        assertEquals(Finding.Level.OK, byProblem.get("13 of 14 topics exist with the expected partitions and configs").level());

        m.remove("p.notify.preferences");
        Finding missing = topics(m, 3).stream().filter(f -> f.problem().startsWith("p.notify.preferences")).findFirst().orElseThrow();
        assertEquals(Finding.Level.WARN, missing.level());
        assertEquals("p.notify.preferences does not exist (fanout-streams or the gateways create it at start)", missing.problem());
        assertEquals("start them, or kafka-topics.sh --create --topic p.notify.preferences --partitions 6 (configs: docs/topics.md)",
                missing.fix());
    }

    @Test
    void oneReplicaIsAWarningUnlessTheDeploymentIsMeantToHaveOne() {
        assertEquals(1, Doctor.exitCode(topics(healthy(1, "1"), 3)));
        assertTrue(topics(healthy(1, "1"), 3).get(0).problem().endsWith("has replication factor 1 (expected 3): losing its broker loses it"));
        assertEquals(0, Doctor.exitCode(topics(healthy(1, "1"), 1)));
    }

    private static AliveKeys sample(long at, Object... nodeIncarnationPttl) {
        Map<String, AliveKeys.Key> keys = new HashMap<>();
        for (int i = 0; i < nodeIncarnationPttl.length; i += 3) {
            keys.put((String) nodeIncarnationPttl[i], new AliveKeys.Key((String) nodeIncarnationPttl[i + 1], (Long) nodeIncarnationPttl[i + 2]));
        }
        return new AliveKeys(at, keys);
    }

    @Test
    void livenessTellsRefreshingNodesFromStaleKeys() {
        AliveKeys first = sample(0, "gw-1", "a", 3_000L, "gw-2", "b", 3_500L, "ghost", "x", 50_000L, "dying", "d", 2_000L,
                "forever", "f", -1L, "gone", "g", 100L, "restarted", "r1", 1_000L);
        AliveKeys second = sample(1_300, "gw-1", "a", 3_900L, "gw-2", "b", 3_200L, "ghost", "x", 48_700L, "dying", "d", 700L,
                "forever", "f", -1L, "restarted", "r2", 3_990L, "new", "n", 4_000L);
        LivenessJudge.Verdict v = LivenessJudge.judge(first, second, Duration.ofSeconds(4), Set.of("gw-1", "gw-2", "restarted", "retired"),
                "nf:alive:", "notify.node.");
        assertEquals(List.of("gw-1", "gw-2", "new", "restarted"), v.liveNodes().stream().sorted().toList(),
                "gw-2 refreshed 2 s after its first read: 3.2 s left 1.3 s later is above 3.5 - 1.3");
        Map<String, Finding.Level> byStart = v.findings().stream().collect(Collectors.toMap(f -> f.problem().split(" ")[0] + " "
                + f.problem().split(" ")[1], Finding::level, (a, b) -> a));
        assertEquals(Finding.Level.FAIL, byStart.get("nf:alive:ghost is"));
        assertEquals(Finding.Level.WARN, byStart.get("nf:alive:dying is"));
        assertEquals(Finding.Level.FAIL, byStart.get("nf:alive:forever has"));
        assertEquals(Finding.Level.WARN, byStart.get("nf:alive:gone expired"));
        assertEquals(Finding.Level.FAIL, byStart.get("node new"), "alive without a node topic: " + v.findings());
        assertEquals(Finding.Level.WARN, byStart.get("notify.node.retired exists"));
        assertEquals(Finding.Level.OK, v.findings().get(0).level());
    }

    @Test
    void redisModeMustMatchTheSetting() {
        assertEquals(Finding.Level.OK, RedisMode.judge("PONG", 300, false, "", "redis://h:6379", false).get(0).level());
        assertEquals("Redis at redis://h:6379 is standalone but notify.redis.cluster=true: the services cannot connect in cluster mode",
                RedisMode.judge("PONG", 300, false, "", "redis://h:6379", true).get(0).problem());
        assertEquals(Finding.Level.FAIL, RedisMode.judge("PONG", 300, true, "fail", "redis://h:6379", true).get(0).level());
        assertEquals("1", RedisMode.field("# Cluster\r\ncluster_enabled:1\r\n", "cluster_enabled"));
    }

    @Test
    void clockSkewThresholds() {
        Duration warn = Duration.ofMillis(500);
        Duration fail = Duration.ofSeconds(2);
        assertEquals(0, Doctor.exitCode(ClockSkew.judge(List.of(new ClockSkew.Skew("Redis", 3, 1), new ClockSkew.Skew("the broker", -499, 2)), warn, fail)));
        List<Finding> f = ClockSkew.judge(List.of(new ClockSkew.Skew("Redis", 700, 1), new ClockSkew.Skew("the broker", -2500, 2)), warn, fail);
        assertEquals("the local clock is 700 ms behind Redis (±1 ms), above --skew-warn 500ms", f.get(0).problem());
        assertEquals("the local clock is 2500 ms ahead of the broker (±2 ms), above --skew-fail 2s", f.get(1).problem());
        assertEquals(2, Doctor.exitCode(f));
    }

    @Test
    void lagLevelsAndAStoppedApp() {
        assertEquals(2, Doctor.exitCode(ConsumerLag.judge(new ConsumerLag.GroupLag("p.notify-fanout", 0, Map.of()), 10, 100)));
        assertEquals(0, Doctor.exitCode(ConsumerLag.judge(new ConsumerLag.GroupLag("g", 1, Map.of("p.notify.events", 10L)), 10, 100)));
        assertEquals(1, Doctor.exitCode(ConsumerLag.judge(new ConsumerLag.GroupLag("g", 1, Map.of("p.notify.events", 11L)), 10, 100)));
        assertEquals(2, Doctor.exitCode(ConsumerLag.judge(new ConsumerLag.GroupLag("g", 2, Map.of("a", 60L, "b", 41L)), 10, 100)));
    }

    @Test
    void aFindingPrintsItsFixOnTheNextLine() {
        assertEquals("FAIL  redis     down\n                fix: start it", Finding.fail("redis", "down", "start it").text());
        assertEquals("OK    clock     fine", Finding.ok("clock", "fine").text());
        assertEquals("nf\\*x\\?", AliveKeys.glob("nf*x?"));
    }
}
