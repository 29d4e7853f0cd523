package io.notify.cli.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.notify.devstack.Infra;
import io.notify.devstack.NotifyInfraExtension;
import io.notify.protocol.event.EventClass;
import io.notify.protocol.inbox.FallbackRecord;
import io.notify.protocol.inbox.InboxState;
import io.notify.protocol.inbox.Marks;
import io.notify.protocol.inbox.Receipt;
import io.notify.protocol.inbox.ReceiptKind;
import io.notify.protocol.prefs.Channels;
import io.notify.protocol.prefs.Preferences;
import io.notify.protocol.prefs.QuietHours;
import io.notify.protocol.prefs.UserPreferences;
import io.notify.protocol.push.PushChange;
import io.notify.protocol.push.PushOutcome;
import io.notify.protocol.push.PushRegistration;
import io.notify.protocol.push.PushRegistrations;
import io.notify.protocol.stream.StreamId;
import io.notify.schemas.topic.DlqFailure;
import io.notify.schemas.topic.TopicCatalog;
import java.nio.charset.StandardCharsets;
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
import org.apache.kafka.common.header.internals.RecordHeaders;
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

    private static String[] args(Infra infra, String... more) {
        List<String> all = new ArrayList<>(List.of(more));
        all.addAll(List.of("--bootstrap-servers", infra.bootstrapServers(), "--topic-prefix", infra.prefix()));
        return all.toArray(String[]::new);
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
        Cli.Result r = Cli.run(args(infra, "replay", "events", "--from", from.toString(), "--to", to.toString()));
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
        Cli.Result byOffset = Cli.run(args(infra, "replay", "notify.events", "--from-offset", "1:2", "--to-offset", "1:5"));
        assertEquals(0, byOffset.code(), byOffset.err());
        assertEquals(List.of("1:2", "1:3", "1:4"), byOffset.json().stream()
                .map(n -> n.path("partition").asText() + ":" + n.path("offset").asText()).toList());
        Cli.Result relative = Cli.run(args(infra, "replay", "events", "--from", "-2h", "--to", "now"));
        assertEquals(30, relative.lines().size(), relative.err());
        Cli.Result none = Cli.run(args(infra, "replay", "events", "--from", "-1m"));
        assertEquals(0, none.code());
        assertEquals("", none.out());
        Cli.Result limited = Cli.run(args(infra, "replay", "events", "--limit", "4", "--progress"));
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
        assertEquals(List.of("a", "c"), ids(Cli.run(args(infra, "replay", "events", "--user", "42", "--type", "order.*"))));
        assertEquals(List.of("a", "c", "e"), ids(Cli.run(args(infra, "replay", "events", "--user", "42"))));
        assertEquals(List.of("a", "b", "d"), ids(Cli.run(args(infra, "replay", "events", "--type", "order.shipped"))));
        assertEquals(List.of("a", "b", "d", "f"), ids(Cli.run(args(infra, "replay", "events", "--type", "order.ship*"))));
        assertEquals(List.of("e"), ids(Cli.run(args(infra, "replay", "events", "--class", "ephemeral"))));
        assertEquals(List.of("b", "f"), ids(Cli.run(args(infra, "replay", "events", "--id", "f", "--id", "b"))));
        Cli.Result user = Cli.run(args(infra, "replay", "stream-log", "--user", "42", "--format", "table"));
        assertEquals(3, user.lines().size(), user.out());
        assertTrue(user.lines().get(1).contains("u:42") && user.lines().get(1).contains(" 1 "), user.out());
        assertTrue(user.lines().get(2).contains("u:42") && user.lines().get(2).contains(" 2 "), user.out());
    }

    @Test
    void receiptsAndInboxStateInEveryFormatFilteredByUserIdAndTime(Infra infra) throws Exception {
        TopicCatalog catalog = TopicCatalog.of(infra.prefix());
        String receipts = infra.createTopic(catalog.receipts().name(), 3);
        String states = infra.createTopic(catalog.inboxState().name(), 3, Map.of("cleanup.policy", "compact"));
        long t = T0.toEpochMilli();
        StreamId u42 = StreamId.forUser("42");
        StreamId u43 = StreamId.forUser("43");
        byte[] ack = Produce.json(Receipt.ack(u42, "ep1", 20, "phone-1", t));
        byte[] read = Produce.json(Receipt.markIds(u42, ReceiptKind.READ, "ep1", List.of("ord-1:shipped", "ord-2"), "phone-1", t + 1));
        byte[] state = Produce.json(new InboxState(u42, "ep1", null, new Marks(17, List.of(19L)), null,
                Map.of("phone-1", new InboxState.DeviceReceipt(20, t)), 2, t + 1));
        Produce.all(infra, List.of(
                Produce.record(receipts, 0, t, "u:42", ack),
                Produce.record(receipts, 0, t + 1, "u:42", read),
                Produce.record(receipts, 1, t + 2, "u:43", Produce.json(Receipt.markUpTo(u43, ReceiptKind.SEEN, "ep1", 5, null, t + 2))),
                Produce.record(receipts, 2, t + 3, "u:420", Produce.json(Receipt.ack(StreamId.forUser("420"), "ep1", 3, "laptop", t + 3))),
                Produce.record(states, 0, t + 1, "u:42", state),
                Produce.record(states, 1, t + 2, "u:43", Produce.json(InboxState.empty(u43, "ep1")))));

        Cli.Result all = Cli.run(args(infra, "replay", "receipts"));
        assertEquals(0, all.code(), all.err());
        assertEquals(4, all.lines().size(), all.out());
        assertTrue(all.lines().get(0).endsWith(",\"key\":\"u:42\",\"value\":" + new String(ack, StandardCharsets.UTF_8) + "}"),
                "the value byte for byte: " + all.lines().get(0));
        Cli.Result user = Cli.run(args(infra, "replay", "receipts", "--user", "42"));
        assertEquals(List.of("ack", "read"), user.json().stream().map(n -> n.path("value").path("kind").asText()).toList());
        Cli.Result id = Cli.run(args(infra, "replay", "notify.receipts", "--id", "ord-2", "--format", "csv"));
        String ts = T0.toString().replace("Z", ".000Z");
        String at = T0.toString().replace("Z", ".001Z");
        assertEquals("timestamp,partition,offset,stream,kind,epoch,upTo,ids,device,at\r\n"
                + at + ",0,1,u:42,read,ep1,,ord-1:shipped;ord-2,phone-1," + at + "\r\n", id.out(), id.err());
        Cli.Result window = Cli.run(args(infra, "replay", "receipts", "--from", T0.plusMillis(1).toString(),
                "--to", T0.plusMillis(3).toString()));
        assertEquals(List.of("u:42", "u:43"), window.json().stream().map(n -> n.path("key").asText()).toList());

        Cli.Result stateJson = Cli.run(args(infra, "replay", "inbox-state", "--user", "42"));
        assertEquals(1, stateJson.lines().size(), stateJson.out());
        assertTrue(stateJson.lines().get(0).endsWith("\"value\":" + new String(state, StandardCharsets.UTF_8) + "}"), stateJson.out());
        Cli.Result stateCsv = Cli.run(args(infra, "replay", "inbox-state", "--user", "42", "--format", "csv"));
        assertEquals("timestamp,partition,offset,stream,epoch,seen.upTo,seen.seqs,read.upTo,read.seqs,archived.upTo,archived.seqs,"
                + "devices,version,updatedAt\r\n" + at + ",0,0,u:42,ep1,0,,17,19,0,,phone-1:20,2," + at + "\r\n",
                stateCsv.out(), stateCsv.err());
        Cli.Result table = Cli.run(args(infra, "replay", "inbox-state", "--format", "table"));
        assertEquals(3, table.lines().size(), table.out());
        assertTrue(table.lines().get(0).startsWith("TIME") && table.lines().get(0).endsWith("DEVICES"), table.out());
        assertTrue(table.lines().get(1).contains("u:42") && table.lines().get(1).contains("17 +19"), table.out());
        assertTrue(table.lines().get(2).contains("u:43") && table.lines().get(2).contains(ts.substring(0, 19)), table.out());
    }

    @Test
    void fallbackInEveryFormatFilteredByUserIdTypeAndClass(Infra infra) throws Exception {
        String topic = infra.createTopic(TopicCatalog.of(infra.prefix()).fallback().name(), 3);
        long t = T0.toEpochMilli();
        FallbackRecord first = Produce.fallback(Produce.withFallback("42", 1, "ord-1:shipped", t), 357);
        FallbackRecord second = Produce.fallback(Produce.withFallback("42", 2, "ord-2:shipped", t + 1), 12);
        FallbackRecord other = Produce.fallback(Produce.withFallback("43", 1, "ord-1:shipped", t), 40);
        byte[] firstJson = Produce.json(first);
        Produce.all(infra, List.of(
                Produce.record(topic, 2, first.at(), "u:42", firstJson),
                Produce.record(topic, 2, second.at(), "u:42", Produce.json(second)),
                Produce.record(topic, 0, other.at(), "u:43", Produce.json(other))));

        Cli.Result user = Cli.run(args(infra, "replay", "fallback", "--user", "42"));
        assertEquals(0, user.code(), user.err());
        assertEquals(2, user.lines().size(), user.out());
        assertTrue(user.lines().get(0).endsWith("\"key\":\"u:42\",\"value\":" + new String(firstJson, StandardCharsets.UTF_8) + "}"),
                "the value byte for byte: " + user.lines().get(0));
        Cli.Result id = Cli.run(args(infra, "replay", "notify.fallback", "--id", "ord-1:shipped", "--format", "csv"));
        assertEquals(List.of("timestamp,partition,offset,stream,channel,reason,id,type,epoch,seq,devices,dueAt,at,lateness",
                        rfc3339(other.at()) + ",0,0,u:43,push,no_ack,ord-1:shipped,order.shipped,ep1,1,phone-1:1,"
                                + rfc3339(other.dueAt()) + "," + rfc3339(other.at()) + ",40",
                        rfc3339(first.at()) + ",2,0,u:42,push,no_ack,ord-1:shipped,order.shipped,ep1,1,phone-1:1,"
                                + rfc3339(first.dueAt()) + "," + rfc3339(first.at()) + ",357"),
                id.lines(), id.err());
        Cli.Result table = Cli.run(args(infra, "replay", "fallback", "--type", "order.*", "--class", "durable", "--format", "table"));
        assertEquals(4, table.lines().size(), table.out());
        assertTrue(table.lines().get(0).startsWith("TIME") && table.lines().get(0).endsWith("DEVICES"), table.out());
        assertTrue(table.lines().get(3).contains("ord-2:shipped") && table.lines().get(3).contains("12 ms"), table.out());
        assertEquals("", Cli.run(args(infra, "replay", "fallback", "--class", "ephemeral")).out(), "always durable");
    }

    @Test
    void pushTopicsInEveryFormatFilteredByUserAndEvent(Infra infra) throws Exception {
        TopicCatalog catalog = TopicCatalog.of(infra.prefix());
        String outcomes = infra.createTopic(catalog.pushOutcomes().name(), 3);
        String changes = infra.createTopic(catalog.pushChanges().name(), 3);
        String registrations = infra.createTopic(catalog.pushRegistrations().name(), 3, Map.of("cleanup.policy", "compact"));
        String dlq = infra.createTopic(catalog.pushDlq().name(), 3);
        long t = T0.toEpochMilli();
        StreamId u42 = StreamId.forUser("42");
        PushRegistration phone = Produce.fcm("phone", t - 60_000);
        PushRegistration tablet = Produce.fcm("tablet", t - 30_000);
        byte[] retry = Produce.json(new PushOutcome(u42, "ord-1:shipped", 17, phone.id(), "fcm", PushOutcome.Outcome.RETRY, 1, 503,
                "UNAVAILABLE", null, t));
        byte[] sent = Produce.json(new PushOutcome(u42, "ord-1:shipped", 17, phone.id(), "fcm", PushOutcome.Outcome.SENT, 2, 200,
                null, "m-1", t + 1));
        byte[] other = Produce.json(new PushOutcome(u42, "ord-2", 18, null, null, PushOutcome.Outcome.NO_REGISTRATION, 0, 0, null,
                null, t + 2));
        PushRegistrations two = PushRegistrations.empty(u42).apply(PushChange.register(u42, phone, t - 60_000), 10).state()
                .apply(PushChange.register(u42, tablet, t - 30_000), 10).state();
        PushRegistrations one = two.apply(PushChange.gone(u42, tablet.id(), "404 UNREGISTERED", t + 3), 10).state();
        FallbackRecord narrowed = Produce.pushFallback(Produce.withFallback("42", 17, "ord-1:shipped", t - 130_000), 5,
                List.of(tablet));
        DlqFailure failure = new DlqFailure("refused by fcm (HTTP 400): INVALID_ARGUMENT", "refused", catalog.fallback().name(), 1,
                9, Instant.ofEpochMilli(t + 4));
        RecordHeaders headers = new RecordHeaders();
        failure.writeTo(headers);
        headers.add("notify.push.registration", tablet.id().getBytes(StandardCharsets.UTF_8));
        Produce.all(infra, List.of(
                Produce.record(outcomes, 1, t, "u:42", retry),
                Produce.record(outcomes, 1, t + 1, "u:42", sent),
                Produce.record(outcomes, 1, t + 2, "u:42", other),
                Produce.record(outcomes, 2, t + 2, "u:43", Produce.json(new PushOutcome(StreamId.forUser("43"), "ord-1:shipped", 3,
                        null, null, PushOutcome.Outcome.NO_REGISTRATION, 0, 0, null, null, t + 2))),
                Produce.record(changes, 0, t - 30_000, "u:42", Produce.json(PushChange.register(u42, tablet, t - 30_000))),
                Produce.record(changes, 0, t + 3, "u:42", Produce.json(PushChange.gone(u42, tablet.id(), "404 UNREGISTERED", t + 3))),
                Produce.record(registrations, 0, t - 30_000, "u:42", Produce.json(two)),
                Produce.record(registrations, 0, t + 3, "u:42", Produce.json(one)),
                new ProducerRecord<>(dlq, 0, t + 4, "u:42".getBytes(StandardCharsets.UTF_8), Produce.json(narrowed), headers)));

        Cli.Result json = Cli.run(args(infra, "replay", "push-outcomes", "--user", "42"));
        assertEquals(0, json.code(), json.err());
        assertEquals(3, json.lines().size(), json.out());
        assertTrue(json.lines().get(0).endsWith(",\"key\":\"u:42\",\"value\":" + new String(retry, StandardCharsets.UTF_8) + "}"),
                "the value byte for byte: " + json.lines().get(0));
        Cli.Result csv = Cli.run(args(infra, "replay", "notify.push-outcomes", "--id", "ord-1:shipped", "--user", "42", "--format",
                "csv"));
        assertEquals(List.of("timestamp,partition,offset,stream,eventId,seq,registration,provider,outcome,attempt,status,reason,"
                        + "providerId,at",
                rfc3339(t) + ",1,0,u:42,ord-1:shipped,17," + phone.id() + ",fcm,retry,1,503,UNAVAILABLE,," + rfc3339(t),
                rfc3339(t + 1) + ",1,1,u:42,ord-1:shipped,17," + phone.id() + ",fcm,sent,2,200,,m-1," + rfc3339(t + 1)),
                csv.lines(), csv.err());
        Cli.Result table = Cli.run(args(infra, "replay", "push-outcomes", "--format", "table", "--from", T0.plusMillis(2).toString()));
        assertEquals(3, table.lines().size(), table.out());
        assertTrue(table.lines().get(0).startsWith("TIME") && table.lines().get(0).endsWith("STATUS  REASON"), table.out());
        assertTrue(table.lines().get(1).contains("ord-2") && table.lines().get(1).contains("no_registration"), table.out());

        Cli.Result changeTable = Cli.run(args(infra, "replay", "push-changes", "--user", "42", "--format", "table"));
        assertEquals(3, changeTable.lines().size(), changeTable.out());
        assertTrue(changeTable.lines().get(1).contains("register    " + tablet.id() + "  fcm"), changeTable.out());
        assertTrue(changeTable.lines().get(2).endsWith("gone        " + tablet.id() + "  -         404 UNREGISTERED"), changeTable.out());

        Cli.Result state = Cli.run(args(infra, "replay", "push-registrations", "--user", "42", "--format", "table"));
        assertEquals(List.of("TIME                      P:OFFSET      STREAM            COUNT  LAST CHANGE",
                rfc3339(t - 30_000) + "  0:0           u:42              2      register " + tablet.id(),
                rfc3339(t + 3) + "  0:1           u:42              1      gone " + tablet.id() + " (404 UNREGISTERED)"),
                state.lines(), state.err());

        Cli.Result dead = Cli.run(args(infra, "replay", "push-dlq", "--id", "ord-1:shipped", "--type", "order.*", "--format", "table"));
        assertEquals(2, dead.lines().size(), dead.out() + dead.err());
        assertTrue(dead.lines().get(1).endsWith("u:42              17       ord-1:shipped                     " + tablet.id()
                + "  refused           refused by fcm (HTTP 400): INVALID_ARGUMENT"), dead.out());
        Cli.Result deadJson = Cli.run(args(infra, "replay", "push-dlq"));
        assertEquals("refused", deadJson.json().get(0).path("headers").path("notify.error.kind").asText(), deadJson.out());
        assertEquals(tablet.id(), deadJson.json().get(0).path("value").path("push").path(0).path("id").asText());
    }

    @Test
    void preferencesInEveryFormatFilteredByUserWithAResetsTombstone(Infra infra) throws Exception {
        String prefs = infra.createTopic(TopicCatalog.of(infra.prefix()).preferences().name(), 3, Map.of("cleanup.policy", "compact"));
        long t = T0.toEpochMilli();
        StreamId u42 = StreamId.forUser("42");
        byte[] night = Produce.json(new UserPreferences(u42, new Preferences(Map.of("order.shipped", new Channels(false, null, false)),
                Map.of("marketing", new Channels(null, null, false)), new QuietHours("22:00", "07:00", "Europe/Berlin")), t));
        Produce.all(infra, List.of(
                Produce.record(prefs, 0, t, "u:42", night),
                Produce.record(prefs, 0, t + 1, "u:42", null),
                Produce.record(prefs, 1, t + 2, "u:43", Produce.json(new UserPreferences(StreamId.forUser("43"), Preferences.NONE,
                        t + 2)))));

        Cli.Result table = Cli.run(args(infra, "replay", "preferences", "--user", "42", "--format", "table"));
        assertEquals(List.of("TIME                      P:OFFSET      STREAM            TYPES                                     "
                        + "CATEGORIES                      QUIET HOURS",
                rfc3339(t) + "  0:0           u:42              order.shipped:-live-push                  marketing:-push"
                        + "                 22:00-07:00 Europe/Berlin",
                rfc3339(t + 1) + "  0:1           u:42              -                                         -"
                        + "                               -"),
                table.lines(), table.err());
        Cli.Result json = Cli.run(args(infra, "replay", "notify.preferences", "--user", "42"));
        assertEquals(2, json.lines().size(), json.out());
        assertTrue(json.lines().get(0).endsWith(",\"key\":\"u:42\",\"value\":" + new String(night, StandardCharsets.UTF_8) + "}"),
                "the value byte for byte: " + json.lines().get(0));
        assertTrue(json.lines().get(1).endsWith(",\"key\":\"u:42\",\"value\":null}"), "a reset: " + json.lines().get(1));
        Cli.Result csv = Cli.run(args(infra, "replay", "preferences", "--format", "csv", "--from", T0.plusMillis(1).toString()));
        assertEquals(List.of("timestamp,partition,offset,stream,types,categories,quietHours,updatedAt",
                rfc3339(t + 1) + ",0,1,u:42,,,,",
                rfc3339(t + 2) + ",1,0,u:43,,,," + rfc3339(t + 2)), csv.lines(), csv.err());
    }

    private static String rfc3339(long millis) {
        return new TimeText().format(millis);
    }

    @Test
    void csvEscapesCommasQuotesAndNewlinesToAFile(Infra infra, @TempDir Path dir) throws Exception {
        String events = infra.createTopic(TopicCatalog.of(infra.prefix()).events().name(), 1);
        long t = T0.toEpochMilli();
        Produce.all(infra, List.of(Produce.record(events, 0, t, "x", Produce.envelope("x", "note.added", EventClass.DURABLE,
                Produce.data("text", "a, \"b\"\nc"), "42", "43"))));
        Path file = dir.resolve("out.csv");
        Cli.Result r = Cli.run(args(infra, "replay", "events", "--format", "csv", "--out", file.toString()));
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
        Cli.Result r = Cli.run(args(infra, "replay", "events"));
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
        Cli.Result r = Cli.run(args(infra, "replay", "undelivered", "--out", file.toString()));
        assertEquals(2, r.code(), r.err());
        assertEquals(1, r.err().lines().count(), r.err());
        assertTrue(r.err().contains("topic '" + infra.prefix() + "notify.undelivered' does not exist"), r.err());
        assertTrue(Files.notExists(file));
    }
}
