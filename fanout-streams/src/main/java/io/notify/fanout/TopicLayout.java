package io.notify.fanout;

import io.notify.fanout.recipients.RecipientPlacement;
import io.notify.schemas.topic.TopicCatalog;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The partition layout fanout-streams relies on, read (and where needed made) once at start:
 * <ul>
 *   <li>which recipient copies skip the by-stream repartition ({@link RecipientPlacement}), from
 *       notify.events' partition count;</li>
 *   <li>{@code notify.receipts} has exactly as many partitions as the by-stream topic, because a
 *       receipt is applied in the task that owns its stream's inbox (partition i of both topics is
 *       task i). Missing, it is created with that count (retention 7 days); with another count the
 *       instance refuses to start, naming both counts;</li>
 *   <li>{@code notify.push-changes} likewise (the push registrations live with the user's stream), and
 *       {@code notify.preferences} (compacted: the latest preferences of each user);</li>
 *   <li>{@code notify.inbox-state} and {@code notify.push-registrations}, the appliers' outputs, exist and
 *       are compacted, and {@code notify.fallback} exists (7 days' retention): each created so if missing.</li>
 * </ul>
 * If the counts cannot be read in time, every copy is repartitioned (always correct) and the
 * receipts check is skipped with a warning; topics are then left to the operator.
 */
final class TopicLayout {

    private static final Logger LOG = LoggerFactory.getLogger(TopicLayout.class);
    static final Duration CHECK_TIMEOUT = Duration.ofSeconds(30);
    static final long RECEIPTS_RETENTION_MS = Duration.ofDays(7).toMillis();

    private TopicLayout() {
    }

    /** Checks and creates as above; returns the placement. */
    static RecipientPlacement prepare(Admin admin, FanoutConfig config) {
        TopicCatalog topics = config.topics();
        String events = topics.events().name();
        int eventsPartitions;
        try {
            Optional<Integer> found = partitions(admin, events);
            if (found.isEmpty()) {
                LOG.warn("{} does not exist yet; every recipient copy goes through the by-stream topic, and {} is not checked",
                        events, topics.receipts().name());
                return RecipientPlacement.none();
            }
            eventsPartitions = found.get();
        } catch (ExecutionException | TimeoutException e) {
            LOG.warn("cannot read the partition count of {} ({}); every recipient copy goes through the by-stream topic, "
                    + "and the partitions of {} are not checked", events, e.toString(), topics.receipts().name());
            return RecipientPlacement.none();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return RecipientPlacement.none();
        }
        int byStream = config.streamPartitions() > 0 ? config.streamPartitions() : eventsPartitions;
        try {
            ensureReceiptsAndState(admin, topics, byStream);
        } catch (ExecutionException | TimeoutException e) {
            LOG.warn("cannot check or create {}, {} and {} ({}); they must exist, the first with {} partitions",
                    topics.receipts().name(), topics.inboxState().name(), topics.fallback().name(), e.toString(), byStream);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return RecipientPlacement.forTopics(eventsPartitions, config.streamPartitions());
    }

    private static void ensureReceiptsAndState(Admin admin, TopicCatalog topics, int byStream)
            throws ExecutionException, TimeoutException, InterruptedException {
        List<NewTopic> missing = new ArrayList<>();
        // receipts, push changes and preferences are applied where their user's stream lives: partition i of each is task i
        Map<String, String> retained = Map.of(TopicConfig.RETENTION_MS_CONFIG, Long.toString(RECEIPTS_RETENTION_MS));
        Map<String, Map<String, String>> coPartitionedTopics = Map.of(topics.receipts().name(), retained,
                topics.pushChanges().name(), retained,
                topics.preferences().name(), Map.of(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT));
        for (String coPartitioned : coPartitionedTopics.keySet()) {
            Optional<Integer> have = partitions(admin, coPartitioned);
            if (have.isPresent() && have.get() != byStream) {
                throw new IllegalStateException(coPartitioned + " has " + have.get() + " partitions, but its records are applied "
                        + "where their stream's inbox lives: it needs exactly as many as the by-stream topic (" + byStream
                        + ", from notify.events or notify.fanout.stream-partitions). Recreate it with " + byStream + " partitions.");
            }
            if (have.isEmpty()) {
                missing.add(new NewTopic(coPartitioned, Optional.of(byStream), Optional.empty())
                        .configs(coPartitionedTopics.get(coPartitioned)));
            }
        }
        for (String compacted : List.of(topics.inboxState().name(), topics.pushRegistrations().name())) {
            if (partitions(admin, compacted).isEmpty()) {
                missing.add(new NewTopic(compacted, Optional.of(byStream), Optional.empty())
                        .configs(Map.of(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT)));
            }
        }
        String fallback = topics.fallback().name();
        if (partitions(admin, fallback).isEmpty()) {
            missing.add(new NewTopic(fallback, Optional.of(byStream), Optional.empty())
                    .configs(Map.of(TopicConfig.RETENTION_MS_CONFIG, Long.toString(RECEIPTS_RETENTION_MS))));
        }
        for (NewTopic t : missing) {
            try {
                admin.createTopics(List.of(t)).all().get(CHECK_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
                LOG.info("created {} with {} partitions", t.name(), byStream);
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof TopicExistsException)) {
                    throw e;
                }
            }
        }
    }

    private static Optional<Integer> partitions(Admin admin, String topic)
            throws ExecutionException, TimeoutException, InterruptedException {
        try {
            TopicDescription d = admin.describeTopics(List.of(topic)).allTopicNames()
                    .get(CHECK_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS).get(topic);
            return Optional.of(d.partitions().size());
        } catch (ExecutionException e) {
            if (e.getCause() instanceof UnknownTopicOrPartitionException) {
                return Optional.empty();
            }
            throw e;
        }
    }
}
