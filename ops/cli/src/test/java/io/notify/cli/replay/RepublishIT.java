package io.notify.cli.replay;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.notify.devstack.Infra;
import io.notify.devstack.NotifyInfraExtension;
import io.notify.protocol.event.EventClass;
import io.notify.protocol.event.EventEnvelope;
import io.notify.schemas.serde.NotifySerdes;
import io.notify.schemas.topic.TopicCatalog;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** --republish-to: exactly the selected records, new ids into events, copies elsewhere, never into the source. */
@ExtendWith(NotifyInfraExtension.class)
class RepublishIT {

    private static final long T = Instant.now().minus(30, ChronoUnit.MINUTES).toEpochMilli();

    /** Everything on {@code topic} up to its end offsets now (read_committed, no group). */
    private static List<ConsumerRecord<byte[], byte[]>> readAll(Infra infra, String topic) {
        List<ConsumerRecord<byte[], byte[]>> out = new ArrayList<>();
        try (Consumer<byte[], byte[]> c = KafkaClients.consumer(infra.bootstrapServers(), Map.of())) {
            List<TopicPartition> parts = KafkaClients.partitions(c, topic, Duration.ofSeconds(10));
            Map<TopicPartition, Long> end = c.endOffsets(parts);
            c.assign(parts);
            c.seekToBeginning(parts);
            long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
            while (parts.stream().anyMatch(tp -> c.position(tp) < end.get(tp)) && System.nanoTime() < deadline) {
                c.poll(Duration.ofMillis(100)).forEach(out::add);
            }
        }
        return out;
    }

    @Test
    void streamLogBackIntoEventsWithDerivedIds(Infra infra) throws Exception {
        TopicCatalog catalog = TopicCatalog.of(infra.prefix());
        String log = infra.createTopic(catalog.streamLog().name(), 3);
        String events = infra.createTopic(catalog.events().name(), 3);
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
        for (int seq = 1; seq <= 5; seq++) {
            records.add(Produce.record(log, seq % 3, T + seq, "u:42", Produce.json(Produce.sequenced("42", seq, "o-" + seq, "order.shipped", T))));
        }
        for (int seq = 1; seq <= 3; seq++) {
            records.add(Produce.record(log, 0, T + seq, "u:43", Produce.json(Produce.sequenced("43", seq, "o-" + seq, "order.shipped", T))));
        }
        Produce.all(infra, records);

        Cli.Result r = Cli.run(Cli.against(infra, "replay", "stream-log", "--user", "42", "--republish-to", "events"));
        assertEquals(0, r.code(), r.err());
        assertEquals("republished 5 records from " + log + " to " + events + "\n", r.out());

        List<ConsumerRecord<byte[], byte[]>> written = readAll(infra, events);
        assertEquals(5, written.size());
        Set<String> ids = written.stream().map(w -> {
            EventEnvelope e = NotifySerdes.eventEnvelope().deserializer().deserialize(events, w.value());
            assertEquals(e.recordKey(), new String(w.key(), StandardCharsets.UTF_8), "keyed by the recipient, as producers are");
            assertEquals(List.of("42"), e.to().users());
            assertEquals(EventClass.DURABLE, e.eventClass());
            String original = new String(w.headers().lastHeader(Republisher.ORIGINAL_ID_HEADER).value(), StandardCharsets.UTF_8);
            assertEquals(RepublishIds.derive(original, "u:42", 1), e.id());
            return e.id();
        }).collect(Collectors.toSet());
        assertEquals(5, ids.size());

        Cli.Result same = Cli.run(Cli.against(infra, "replay", "events", "--republish-to", "notify.events"));
        assertEquals(2, same.code());
        assertTrue(same.err().contains("refusing to write into " + events + ", the topic being read"), same.err());
        assertEquals(5, readAll(infra, events).size(), "nothing was written");
    }

    @Test
    void selectedEventsAreCopiedByteForByteIntoAnotherTopic(Infra infra) throws Exception {
        String events = infra.createTopic(TopicCatalog.of(infra.prefix()).events().name(), 3);
        String backfill = infra.createTopic(infra.name("backfill"), 2);
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            String type = i % 4 == 0 ? "chat.message" : "order.shipped";
            records.add(Produce.record(events, i % 3, T + i, "id-" + i, Produce.envelope("id-" + i, type, EventClass.DURABLE, null, "42")));
        }
        Produce.all(infra, records);
        Cli.Result r = Cli.run(Cli.against(infra, "replay", "events", "--type", "order.*", "--republish-to", backfill));
        assertEquals(0, r.code(), r.err());
        assertEquals("republished 15 records from " + events + " to " + backfill + "\n", r.out());
        List<ConsumerRecord<byte[], byte[]>> copies = readAll(infra, backfill);
        assertEquals(15, copies.size());
        for (ConsumerRecord<byte[], byte[]> c : copies) {
            String id = new String(c.key(), StandardCharsets.UTF_8);
            int i = Integer.parseInt(id.substring(3));
            assertArrayEquals(records.get(i).value(), c.value(), id);
            assertTrue(new String(c.headers().lastHeader(Republisher.SOURCE_HEADER).value(), StandardCharsets.UTF_8)
                    .startsWith(events + ":" + (i % 3) + ":"));
        }

        Cli.Result missing = Cli.run(Cli.against(infra, "replay", "events", "--republish-to", infra.name("nope")));
        assertEquals(2, missing.code());
        assertTrue(missing.err().contains("does not exist; create it first"), missing.err());
    }

    @Test
    void fallbackBackIntoEventsToItsUserWithoutTheFallback(Infra infra) throws Exception {
        TopicCatalog catalog = TopicCatalog.of(infra.prefix());
        String fallback = infra.createTopic(catalog.fallback().name(), 3);
        String events = infra.createTopic(catalog.events().name(), 3);
        Produce.all(infra, List.of(
                Produce.record(fallback, 2, T, "u:42", Produce.json(Produce.fallback(Produce.withFallback("42", 7, "o-7", T), 5))),
                Produce.record(fallback, 0, T + 1, "u:43", Produce.json(Produce.fallback(Produce.withFallback("43", 1, "o-1", T), 5)))));

        Cli.Result r = Cli.run(Cli.against(infra, "replay", "fallback", "--user", "42", "--republish-to", "events"));
        assertEquals(0, r.code(), r.err());
        assertEquals("republished 1 records from " + fallback + " to " + events + "\n", r.out());
        List<ConsumerRecord<byte[], byte[]>> written = readAll(infra, events);
        assertEquals(1, written.size());
        EventEnvelope e = NotifySerdes.eventEnvelope().deserializer().deserialize(events, written.get(0).value());
        assertEquals(RepublishIds.derive("o-7", "u:42", 1), e.id());
        assertEquals(List.of("42"), e.to().users());
        assertNull(e.fallback(), "the fallback was decided once; a re-send does not ask again");
        assertEquals("o-7", new String(written.get(0).headers().lastHeader(Republisher.ORIGINAL_ID_HEADER).value(),
                StandardCharsets.UTF_8));
    }
}
