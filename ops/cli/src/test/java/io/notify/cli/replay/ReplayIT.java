package io.notify.cli.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.notify.devstack.Infra;
import io.notify.devstack.NotifyInfraExtension;
import io.notify.protocol.event.EventClass;
import io.notify.schemas.topic.TopicCatalog;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.GroupListing;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** replay against the real broker: exact windows, the documented order, exact filters, CSV escaping. */
@ExtendWith(NotifyInfraExtension.class)
class ReplayIT {

    /** An hour ago, whole seconds: recent enough for retention, old enough that "now" is after every record. */
    private static final Instant T0 = Instant.now().minus(1, ChronoUnit.HOURS).truncatedTo(ChronoUnit.SECONDS);

    private record Sent(String id, int partition, long offset, long ts) {
    }

    /** 30 events over 3 partitions; records 2k and 2k+1 share timestamp T0 + k s, on different partitions. */
    private static List<Sent> thirtyEvents(Infra infra) throws Exception {
        String topic = infra.createTopic(TopicCatalog.of(infra.prefix()).events().name(), 3);
        List<Sent> sent = new ArrayList<>();
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
        long[] nextOffset = new long[3];
        for (int i = 0; i < 30; i++) {
            int p = i % 3;
            long ts = T0.toEpochMilli() + (i / 2) * 1000L;
            String id = "e-" + i;
            records.add(Produce.record(topic, p, ts, id, Produce.envelope(id, "order.shipped", EventClass.DURABLE,
                    Produce.data("i", Integer.toString(i)), "42")));
            sent.add(new Sent(id, p, nextOffset[p]++, ts));
        }
        Produce.all(infra, records);
        return sent;
    }

    private static List<String> ids(Cli.Result r) {
        return r.json().stream().map(n -> n.path("value").path("id").asText()).toList();
    }

    @Test
    void timeWindowIsExactAcrossPartitionsInTheDocumentedOrder(Infra infra) throws Exception {
        List<Sent> sent = thirtyEvents(infra);
        Instant from = T0.plusSeconds(5);
        Instant to = T0.plusSeconds(10);
        Cli.Result r = Cli.run(Cli.against(infra, "replay", "events", "--from", from.toString(), "--to", to.toString()));
        assertEquals(0, r.code(), r.err());
        // inclusive --from, exclusive --to; ordered by timestamp, then partition, then offset
        List<String> expected = sent.stream()
                .filter(s -> s.ts() >= from.toEpochMilli() && s.ts() < to.toEpochMilli())
                .sorted(Comparator.comparingLong(Sent::ts).thenComparingInt(Sent::partition).thenComparingLong(Sent::offset))
                .map(Sent::id).toList();
        assertEquals(10, expected.size());
        assertEquals(expected, ids(r));
        assertEquals(List.of("e-10", "e-11"), ids(r).subList(0, 2), "records at exactly --from are in");
        assertTrue(ids(r).stream().noneMatch(id -> id.equals("e-20") || id.equals("e-21")), "records at exactly --to are out");
        List<JsonNode> rows = r.json();
        for (int p = 0; p < 3; p++) {
            int partition = p;
            List<Long> offsets = rows.stream().filter(n -> n.path("partition").asInt() == partition)
                    .map(n -> n.path("offset").asLong()).toList();
            assertEquals(offsets.stream().sorted().toList(), offsets, "partition " + p + " in offset order");
        }
        assertEquals(from.toString().replace("Z", ".000Z"), rows.get(0).path("timestamp").asText());
        assertTrue(r.err().contains("replay: 10 records written"), r.err());
    }

    @Test
    void offsetsAndRelativeTimesAndLimits(Infra infra) throws Exception {
        thirtyEvents(infra);
        Cli.Result byOffset = Cli.run(Cli.against(infra, "replay", "notify.events", "--from-offset", "1:2", "--to-offset", "1:5"));
        assertEquals(0, byOffset.code(), byOffset.err());
        assertEquals(List.of("1:2", "1:3", "1:4"), byOffset.json().stream()
                .map(n -> n.path("partition").asText() + ":" + n.path("offset").asText()).toList());
        Cli.Result relative = Cli.run(Cli.against(infra, "replay", "events", "--from", "-2h", "--to", "now"));
        assertEquals(30, relative.lines().size(), relative.err());
        Cli.Result none = Cli.run(Cli.against(infra, "replay", "events", "--from", "-1m"));
        assertEquals(0, none.code());
        assertEquals("", none.out());
        Cli.Result limited = Cli.run(Cli.against(infra, "replay", "events", "--limit", "4", "--progress"));
        // e-2 (partition 2) and e-3 (partition 0) share a timestamp: the lower partition goes first
        assertEquals(List.of("e-0", "e-1", "e-3", "e-2"), ids(limited));
        assertTrue(limited.err().contains("%") && limited.err().contains("rec/s"), "progress goes to stderr: " + limited.err());
        assertEquals(4, limited.json().size(), "and never to stdout");
    }

