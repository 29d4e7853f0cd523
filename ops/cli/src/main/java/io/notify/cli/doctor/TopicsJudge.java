package io.notify.cli.doctor;

import io.notify.common.config.SettingRead;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.TopicConfig;

/**
 * Judges the platform's topics against {@link TopicRule}s: existence, partition counts, compaction,
 * retention (docs/topics.md) and durability (replication factor vs {@code min.insync.replicas}).
 * Pure: the cluster's answer in, findings out.
 */
final class TopicsJudge {

    static final String CHECK = "topics";

    private TopicsJudge() {
    }

    /**
     * @param replication the replication factor the deployment is meant to have (3 in production, 1 on a
     *                    single-broker dev cluster): fewer replicas is a warning
     */
    static List<Finding> judge(List<TopicRule> rules, Map<String, TopicState> found, int replication) {
        List<Finding> out = new ArrayList<>();
        int fine = 0;
        for (TopicRule rule : rules) {
            TopicState t = found.get(rule.topic());
            List<Finding> problems = t == null ? List.of(missing(rule)) : problems(rule, t, replication);
            out.addAll(problems);
            fine += problems.isEmpty() ? 1 : 0;
        }
        if (fine > 0) {
            out.add(0, Finding.ok(CHECK, fine + " of " + rules.size() + " topics exist with the expected partitions and configs"));
        }
        return out;
    }

    private static Finding missing(TopicRule rule) {
        String create = "kafka-topics.sh --create --topic " + rule.topic()
                + (rule.partitions() > 0 ? " --partitions " + rule.partitions() : "") + " (configs: docs/topics.md)";
        if (rule.required()) {
            return Finding.fail(CHECK, rule.topic() + " does not exist", create);
        }
        boolean several = rule.createdBy().contains(" or ") || rule.createdBy().endsWith("s");
        return Finding.warn(CHECK, rule.topic() + " does not exist (" + rule.createdBy() + (several ? " create" : " creates")
                + " it at start)", "start " + (several ? "them" : "it") + ", or " + create);
    }

    private static List<Finding> problems(TopicRule rule, TopicState t, int replication) {
        List<Finding> out = new ArrayList<>();
        String alter = "kafka-configs.sh --alter --entity-type topics --entity-name " + t.name() + " --add-config ";
        if (rule.partitions() > 0 && t.partitions() != rule.partitions()) {
            String problem = t.name() + " has " + t.partitions() + " partitions, expected " + rule.partitions() + " (" + rule.why() + ")";
            out.add(rule.partitionsMustMatch()
                    ? Finding.fail(CHECK, problem + ": fanout-streams refuses to start", "recreate it with " + rule.partitions() + " partitions")
                    : Finding.warn(CHECK, problem, "harmless (the node reads all of its topic); recreate it to match if unintended"));
        }
        boolean compacted = t.config(TopicConfig.CLEANUP_POLICY_CONFIG).contains(TopicConfig.CLEANUP_POLICY_COMPACT);
        if (rule.compact() && !compacted) {
            out.add(Finding.fail(CHECK, t.name() + " has cleanup.policy=" + t.config(TopicConfig.CLEANUP_POLICY_CONFIG)
                    + ", must be compact: the latest state of each stream is deleted with its retention", alter + "cleanup.policy=compact"));
        } else if (!rule.compact() && compacted) {
            out.add(Finding.fail(CHECK, t.name() + " has cleanup.policy=" + t.config(TopicConfig.CLEANUP_POLICY_CONFIG)
                    + ", must be delete: compaction keeps one record per key and loses the history", alter + "cleanup.policy=delete"));
        }
        String retention = t.config(TopicConfig.RETENTION_MS_CONFIG);
        if (rule.retention() != null && !retention.isEmpty() && !retention.equals("-1")
                && Long.parseLong(retention) < rule.retention().toMillis()) {
            out.add(Finding.warn(CHECK, t.name() + " keeps records " + SettingRead.format(Duration.ofMillis(Long.parseLong(retention)))
                    + ", less than the documented " + SettingRead.format(rule.retention()) + " (docs/topics.md)", alter + "retention.ms=" + rule.retention().toMillis()));
        }
        int rf = t.replicationFactor();
        int minIsr = t.config(TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG).isEmpty() ? 1
                : Integer.parseInt(t.config(TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG));
        if (rf < replication) {
            out.add(Finding.warn(CHECK, t.name() + " has replication factor " + rf + " (expected " + replication
                    + "): losing " + (rf == 1 ? "its broker loses it" : rf + " brokers loses it"),
                    "add replicas with kafka-reassign-partitions.sh (or pass --replication " + rf + " for a dev cluster)"));
        } else if (rf > 1 && minIsr >= rf) {
            out.add(Finding.warn(CHECK, t.name() + " has min.insync.replicas=" + minIsr + " with replication factor " + rf
                    + ": one broker down stops every acks=all write", alter + "min.insync.replicas=" + (rf - 1)));
        } else if (rf >= 3 && minIsr == 1) {
            out.add(Finding.warn(CHECK, t.name() + " has min.insync.replicas=1: an acknowledged write may live on one broker only",
                    alter + "min.insync.replicas=2"));
        }
        return out;
    }
}
