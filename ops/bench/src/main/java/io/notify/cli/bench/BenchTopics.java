package io.notify.cli.bench;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.TopicPartitionInfo;

/**
 * Creates benchmark topics and waits until every partition has a leader: an idempotent producer
 * that starts before that can get NOT_LEADER on its first batches and then retry
 * OUT_OF_ORDER_SEQUENCE_NUMBER without end (seen on this devstack broker).
 */
final class BenchTopics {

    private static final Duration BOUND = Duration.ofSeconds(60);

    private BenchTopics() {
    }

    static void create(Admin admin, List<NewTopic> topics) throws Exception {
        admin.createTopics(topics).all().get(BOUND.toSeconds(), TimeUnit.SECONDS);
        long deadline = System.nanoTime() + BOUND.toNanos();
        for (NewTopic t : topics) {
            while (!leadersKnown(admin, t)) {
                if (System.nanoTime() - deadline > 0) {
                    throw new IOException("no leader for every partition of " + t.name() + " within " + BOUND);
                }
                TimeUnit.MILLISECONDS.sleep(20); // poll interval of a bounded wait on broker metadata
            }
        }
    }

    private static boolean leadersKnown(Admin admin, NewTopic t) throws InterruptedException {
        try {
            TopicDescription d = admin.describeTopics(List.of(t.name())).allTopicNames().get(5, TimeUnit.SECONDS)
                    .get(t.name());
            return d != null && d.partitions().size() == t.numPartitions()
                    && d.partitions().stream().map(TopicPartitionInfo::leader).allMatch(l -> l != null && !l.isEmpty());
        } catch (ExecutionException | TimeoutException e) {
            return false; // not visible yet
        }
    }
}