    @Test
    void userTypeIdAndClassFiltersAreExact(Infra infra) throws Exception {
        TopicCatalog catalog = TopicCatalog.of(infra.prefix());
        String events = infra.createTopic(catalog.events().name(), 3);
        String log = infra.createTopic(catalog.streamLog().name(), 3);
        long t = T0.toEpochMilli();
        Produce.all(infra, List.of(
                Produce.record(events, 0, t, "a", Produce.envelope("a", "order.shipped", EventClass.DURABLE, null, "42")),
                Produce.record(events, 1, t + 1, "b", Produce.envelope("b", "order.shipped", EventClass.DURABLE, null, "43")),
                Produce.record(events, 2, t + 2, "c", Produce.envelope("c", "order.cancelled", EventClass.DURABLE, null, "43", "42")),
                Produce.record(events, 0, t + 3, "d", Produce.envelope("d", "order.shipped", EventClass.DURABLE, null, "420")),
                Produce.record(events, 1, t + 4, "e", Produce.envelope("e", "chat.typing", EventClass.EPHEMERAL, null, "42")),
                Produce.record(events, 2, t + 5, "f", Produce.envelope("f", "order.shippedX", EventClass.DURABLE, null, "4")),
                Produce.record(log, 0, t, "u:42", Produce.json(Produce.sequenced("42", 1, "a", "order.shipped", t))),
                Produce.record(log, 1, t + 1, "u:420", Produce.json(Produce.sequenced("420", 1, "d", "order.shipped", t))),
                Produce.record(log, 0, t + 2, "u:42", Produce.json(Produce.sequenced("42", 2, "c", "order.cancelled", t))),
                Produce.record(log, 2, t + 3, "u:4", Produce.json(Produce.sequenced("4", 1, "f", "order.shippedX", t)))));
        assertEquals(List.of("a", "c"), ids(Cli.run(Cli.against(infra, "replay", "events", "--user", "42", "--type", "order.*"))));
        assertEquals(List.of("a", "c", "e"), ids(Cli.run(Cli.against(infra, "replay", "events", "--user", "42"))));
        assertEquals(List.of("a", "b", "d"), ids(Cli.run(Cli.against(infra, "replay", "events", "--type", "order.shipped"))));
        assertEquals(List.of("a", "b", "d", "f"), ids(Cli.run(Cli.against(infra, "replay", "events", "--type", "order.ship*"))));
        assertEquals(List.of("e"), ids(Cli.run(Cli.against(infra, "replay", "events", "--class", "ephemeral"))));
        assertEquals(List.of("b", "f"), ids(Cli.run(Cli.against(infra, "replay", "events", "--id", "f", "--id", "b"))));
        Cli.Result user = Cli.run(Cli.against(infra, "replay", "stream-log", "--user", "42", "--format", "table"));
        assertEquals(3, user.lines().size(), user.out());
        assertTrue(user.lines().get(1).contains("u:42") && user.lines().get(1).contains(" 1 "), user.out());
        assertTrue(user.lines().get(2).contains("u:42") && user.lines().get(2).contains(" 2 "), user.out());
    }

    @Test
    void csvEscapesCommasQuotesAndNewlinesToAFile(Infra infra, @TempDir Path dir) throws Exception {
        String events = infra.createTopic(TopicCatalog.of(infra.prefix()).events().name(), 1);
        long t = T0.toEpochMilli();
        Produce.all(infra, List.of(Produce.record(events, 0, t, "x", Produce.envelope("x", "note.added", EventClass.DURABLE,
                Produce.data("text", "a, \"b\"\nc"), "42", "43"))));
        Path file = dir.resolve("out.csv");
        Cli.Result r = Cli.run(Cli.against(infra, "replay", "events", "--format", "csv", "--out", file.toString()));
        assertEquals(0, r.code(), r.err());
        assertEquals("", r.out());
        String ts = T0.toString().replace("Z", ".000Z");
        assertEquals("timestamp,partition,offset,id,type,class,users,occurredAt,source,collapseKey,data\r\n"
                + ts + ",0,0,x,note.added,durable,42;43,,orders,,\"{\"\"text\"\":\"\"a, \\\"\"b\\\"\"\\nc\"\"}\"\r\n",
                Files.readString(file));
    }

    @Test
    void readsCommittedRecordsOnlyAndJoinsNoConsumerGroup(Infra infra) throws Exception {
        String events = infra.createTopic(TopicCatalog.of(infra.prefix()).events().name(), 1);
        long t = T0.toEpochMilli();
        Map<String, Object> p = new HashMap<>();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, infra.bootstrapServers());
        p.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, infra.name("tx"));
        try (var producer = new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer())) {
            producer.initTransactions();
            producer.beginTransaction();
            producer.send(Produce.record(events, 0, t, "aborted", Produce.envelope("aborted", "order.shipped", EventClass.DURABLE, null, "42")));
            producer.abortTransaction();
            producer.beginTransaction();
            producer.send(Produce.record(events, 0, t + 1, "committed", Produce.envelope("committed", "order.shipped", EventClass.DURABLE, null, "42")));
            producer.commitTransaction();
        }
        Set<String> groupsBefore = groups(infra);
        Cli.Result r = Cli.run(Cli.against(infra, "replay", "events"));
        assertEquals(0, r.code(), r.err());
        assertEquals(List.of("committed"), ids(r));
        assertEquals(groupsBefore, groups(infra), "assign + seek: no consumer group appears");
    }

    private static Set<String> groups(Infra infra) throws Exception {
        return infra.adminClient().listGroups().all().get(10, TimeUnit.SECONDS).stream()
                .map(GroupListing::groupId).collect(Collectors.toSet());
    }

    @Test
    void missingTopicIsBadInputAndNothingIsWritten(Infra infra, @TempDir Path dir) {
        Path file = dir.resolve("never.jsonl");
        Cli.Result r = Cli.run(Cli.against(infra, "replay", "undelivered", "--out", file.toString()));
        assertEquals(2, r.code(), r.err());
        assertEquals(1, r.err().lines().count(), r.err());
        assertTrue(r.err().contains("topic '" + infra.prefix() + "notify.undelivered' does not exist"), r.err());
        assertTrue(Files.notExists(file));
    }
}
