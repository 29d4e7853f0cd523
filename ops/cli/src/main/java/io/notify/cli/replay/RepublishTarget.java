package io.notify.cli.replay;

import io.notify.schemas.topic.Topic;
import io.notify.schemas.topic.TopicCatalog;
import java.util.Collection;

/**
 * Where {@code --republish-to} writes. {@code events}/{@code notify.events} means the catalog's
 * events topic (with new ids); the other Notify topics are written by fan-out (receipts: by the
 * gateways; the push topics: by the gateways and the push sender, {@link SourceTopic#writtenBy}) only and
 * refused; any other name is used verbatim (no prefix added) and the records are copied. A topic being
 * read is always refused.
 */
record RepublishTarget(String topic, boolean intoEvents) {

    static RepublishTarget resolve(String text, TopicCatalog catalog, Collection<String> beingRead) {
        String t = text == null ? "" : text.trim();
        SourceTopic known = null;
        try {
            known = SourceTopic.parse(t, catalog);
        } catch (UsageException notNotify) {
            // not a Notify topic name: a topic of the analyst's own
        }
        String name = known != null ? known.topicName(catalog) : t;
        if (beingRead.contains(name)) {
            throw new UsageException("--republish-to: refusing to write into " + name + ", the topic being read");
        }
        if (known == SourceTopic.EVENTS) {
            return new RepublishTarget(name, true);
        }
        if (known != null || catalog.nodeIdOf(t).isPresent()) {
            String writer = known != null ? known.writtenBy : "fan-out";
            boolean several = writer.endsWith("s") || writer.contains(" and "); // "the gateways write", "fan-out writes"
            throw new UsageException("--republish-to: refusing to write into " + name + ", which only " + writer
                    + (several ? " write" : " writes") + "; republish into events or into a topic of your own");
        }
        if (!Topic.LEGAL_NAME.matcher(t).matches()) {
            throw new UsageException("--republish-to: '" + t + "' is not a Kafka topic name (1..249 chars of [A-Za-z0-9._-])");
        }
        return new RepublishTarget(t, false);
    }
}
