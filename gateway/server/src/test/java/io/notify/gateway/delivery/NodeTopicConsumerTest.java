package io.notify.gateway.delivery;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.notify.gateway.metrics.GatewayMetrics;
import io.notify.protocol.stream.DeliveryMessage;
import io.notify.protocol.stream.LiveEvent;
import io.notify.protocol.stream.StreamId;
import io.notify.schemas.serde.NotifySerdes;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

class NodeTopicConsumerTest {

    private final GatewayMetrics metrics = new GatewayMetrics(new SimpleMeterRegistry());

    @Test
    void aRecordWhoseDispatchFailsIsCountedAndSkippedLikeAnUnreadableOne() {
        // no session table: the dispatch of any readable message throws, as a bug of ours would
        NodeTopicConsumer consumer = new NodeTopicConsumer(List.of(), Map.of(), 1, new Dispatcher(null, metrics), metrics);
        StreamId u = StreamId.forUser("42");
        LiveEvent event = new LiveEvent(u, "ev-1", "typing", null, null, null, "test", System.currentTimeMillis());
        byte[] readable = NotifySerdes.deliveryMessage().serializer().serialize("t", DeliveryMessage.toAll(event, 1L));

        consumer.handle(new ConsumerRecord<>("t", 0, 0L, null, readable), 0);
        consumer.handle(new ConsumerRecord<>("t", 0, 1L, null, "{not json".getBytes(StandardCharsets.UTF_8)), 0);

        assertEquals(1.0, metrics.count("notify.gateway.delivery.messages", "outcome", "dispatch_failed"));
        assertEquals(1.0, metrics.count("notify.gateway.delivery.messages", "outcome", "poison"));
    }
}
