package io.notify.fanout.routing;

import io.notify.protocol.stream.DeliveryMessage;
import io.notify.protocol.stream.Endpoints;
import io.notify.protocol.stream.UndeliveredEvent;
import io.notify.schemas.serde.NotifySerdes;
import io.notify.schemas.topic.TopicCatalog;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;

/** What the router emits for one event: deliveries to nodes, or one undelivered record. */
public sealed interface Routed permits Routed.NodeDelivery, Routed.AllNodes, Routed.Undelivered {

    /** A DeliveryMessage bound for {@code notify.all-nodes}, which every gateway node reads (b:all, hot rooms). */
    record AllNodes(DeliveryMessage message) implements Routed {
    }

    /**
     * A DeliveryMessage bound for node {@code nodeId}'s topic. The node id picks the topic
     * ({@code TopicNameExtractor}) and is not written: the topic name already says it.
     */
    record NodeDelivery(String nodeId, DeliveryMessage message) implements Routed {

        public NodeDelivery {
            Endpoints.requireNodeId(nodeId);
        }

        /**
         * Writes just the DeliveryMessage JSON (the node topics' format); reading recovers the node
         * id from the topic name, so the pair round-trips.
         */
        public static Serde<NodeDelivery> serde(TopicCatalog topics) {
            Serde<DeliveryMessage> json = NotifySerdes.deliveryMessage();
            return Serdes.serdeFrom(
                    (topic, d) -> d == null ? null : json.serializer().serialize(topic, d.message()),
                    (topic, bytes) -> {
                        if (bytes == null) {
                            return null;
                        }
                        String node = topics.nodeIdOf(topic).orElseThrow(() -> new SerializationException(
                                "topic '" + topic + "' is not a node topic of " + topics));
                        return new NodeDelivery(node, json.deserializer().deserialize(topic, bytes));
                    });
        }
    }

    /** An event that reached no live connection of its stream's user. */
    record Undelivered(UndeliveredEvent event) implements Routed {
    }
}
