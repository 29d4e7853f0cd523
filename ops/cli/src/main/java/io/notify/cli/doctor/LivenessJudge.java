package io.notify.cli.doctor;

import io.notify.common.config.SettingRead;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Judges the gateways' liveness keys, sampled twice more than {@code alive-refresh} apart, against the
 * node topics that exist: a running node refreshes its key (the TTL goes back up), a key nobody refreshes
 * belongs to a node that is gone, a key without a TTL was never written by a gateway. Routers route to
 * every node whose key exists, so a stale key sends deliveries to a node that does not run. Pure.
 */
final class LivenessJudge {

    static final String CHECK = "liveness";
    /** Slack for the two reads of one key not being at the sample's instant. */
    static final long SLACK_MS = 250;

    /**
     * The verdict and the nodes judged alive (refreshing, or new since the first sample).
     */
    record Verdict(List<Finding> findings, List<String> liveNodes) {
    }

    private LivenessJudge() {
    }

    static Verdict judge(AliveKeys first, AliveKeys second, Duration aliveTtl, Set<String> nodesWithTopic, String aliveKeyPrefix,
                         String nodeTopicPrefix) {
        List<Finding> out = new ArrayList<>();
        List<String> live = new ArrayList<>();
        long elapsed = second.atMillis() - first.atMillis();
        Set<String> nodes = new TreeSet<>(first.keys().keySet());
        nodes.addAll(second.keys().keySet());
        for (String node : nodes) {
            AliveKeys.Key before = first.keys().get(node);
            AliveKeys.Key after = second.keys().get(node);
            String key = aliveKeyPrefix + node;
            if (after == null) {
                out.add(Finding.warn(CHECK, key + " expired during the check: node " + node + " just stopped or died",
                        "if it should run, look at its log; routers stopped routing to it"));
            } else if (after.pttlMillis() < 0) {
                out.add(Finding.fail(CHECK, key + " has no TTL: no gateway writes it so, and routers route to node " + node
                        + " for as long as it exists", "DEL " + key + " if node " + node + " does not run"));
            } else if (before == null || !before.incarnation().equals(after.incarnation())
                    || after.pttlMillis() > before.pttlMillis() - elapsed + SLACK_MS) {
                live.add(node);
            } else if (after.pttlMillis() > aliveTtl.toMillis()) {
                out.add(Finding.fail(CHECK, key + " is not refreshed by any node but lives " + SettingRead.format(Duration.ofMillis(after.pttlMillis()))
                        + " more (a gateway sets " + SettingRead.format(aliveTtl) + "): routers send node " + node
                        + "'s deliveries to a node that does not run", "DEL " + key + " if node " + node + " does not run"));
            } else {
                out.add(Finding.warn(CHECK, key + " is no longer refreshed: node " + node + " stopped, died or is frozen; it expires in "
                        + SettingRead.format(Duration.ofMillis(after.pttlMillis())), "if it should run, look at its log and its GC pauses"));
            }
        }
        for (String node : live) {
            if (!nodesWithTopic.contains(node)) {
                out.add(Finding.fail(CHECK, "node " + node + " is alive but " + nodeTopicPrefix + node
                        + " does not exist: fanout-streams records its deliveries undelivered",
                        "the node creates its topic at start: look at its log (Kafka ACLs?) and restart it"));
            }
        }
        for (String node : nodesWithTopic) {
            if (!live.contains(node) && !nodes.contains(node)) {
                out.add(Finding.warn(CHECK, nodeTopicPrefix + node + " exists but node " + node + " is not alive (retired, or down)",
                        "if the node is retired, delete its topic: kafka-topics.sh --delete --topic " + nodeTopicPrefix + node));
            }
        }
        if (live.isEmpty() && out.isEmpty()) {
            out.add(Finding.warn(CHECK, "no gateway is alive (no " + aliveKeyPrefix + "* key)", "start the gateways"));
        } else if (!live.isEmpty()) {
            out.add(0, Finding.ok(CHECK, live.size() + " gateway(s) alive and refreshing their liveness keys: "
                    + String.join(", ", live)));
        }
        return new Verdict(out, live);
    }
}
