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
 * @param required   false for topics that appear only once a service has run (created by the gateways, fanout or
 *                   the push sender)
 * @param createdBy  for a topic that is not required, the services that create it at start, for the message;
 *                   null for a required one
 */
record TopicRule(String topic, boolean compact, Duration retention, int partitions, String why, boolean required,
                 String createdBy) {

    /** Who creates the topics of the platform that are not required: fanout's TopicLayout, the gateways. */
    static final String FANOUT_OR_GATEWAYS = "fanout-streams or the gateways";
    /** The push sender creates its outcomes and its DLQ at start (push's OwnTopics, docs/topics.md). */
    static final String PUSH_SENDER = "the push sender";

    /** A topic the operator creates (required), or one fanout-streams or the gateways create at start (not required). */
    TopicRule(String topic, boolean compact, Duration retention, int partitions, String why, boolean required) {
        this(topic, compact, retention, partitions, why, required, required ? null : FANOUT_OR_GATEWAYS);
    }

    /** What the doctor reads of the deployment's settings to expect. */
    record Layout(TopicCatalog topics, int eventsPartitions, int streamPartitions, int nodeTopicPartitions) {

        /** The by-stream topic's partition count: notify.fanout.stream-partitions, or notify.events' count (TopicLayout). */
        int byStream() {
            return streamPartitions > 0 ? streamPartitions : eventsPartitions;
        }
    }

    /**
     * Every topic of the platform (docs/topics.md; fanout's TopicLayout for receipts, the push topics and the
     * preferences it applies and writes) and the node topics of {@code liveNodes}; receipts, push-changes and
     * preferences (compacted, like push-registrations) need the by-stream count, a node topic the node's
     * {@code notify.gateway.node-topic-partitions} (only a WARN when it differs: a node reads all of its topic). The
     * push sender creates its outcomes and DLQ at start, as fanout-streams creates the push changes and registrations
     * and the preferences, so each is only a WARN when missing.
     */
    static List<TopicRule> expected(Layout layout, List<String> liveNodes) {
        TopicCatalog t = layout.topics();
        String byStream = "the by-stream count (notify.events' partitions or notify.fanout.stream-partitions)";
        List<TopicRule> rules = new ArrayList<>(List.of(
                new TopicRule(t.events().name(), false, Duration.ofDays(7), 0, "", true),
                new TopicRule(t.eventsDlq().name(), false, Duration.ofDays(30), 0, "", true),
                new TopicRule(t.streamLog().name(), false, Duration.ofDays(30), 0, "", true),
                new TopicRule(t.undelivered().name(), false, Duration.ofDays(3), 0, "", true),
                new TopicRule(t.receipts().name(), false, Duration.ofDays(7), layout.byStream(), byStream, false),
                new TopicRule(t.inboxState().name(), true, null, 0, "", false),
                new TopicRule(t.fallback().name(), false, Duration.ofDays(7), 0, "", false),
                new TopicRule(t.pushChanges().name(), false, Duration.ofDays(7), layout.byStream(), byStream, false),
                new TopicRule(t.pushRegistrations().name(), true, null, 0, "", false),
                new TopicRule(t.pushOutcomes().name(), false, Duration.ofDays(7), 0, "", false, PUSH_SENDER),
                new TopicRule(t.pushDlq().name(), false, Duration.ofDays(30), 0, "", false, PUSH_SENDER),
                new TopicRule(t.preferences().name(), true, null, layout.byStream(), byStream, false),
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
