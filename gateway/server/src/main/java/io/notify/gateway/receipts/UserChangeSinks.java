package io.notify.gateway.receipts;

import io.notify.gateway.config.GatewayConfig;
import io.notify.protocol.prefs.UserPreferences;
import io.notify.protocol.push.PushChange;

/**
 * The node's producers of what users change about themselves besides receipts: push registrations
 * ({@code notify.push-changes}) and preferences ({@code notify.preferences}). Started and closed with
 * the node.
 */
public record UserChangeSinks(KafkaStreamSink<PushChange> pushChanges, KafkaStreamSink<UserPreferences> preferences) {

    /** The sinks of a node: its prefixed topics, its Kafka settings. */
    public static UserChangeSinks create(GatewayConfig config) {
        return new UserChangeSinks(KafkaReceiptSink.pushChanges(config), KafkaReceiptSink.preferences(config));
    }

    public void start() {
        pushChanges.start();
        preferences.start();
    }

    public void close() {
        pushChanges.close();
        preferences.close();
    }
}
