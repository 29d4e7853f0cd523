package io.notify.devstack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.utils.Utils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A long offset history does not stay in {@code __consumer_offsets}: its segments roll at 1 MiB and
 * the cleaner compacts them, so a restarted broker replays far fewer records to load a group. Why
 * that matters is in {@link BrokerConfig} (a slow load after a kill -9 can leave a group waiting
 * five minutes for a ghost member). With Kafka's 100 MB segments every commit ever made stays in
 * the active segment and is replayed on each load. Run on the module's shared broker (the same
 * {@link BrokerConfig} as the broker process), whose other groups' few commits that may share the
 * partition are far below the bound.
 */
@ExtendWith(NotifyInfraExtension.class)
@Timeout(180)
class OffsetsCompactionIT {

    private static final int COMMITS = 20_000;
    /** 20,000 commits × 200 B of metadata: more than 4 MiB written to the group's partition. */
    private static final String METADATA = "m".repeat(200);
    private static final long COMPACTED_BYTES = 2L << 20;

    @Test
    void theOffsetsOfALongRunAreCompactedToTheLatestPerPartition(Infra infra) throws Exception {
        String group = infra.name("compaction-group");
        TopicPartition tp = new TopicPartition(infra.createTopic("compaction", 1), 0);
        TopicPartition offsets = new TopicPartition("__consumer_offsets",
                Utils.abs(group.hashCode()) % Integer.parseInt(BrokerConfig.INTERNAL_TOPIC_PARTITIONS));
        Admin admin = infra.adminClient();
        try (KafkaConsumer<String, String> consumer = KafkaTestClients.consumer(infra.bootstrapServers(), group,
                Map.of(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false))) {
            consumer.assign(List.of(tp));
            consumer.commitSync(Map.of(tp, new OffsetAndMetadata(0))); // waits out the coordinator's first load
            for (int i = 1; i <= COMMITS; i++) {
                consumer.commitAsync(Map.of(tp, new OffsetAndMetadata(i, METADATA)), null);
                if (i % 1000 == 0) {
                    consumer.commitSync(Map.of(tp, new OffsetAndMetadata(i, METADATA)));
                }
            }

            Deadline deadline = Deadline.in(Duration.ofSeconds(120));
            long size = size(admin, offsets);
            while (size > COMPACTED_BYTES && !deadline.expired()) {
                TimeUnit.MILLISECONDS.sleep(500); // poll interval of the condition
                size = size(admin, offsets);
            }
            assertTrue(size <= COMPACTED_BYTES, offsets + " still holds " + size + " bytes");
            assertEquals(COMMITS, consumer.committed(Set.of(tp)).get(tp).offset(),
                    "compaction keeps the latest commit");
        }
    }

    private static long size(Admin admin, TopicPartition tp) throws Exception {
        return admin.describeLogDirs(List.of(BrokerConfig.NODE_ID)).allDescriptions().get(20, TimeUnit.SECONDS)
                .get(BrokerConfig.NODE_ID).values().stream()
                .mapToLong(dir -> dir.replicaInfos().containsKey(tp) ? dir.replicaInfos().get(tp).size() : 0).sum();
    }
}
