package io.notify.fanout.commit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class CatchUpCommitTest {

    static final TopicPartition EVENTS_0 = new TopicPartition("notify.events", 0);
    static final TopicPartition BY_STREAM_0 = new TopicPartition("app-by-stream-repartition", 0);

    final CatchUpCommit interceptor = new CatchUpCommit();
    final MockProcessorContext<Object, Object> context = new MockProcessorContext<>();

    @AfterEach
    void clearThread() {
        interceptor.close();
    }

    @Test
    void asksOnceWhenTheLastRecordOfEveryPartitionOfAShortPollIsProcessed() {
        interceptor.configure(Map.of(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "1000"));
        interceptor.onConsume(poll(Map.of(EVENTS_0, new long[] {10, 11, 12}, BY_STREAM_0, new long[] {7})));

        assertFalse(process(EVENTS_0, 10));
        assertFalse(process(BY_STREAM_0, 7), "events-0 still has records of the poll to process");
        assertFalse(process(EVENTS_0, 11));
        assertFalse(context.committed());
        assertTrue(process(EVENTS_0, 12), "the last pending record of the poll");
        assertTrue(context.committed());

        context.resetCommit();
        assertFalse(process(EVENTS_0, 12), "asked once per poll");
        assertFalse(context.committed());
    }

    @Test
    void aFullPollIsABacklogAndLeavesCommitsToTheInterval() {
        interceptor.configure(Map.of(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 3));
        interceptor.onConsume(poll(Map.of(EVENTS_0, new long[] {0, 1, 2})));

        assertFalse(process(EVENTS_0, 0));
        assertFalse(process(EVENTS_0, 1));
        assertFalse(process(EVENTS_0, 2));
        assertFalse(context.committed());
    }

    @Test
    void theNextPollReplacesWhatIsPendingAndAnEmptyOneClearsIt() {
        interceptor.configure(Map.of());
        interceptor.onConsume(poll(Map.of(EVENTS_0, new long[] {0, 1})));
        interceptor.onConsume(poll(Map.of(BY_STREAM_0, new long[] {5})));
        assertTrue(process(BY_STREAM_0, 5), "only the last poll's partitions are pending");

        interceptor.onConsume(poll(Map.of(EVENTS_0, new long[] {2})));
        interceptor.onConsume(poll(Map.of()));
        assertFalse(process(EVENTS_0, 2), "an empty poll left nothing pending");
    }

    @Test
    void aRecordWithoutSourceMetadataAsksNothing() {
        interceptor.configure(Map.of());
        interceptor.onConsume(poll(Map.of(EVENTS_0, new long[] {0})));
        MockProcessorContext<Object, Object> punctuation = new MockProcessorContext<>();
        assertFalse(CatchUpCommit.processed(punctuation));
        assertFalse(punctuation.committed());
        assertTrue(process(EVENTS_0, 0));
    }

    @Test
    void pendingRecordsBelongToThePollingThreadOnly() throws Exception {
        interceptor.configure(Map.of());
        interceptor.onConsume(poll(Map.of(EVENTS_0, new long[] {0})));
        boolean[] elsewhere = new boolean[1];
        Thread other = new Thread(() -> {
            MockProcessorContext<Object, Object> c = new MockProcessorContext<>();
            c.setRecordMetadata(EVENTS_0.topic(), EVENTS_0.partition(), 0);
            elsewhere[0] = CatchUpCommit.processed(c);
        });
        other.start();
        other.join();
        assertFalse(elsewhere[0], "another stream thread's record");
        assertTrue(process(EVENTS_0, 0));
    }

    private boolean process(TopicPartition partition, long offset) {
        context.setRecordMetadata(partition.topic(), partition.partition(), offset);
        return CatchUpCommit.processed(context);
    }

    private static ConsumerRecords<byte[], byte[]> poll(Map<TopicPartition, long[]> offsets) {
        Map<TopicPartition, List<ConsumerRecord<byte[], byte[]>>> records = new LinkedHashMap<>();
        offsets.forEach((tp, os) -> {
            List<ConsumerRecord<byte[], byte[]>> list = new ArrayList<>();
            for (long o : os) {
                list.add(new ConsumerRecord<>(tp.topic(), tp.partition(), o, null, new byte[0]));
            }
            records.put(tp, list);
        });
        ConsumerRecords<byte[], byte[]> polled = new ConsumerRecords<>(records, Map.of());
        assertEquals(offsets.values().stream().mapToInt(o -> o.length).sum(), polled.count());
        return polled;
    }
}
