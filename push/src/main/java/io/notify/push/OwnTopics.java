package io.notify.push;

import io.notify.common.config.PlatformSettings;
import io.notify.schemas.topic.TopicCatalog;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TopicExistsException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The topics only the push sender writes, made at its start when missing (docs/topics.md):
 * {@code notify.push-outcomes} ({@value #OUTCOMES_PARTITIONS} partitions, 7 days) and
 * {@code notify.push.dlq} ({@value #DLQ_PARTITIONS} partitions, 30 days), with the broker's
 * replication factor. One that exists is left as it is; one that cannot be made in time is logged,
 * and the sender starts anyway (a write to a missing topic fails, and its batch is read again).
 * {@code notify.push-changes} is fanout-streams' to make: it must be partitioned like the by-stream topic.
 */
final class OwnTopics {

    private static final Logger LOG = LoggerFactory.getLogger(OwnTopics.class);
    static final int OUTCOMES_PARTITIONS = 6;
    static final int DLQ_PARTITIONS = 3;
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private OwnTopics() {
    }

    static void ensure(PushConfig config) {
        TopicCatalog topics = TopicCatalog.of(config.topicPrefix());
        List<NewTopic> wanted = List.of(
                new NewTopic(topics.pushOutcomes().name(), Optional.of(OUTCOMES_PARTITIONS), Optional.empty())
                        .configs(Map.of(TopicConfig.RETENTION_MS_CONFIG, Long.toString(Duration.ofDays(7).toMillis()))),
                new NewTopic(topics.pushDlq().name(), Optional.of(DLQ_PARTITIONS), Optional.empty())
                        .configs(Map.of(TopicConfig.RETENTION_MS_CONFIG, Long.toString(Duration.ofDays(30).toMillis()))));
        try (Admin admin = Admin.create(PlatformSettings.kafkaProps(config.bootstrapServers(), config.kafkaClient()))) {
            for (NewTopic t : wanted) {
                try {
                    admin.createTopics(List.of(t)).all().get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
                    LOG.info("created {} with {} partitions", t.name(), t.numPartitions());
                } catch (ExecutionException e) {
                    if (!(e.getCause() instanceof TopicExistsException)) {
                        LOG.warn("cannot create {} ({}); create it before pushes go out", t.name(), e.getCause().toString());
                    }
                } catch (TimeoutException e) {
                    LOG.warn("Kafka did not create {} within {}; create it before pushes go out", t.name(), TIMEOUT);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
