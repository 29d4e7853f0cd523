package io.notify.cli.replay;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.notify.devstack.Infra;
import io.notify.protocol.event.EventClass;
import io.notify.protocol.event.EventEnvelope;
import io.notify.protocol.event.Fallback;
import io.notify.protocol.event.Recipients;
import io.notify.protocol.inbox.FallbackRecord;
import io.notify.protocol.inbox.InboxState;
import io.notify.protocol.inbox.Receipt;
import io.notify.protocol.prefs.UserPreferences;
import io.notify.protocol.push.PushChange;
import io.notify.protocol.push.PushOutcome;
import io.notify.protocol.push.PushRegistration;
import io.notify.protocol.push.PushRegistrations;
import io.notify.protocol.stream.SequencedEvent;
import io.notify.protocol.stream.StreamId;
import io.notify.schemas.serde.NotifySerdes;
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
public final class Produce {

    private Produce() {
    }

    public static void all(Infra infra, List<ProducerRecord<byte[], byte[]>> records) throws Exception {
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

    public static ProducerRecord<byte[], byte[]> record(String topic, int partition, long ts, String key, byte[] value) {
        return new ProducerRecord<>(topic, partition, ts, key == null ? null : key.getBytes(StandardCharsets.UTF_8), value);
    }

    public static byte[] envelope(String id, String type, EventClass c, ObjectNode data, String... users) {
        return NotifySerdes.eventEnvelope().serializer().serialize("t",
                new EventEnvelope(id, type, Recipients.users(users), c, data, null, null, "orders"));
    }

    public static SequencedEvent sequenced(String user, long seq, String id, String type, long at) {
        return new SequencedEvent(StreamId.forUser(user), "ep1", seq, id, type, data("n", Long.toString(seq)), null, "orders",
                at, at + 1);
    }

    public static byte[] json(SequencedEvent e) {
        return NotifySerdes.sequencedEvent().serializer().serialize("t", e);
    }

    public static byte[] json(Receipt r) {
        return NotifySerdes.receipt().serializer().serialize("t", r);
    }

    public static byte[] json(InboxState s) {
        return NotifySerdes.inboxState().serializer().serialize("t", s);
    }

    public static byte[] json(FallbackRecord f) {
        return NotifySerdes.fallbackRecord().serializer().serialize("t", f);
    }

    /** A user's event that asked for a push fallback after 2 minutes, sequenced at {@code at + 1}. */
    public static SequencedEvent withFallback(String user, long seq, String id, long at) {
        return new SequencedEvent(StreamId.forUser(user), "ep1", seq, id, "order.shipped", data("n", Long.toString(seq)), null,
                "orders", at, at + 1, new Fallback("2m", "push"), null);
    }

    /** The fallback record fan-out writes for {@code event}, {@code lateMs} after it was due, with one device that acked seq 1. */
    public static FallbackRecord fallback(SequencedEvent event, long lateMs) {
        long due = event.sequencedAt() + event.fallback().delay().toMillis();
        return new FallbackRecord(event.stream().value(), event.stream().userId(), "push", FallbackRecord.Reason.NO_ACK, event,
                List.of(new FallbackRecord.Device("phone-1", 1, event.sequencedAt() - 5000)), due, due + lateMs);
    }

    public static byte[] json(PushOutcome o) {
        return NotifySerdes.pushOutcome().serializer().serialize("t", o);
    }

    public static byte[] json(PushChange c) {
        return NotifySerdes.pushChange().serializer().serialize("t", c);
    }

    public static byte[] json(PushRegistrations r) {
        return NotifySerdes.pushRegistrations().serializer().serialize("t", r);
    }

    public static byte[] json(UserPreferences p) {
        return NotifySerdes.userPreferences().serializer().serialize("t", p);
    }

    /** An FCM registration with a fixed id ({@code pr_} and 22 characters from {@code name}), created at {@code at}. */
    public static PushRegistration fcm(String name, long at) {
        String id = "pr_" + (name + "_".repeat(22)).substring(0, 22);
        return new PushRegistration(id, null, new PushRegistration.Fcm("token-" + name), null, at);
    }

    /** The fallback record of {@code fallback(event, lateMs)} as fan-out writes it for channel push, with {@code push}. */
    public static FallbackRecord pushFallback(SequencedEvent event, long lateMs, List<PushRegistration> push) {
        FallbackRecord f = fallback(event, lateMs);
        return new FallbackRecord(f.stream(), f.userId(), f.channel(), f.reason(), f.event(), f.devices(), f.dueAt(), f.at(), push);
    }

    public static ObjectNode data(String key, String value) {
        return JsonNodeFactory.instance.objectNode().put(key, value);
    }
}
