package io.notify.fanout.routing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.notify.fanout.metrics.FanoutMetrics;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.streams.errors.ProductionExceptionHandler;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class MissingNodeTopicHandlerTest {

    static final String NODE_TOPIC = "p.notify.node.gw-9";
    final FanoutMetrics metrics = FanoutMetrics.inMemory();
    final NodeTopics nodeTopics = NodeTopics.of(Set.of(NODE_TOPIC));
    final MissingNodeTopicHandler handler = new MissingNodeTopicHandler();

    @BeforeEach
    void configure() {
        handler.configure(Map.of(MissingNodeTopicHandler.NODE_TOPICS, nodeTopics,
                MissingNodeTopicHandler.METRICS, metrics, MissingNodeTopicHandler.TOPIC_PREFIX, "p."));
    }

    private ProductionExceptionHandler.Result handle(String topic, Exception e) {
        return handler.handleError(null, new ProducerRecord<>(topic, new byte[0], new byte[0]), e).result();
    }

    @Test
    void aMetadataTimeoutForAMissingNodeTopicIsSkippedCountedAndRemembered() {
        // What KafkaProducer 4.4 reports after max.block.ms for a topic the broker does not have.
        Exception e = new TimeoutException("Topic " + NODE_TOPIC + " not present in metadata after 60000 ms.",
                new UnknownTopicOrPartitionException("This server does not host this topic-partition."));
        assertEquals(ProductionExceptionHandler.Result.RESUME, handle(NODE_TOPIC, e));
        assertFalse(nodeTopics.exists(NODE_TOPIC));
        assertEquals(1.0, metrics.count("notify.fanout.node.topic.missing", "stage", "produce"));
    }

    @Test
    void everyOtherFailureFailsTheTask() {
        assertEquals(ProductionExceptionHandler.Result.FAIL, handle("p.notify.stream-log",
                new UnknownTopicOrPartitionException("gone")));
        assertEquals(ProductionExceptionHandler.Result.FAIL, handle(NODE_TOPIC, new RecordTooLargeException("big")));
        assertEquals(ProductionExceptionHandler.Result.FAIL, handle(NODE_TOPIC, new TimeoutException("Expiring 3 record(s)")));
        assertTrue(nodeTopics.exists(NODE_TOPIC));
    }
}
