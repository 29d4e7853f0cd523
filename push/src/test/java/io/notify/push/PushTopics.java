package io.notify.push;

import io.notify.devstack.Infra;
import io.notify.protocol.inbox.FallbackRecord;
import io.notify.protocol.push.PushRegistration;
import io.notify.protocol.stream.SequencedEvent;
import io.notify.protocol.stream.StreamId;
import io.notify.schemas.topic.TopicCatalog;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/** The push sender's topics under a test's prefix: made, written to (fallbacks) and read back (outcomes, changes, the DLQ). */
public final class PushTopics {

    public final Infra infra;
    public final TopicCatalog topics;

    public PushTopics(Infra infra) {
        this.infra = infra;
        this.topics = TopicCatalog.of(infra.prefix());
        infra.createTopic(topics.fallback().name(), 2);
        infra.createTopic(topics.pushOutcomes().name(), 1);
        infra.createTopic(topics.pushChanges().name(), 1);
        infra.createTopic(topics.pushDlq().name(), 1);
    }

    /** The sender's settings against this broker and prefix: Web Push with {@code vapid}, fast retries. */
    public Map<String, String> settings(io.notify.push.webpush.VapidKeys vapid) {
        Map<String, String> s = new HashMap<>();
        s.put("notify.kafka.bootstrap-servers", infra.bootstrapServers());
        s.put("notify.topic-prefix", infra.prefix());
        s.put("notify.push.management-port", "0");
        s.put("notify.push.initial-backoff", "50ms");
        s.put("notify.push.max-backoff", "200ms");
        s.put("notify.push.rebalance-wait", "5s");
        s.put("notify.push.webpush.subject", "mailto:ops@example.com");
        s.put("notify.push.webpush.vapid-public-key", vapid.publicKeyBase64Url());
        s.put("notify.push.webpush.vapid-private-key", vapid.privateKeyBase64Url());
        s.put("notify.push.webpush.allow-insecure-endpoints", "true");
        return s;
    }

    /** A user's durable event that asked for a push fallback, as fanout-streams writes it, carrying {@code push}. */
    public static FallbackRecord fallback(String user, String id, long seq, String channel, List<PushRegistration> push) {
        return fallback(user, id, seq, channel, push, System.currentTimeMillis());
    }

    /** As above, due at {@code dueAt} (epoch ms). */
    public static FallbackRecord fallback(String user, String id, long seq, String channel, List<PushRegistration> push, long dueAt) {
        StreamId stream = StreamId.forUser(user);
        var data = io.notify.protocol.NotifyJson.mapper().createObjectNode().put("title", "Order " + id + " shipped").put("n", seq);
        SequencedEvent e = new SequencedEvent(stream, "e1", seq, id, "order.shipped", data, null, "orders", 1, 2,
                new io.notify.protocol.event.Fallback("10s", channel), null);
        return new FallbackRecord(stream.value(), user, channel, FallbackRecord.Reason.NO_DEVICE, e, List.of(), dueAt, dueAt, push);
    }

    public void send(FallbackRecord... records) {
        try (KafkaProducer<StreamId, FallbackRecord> p = new KafkaProducer<>(io.notify.common.config.PlatformSettings.kafkaProps(
                infra.bootstrapServers(), Map.of()), topics.fallback().keySerde().serializer(), topics.fallback().valueSerde().serializer())) {
            for (FallbackRecord r : records) {
                p.send(new ProducerRecord<>(topics.fallback().name(), StreamId.parse(r.stream()), r));
            }
            p.flush();
        }
    }

    /** Every record of {@code topic} so far, waiting until at least {@code atLeast} are there. */
    public List<ConsumerRecord<byte[], byte[]>> read(String topic, int atLeast, Duration timeout) {
        Map<String, Object> p = io.notify.common.config.PlatformSettings.kafkaProps(infra.bootstrapServers(), Map.of());
        p.put(ConsumerConfig.GROUP_ID_CONFIG, "reader-" + UUID.randomUUID());
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        List<ConsumerRecord<byte[], byte[]>> out = new ArrayList<>();
        long deadline = System.nanoTime() + timeout.toNanos();
        try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            c.subscribe(List.of(topic));
            while (out.size() < atLeast && System.nanoTime() < deadline) {
                c.poll(Duration.ofMillis(200)).forEach(out::add);
            }
        }
        if (out.size() < atLeast) {
            throw new AssertionError("only " + out.size() + " of " + atLeast + " records on " + topic + " within " + timeout);
        }
        return out;
    }
}
