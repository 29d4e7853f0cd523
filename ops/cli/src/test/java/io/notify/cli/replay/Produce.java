package io.notify.cli.replay;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.notify.devstack.Infra;
import io.notify.schemas.event.EventClass;
import io.notify.schemas.event.EventEnvelope;
import io.notify.schemas.event.Recipients;
import io.notify.schemas.inbox.InboxState;
import io.notify.schemas.inbox.Receipt;
import io.notify.schemas.serde.NotifySerdes;
import io.notify.schemas.stream.SequencedEvent;
import io.notify.schemas.stream.StreamId;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/** Writes test records with explicit partitions and timestamps, so windows and orders are exact. */
final class Produce {

    private Produce() {
    }

    static void all(Infra infra, List<ProducerRecord<byte[], byte[]>> records) throws Exception {
        Map<String, Object> p = new HashMap<>();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, infra.bootstrapServers());
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        p.put(ProducerConfig.LINGER_MS_CONFIG, 5);
        try (var producer = new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer())) {
            var futures = records.stream().map(producer::send).toList();
            producer.flush();
            for (var f : futures) {
                f.get(20, TimeUnit.SECONDS);
            }
        }
    }

    static ProducerRecord<byte[], byte[]> record(String topic, int partition, long ts, String key, byte[] value) {
        return new ProducerRecord<>(topic, partition, ts, key == null ? null : key.getBytes(StandardCharsets.UTF_8), value);
    }

    static byte[] envelope(String id, String type, EventClass c, ObjectNode data, String... users) {
        return NotifySerdes.eventEnvelope().serializer().serialize("t",
                new EventEnvelope(id, type, Recipients.users(users), c, data, null, null, "orders"));
    }

    static SequencedEvent sequenced(String user, long seq, String id, String type, long at) {
        return new SequencedEvent(StreamId.forUser(user), "ep1", seq, id, type, data("n", Long.toString(seq)), null, "orders",
                at, at + 1);
    }

    static byte[] json(SequencedEvent e) {
        return NotifySerdes.sequencedEvent().serializer().serialize("t", e);
    }

    static byte[] json(Receipt r) {
        return NotifySerdes.receipt().serializer().serialize("t", r);
    }

    static byte[] json(InboxState s) {
        return NotifySerdes.inboxState().serializer().serialize("t", s);
    }

    static ObjectNode data(String key, String value) {
        return JsonNodeFactory.instance.objectNode().put(key, value);
    }
}
