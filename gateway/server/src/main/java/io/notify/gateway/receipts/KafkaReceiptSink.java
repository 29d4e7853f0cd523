package io.notify.gateway.receipts;

import io.notify.gateway.config.GatewayConfig;
import io.notify.protocol.inbox.Receipt;
import io.notify.protocol.prefs.UserPreferences;
import io.notify.protocol.push.PushChange;
import io.notify.protocol.stream.StreamId;
import io.notify.schemas.topic.Topic;
import io.notify.schemas.topic.TopicCatalog;
import java.time.Duration;
import java.util.Map;
import java.util.function.Supplier;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;

/**
 * The node's one producer of {@code notify.receipts} (key: the stream; value: the {@link Receipt}), on
 * its own thread {@code gateway-receipts}; the guarantees and bounds are {@link KafkaStreamSink}'s.
 */
public final class KafkaReceiptSink extends KafkaStreamSink<Receipt> implements ReceiptSink {

    /** @param producers makes the producer when the node starts (a node made and never started makes none) */
    public KafkaReceiptSink(Supplier<Producer<StreamId, Receipt>> producers, String topic, Duration closeTimeout) {
        super(producers, topic, Receipt::stream, closeTimeout, "gateway-receipts");
    }

    /** The sink of a node: its prefixed {@code notify.receipts}, its Kafka settings. */
    public static KafkaReceiptSink create(GatewayConfig config) {
        Topic<StreamId, Receipt> receipts = TopicCatalog.of(config.topicPrefix()).receipts();
        return new KafkaReceiptSink(() -> new KafkaProducer<>(producerProps(config), receipts.keySerde().serializer(),
                receipts.valueSerde().serializer()), receipts.name(), config.inbox().produceTimeout());
    }

    /** The node's producer of {@code notify.push-changes} (push registrations, docs/push.md), on its thread {@code gateway-push-changes}. */
    public static KafkaStreamSink<PushChange> pushChanges(GatewayConfig config) {
        Topic<StreamId, PushChange> changes = TopicCatalog.of(config.topicPrefix()).pushChanges();
        return new KafkaStreamSink<>(() -> new KafkaProducer<>(producerProps(config, "push-changes"), changes.keySerde().serializer(),
                changes.valueSerde().serializer()), changes.name(), PushChange::stream, config.inbox().produceTimeout(),
                "gateway-push-changes");
    }

    /** The node's producer of {@code notify.preferences} (users' preferences, docs/inbox.md), on its thread {@code gateway-preferences}. */
    public static KafkaStreamSink<UserPreferences> preferences(GatewayConfig config) {
        Topic<StreamId, UserPreferences> prefs = TopicCatalog.of(config.topicPrefix()).preferences();
        return new KafkaStreamSink<>(() -> new KafkaProducer<>(producerProps(config, "preferences"), prefs.keySerde().serializer(),
                prefs.valueSerde().serializer()), prefs.name(), UserPreferences::stream, config.inbox().produceTimeout(),
                "gateway-preferences");
    }

    static Map<String, Object> producerProps(GatewayConfig config) {
        return producerProps(config, "receipts");
    }
}
