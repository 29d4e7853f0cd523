package io.notify.fanout.routing;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Which gateway node topics exist. The router asks before writing to a node topic because, in
 * Kafka Streams 4.4, a record sent to a topic that does not exist blocks the stream thread for
 * {@code max.block.ms} waiting for metadata and then fails with a TimeoutException; under
 * exactly_once_v2 the producer also turns that failure into an abortable transaction error, so
 * even a production handler answering "continue" cannot save the transaction: the task is
 * rolled back and the record replayed (see README "Missing node topics").
 *
 * <p>Implementations answer from memory or within a short bounded wait, never throw, and are
 * thread-safe (all stream threads share one).
 */
public interface NodeTopics {

    /** True when {@code topic} is believed to exist. */
    boolean exists(String topic);

    /** Tells the directory a write to {@code topic} failed because it does not exist. */
    void markMissing(String topic);

    /** A directory that believes every topic exists: for tests and clusters that auto-create topics. */
    static NodeTopics assumeAll() {
        return new NodeTopics() {
            @Override
            public boolean exists(String topic) {
                return true;
            }

            @Override
            public void markMissing(String topic) {
            }
        };
    }

    /** A directory holding exactly the given topics; {@link #markMissing} removes one. For tests. */
    static NodeTopics of(Set<String> topics) {
        Set<String> known = ConcurrentHashMap.newKeySet();
        known.addAll(topics);
        return new NodeTopics() {
            @Override
            public boolean exists(String topic) {
                return known.contains(topic);
            }

            @Override
            public void markMissing(String topic) {
                known.remove(topic);
            }
        };
    }
}
