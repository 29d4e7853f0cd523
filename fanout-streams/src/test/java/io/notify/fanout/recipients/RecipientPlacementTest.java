package io.notify.fanout.recipients;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.notify.protocol.stream.StreamId;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.clients.producer.internals.BuiltInPartitioner;
import org.junit.jupiter.api.Test;

/** Which copies stay in the task that read the event: exactly those a first-recipient key put there. */
class RecipientPlacementTest {

    @Test
    void aRecordKeyedByItsFirstRecipientIsAlwaysLocalForIt() {
        RecipientPlacement p = RecipientPlacement.forTopics(6, 0);
        assertEquals(6, p.partitions());
        int[] perPartition = new int[6];
        for (int i = 0; i < 1000; i++) {
            String user = "user-" + i;
            // The partition the Kafka producer's default partitioner picks for the key ingest and NotifyPublisher
            // write (EventEnvelope.recordKey: "u:" + the first user).
            int partition = BuiltInPartitioner.partitionForKey(("u:" + user).getBytes(StandardCharsets.UTF_8), 6);
            assertTrue(p.local(StreamId.forUser(user), partition), user);
            for (int other = 0; other < 6; other++) {
                assertEquals(other == partition, p.local(StreamId.forUser(user), other), user + " read from " + other);
            }
            perPartition[partition]++;
        }
        for (int n : perPartition) {
            assertTrue(n > 100, "streams spread over the partitions");
        }
    }

    @Test
    void differentPartitionCountsOrAnUnknownPartitionKeepEveryCopyOnTheRepartitionTopic() {
        assertEquals(0, RecipientPlacement.forTopics(6, 12).partitions(), "by-stream configured to 12 partitions");
        assertEquals(6, RecipientPlacement.forTopics(6, 6).partitions());
        assertEquals(0, RecipientPlacement.forTopics(0, 0).partitions(), "partition count unknown");
        for (int partition = 0; partition < 6; partition++) {
            assertFalse(RecipientPlacement.none().local(StreamId.forUser("42"), partition));
        }
        assertFalse(RecipientPlacement.forTopics(6, 0).local(StreamId.forUser("42"), -1), "no record metadata");
    }
}
