package io.notify.fanout.routing;

import io.notify.fanout.metrics.FanoutMetrics;
import io.notify.schemas.topic.TopicCatalog;
import java.util.Map;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.streams.errors.ErrorHandlerContext;
import org.apache.kafka.streams.errors.ProductionExceptionHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The safety net behind {@link NodeTopics}: when a write to a gateway node topic fails because
 * the topic does not exist (a node topic deleted after the directory last saw it), the record is
 * skipped, counted ({@code notify_fanout_node_topic_missing_total{stage="produce"}}) and the topic
 * is marked missing so the router stops choosing it. Every other failure, and every failure on
 * any other topic, fails the task as Kafka Streams' default handler does: nothing but a
 * delivery hint for a vanished node may be dropped.
 *
 * <p>Under at_least_once the skip is the whole story. Under exactly_once_v2 the producer has
 * already marked the transaction abortable, so the task is rolled back and its records replayed;
 * on the replay the router skips the now-missing topic, so the app heals instead of looping.
 *
 * <p>Kafka Streams instantiates the class; {@link #configure} takes the shared {@link NodeTopics}
 * and {@link FanoutMetrics} from the config map under {@link #NODE_TOPICS} and {@link #METRICS}.
 */
public final class MissingNodeTopicHandler implements ProductionExceptionHandler {

    public static final String NODE_TOPICS = "notify.fanout.internal.node-topics";
    public static final String METRICS = "notify.fanout.internal.metrics";
    public static final String TOPIC_PREFIX = "notify.fanout.internal.topic-prefix";

    private static final Logger LOG = LoggerFactory.getLogger(MissingNodeTopicHandler.class);

    private NodeTopics nodeTopics = NodeTopics.assumeAll();
    private FanoutMetrics metrics = FanoutMetrics.inMemory();
    private TopicCatalog topics = TopicCatalog.production();

    @Override
    public void configure(Map<String, ?> configs) {
        if (configs.get(NODE_TOPICS) instanceof NodeTopics n) {
            nodeTopics = n;
        }
        if (configs.get(METRICS) instanceof FanoutMetrics m) {
            metrics = m;
        }
        if (configs.get(TOPIC_PREFIX) instanceof String prefix) {
            topics = TopicCatalog.of(prefix);
        }
    }

    @Override
    public Response handleError(ErrorHandlerContext context, ProducerRecord<byte[], byte[]> record, Exception exception) {
        if (topics.nodeIdOf(record.topic()).isPresent() && isMissingTopic(exception)) {
            nodeTopics.markMissing(record.topic());
            metrics.nodeTopicMissing("produce");
            LOG.warn("node topic {} does not exist; skipped a delivery to it and marked it missing", record.topic());
            return Response.resume();
        }
        return Response.fail();
    }

    /** The producer reports a missing topic as UnknownTopicOrPartition, or as a metadata timeout caused by it. */
    static boolean isMissingTopic(Throwable e) {
        if (e instanceof UnknownTopicOrPartitionException) {
            return true;
        }
        if (e instanceof TimeoutException) {
            String message = String.valueOf(e.getMessage());
            return e.getCause() instanceof UnknownTopicOrPartitionException || message.contains("not present in metadata");
        }
        return false;
    }
}
