package io.notify.cli.doctor;

import io.notify.schemas.topic.TopicCatalog;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * What docs/topics.md says each topic of the platform must be: whether it is compacted, the
 * retention it is documented with, and the partition count it must have where one matters for
 * correctness. {@link #expected} is the canonical list the doctor checks a cluster against.
 *
 * @param topic      the full topic name (with the prefix)
 * @param compact    true: {@code cleanup.policy} must include compact; false: it must not (history, not latest-per-key)
 * @param retention  the documented retention; a shorter one keeps less than the design relies on (null: not checked)
 * @param partitions the partition count the platform needs, or 0 where any count works
 * @param why        where the partition count comes from, for the message
 * @param required   false for topics that appear only once a service has run (created by gateways or fanout)
 */
record TopicRule(String topic, boolean compact, Duration retention, int partitions, String why, boolean required) {

    /** What the doctor reads of the deployment's settings to expect. */
    record Layout(TopicCatalog topics, int eventsPartitions, int streamPartitions, int nodeTopicPartitions) {

        /** The by-stream topic's partition count: notify.fanout.stream-partitions, or notify.events' count (TopicLayout). */
        int byStream() {
            return streamPartitions > 0 ? streamPartitions : eventsPartitions;
        }
    }

    /**
     * Every topic of the platform (docs/topics.md; fanout's TopicLayout for receipts) and the node topics of
     * {@code liveNodes}; receipts needs the by-stream count, a node topic the node's
     * {@code notify.gateway.node-topic-partitions} (only a WARN when it differs: a node reads all of its topic).
     */
    static List<TopicRule> expected(Layout layout, List<String> liveNodes) {
        TopicCatalog t = layout.topics();
        List<TopicRule> rules = new ArrayList<>(List.of(
                new TopicRule(t.events().name(), false, Duration.ofDays(7), 0, "", true),
                new TopicRule(t.eventsDlq().name(), false, Duration.ofDays(30), 0, "", true),
                new TopicRule(t.streamLog().name(), false, Duration.ofDays(30), 0, "", true),
                new TopicRule(t.undelivered().name(), false, Duration.ofDays(3), 0, "", true),
                new TopicRule(t.receipts().name(), false, Duration.ofDays(7), layout.byStream(),
                        "the by-stream count (notify.events' partitions or notify.fanout.stream-partitions)", false),
                new TopicRule(t.inboxState().name(), true, null, 0, "", false),
                new TopicRule(t.fallback().name(), false, Duration.ofDays(7), 0, "", false),
                new TopicRule(t.allNodes().name(), false, Duration.ofHours(1), layout.nodeTopicPartitions(),
                        "notify.gateway.node-topic-partitions", false)));
        for (String node : liveNodes) {
            rules.add(new TopicRule(t.node(node).name(), false, Duration.ofHours(1), layout.nodeTopicPartitions(),
                    "notify.gateway.node-topic-partitions", true));
        }
        return rules;
    }

    /** A node topic's partition count differing from the setting only costs a warning: the node reads all of its topic anyway. */
    boolean partitionsMustMatch() {
        return !why.equals("notify.gateway.node-topic-partitions");
    }
}
