package io.notify.cli.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.notify.devstack.Infra;
import io.notify.devstack.NotifyInfraExtension;
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
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * replay of the topics keyed by a user's stream against the real broker: receipts, inbox state, fallback,
 * the push topics and preferences, in every format, with the filters each allows.
 */
@ExtendWith(NotifyInfraExtension.class)
class ReplayUserTopicsIT {

    /** An hour ago, whole seconds: recent enough for retention, old enough that "now" is after every record. */
    private static final Instant T0 = Instant.now().minus(1, ChronoUnit.HOURS).truncatedTo(ChronoUnit.SECONDS);

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

        Cli.Result all = Cli.run(Cli.against(infra, "replay", "receipts"));
        assertEquals(0, all.code(), all.err());
        assertEquals(4, all.lines().size(), all.out());
        assertTrue(all.lines().get(0).endsWith(",\"key\":\"u:42\",\"value\":" + new String(ack, StandardCharsets.UTF_8) + "}"),
                "the value byte for byte: " + all.lines().get(0));
        Cli.Result user = Cli.run(Cli.against(infra, "replay", "receipts", "--user", "42"));
        assertEquals(List.of("ack", "read"), user.json().stream().map(n -> n.path("value").path("kind").asText()).toList());
        Cli.Result id = Cli.run(Cli.against(infra, "replay", "notify.receipts", "--id", "ord-2", "--format", "csv"));
        String ts = T0.toString().replace("Z", ".000Z");
        String at = T0.toString().replace("Z", ".001Z");
        assertEquals("timestamp,partition,offset,stream,kind,epoch,upTo,ids,device,at\r\n"
                + at + ",0,1,u:42,read,ep1,,ord-1:shipped;ord-2,phone-1," + at + "\r\n", id.out(), id.err());
        Cli.Result window = Cli.run(Cli.against(infra, "replay", "receipts", "--from", T0.plusMillis(1).toString(),
                "--to", T0.plusMillis(3).toString()));
        assertEquals(List.of("u:42", "u:43"), window.json().stream().map(n -> n.path("key").asText()).toList());

        Cli.Result stateJson = Cli.run(Cli.against(infra, "replay", "inbox-state", "--user", "42"));
        assertEquals(1, stateJson.lines().size(), stateJson.out());
        assertTrue(stateJson.lines().get(0).endsWith("\"value\":" + new String(state, StandardCharsets.UTF_8) + "}"), stateJson.out());
        Cli.Result stateCsv = Cli.run(Cli.against(infra, "replay", "inbox-state", "--user", "42", "--format", "csv"));
        assertEquals("timestamp,partition,offset,stream,epoch,seen.upTo,seen.seqs,read.upTo,read.seqs,archived.upTo,archived.seqs,"
                + "devices,version,updatedAt\r\n" + at + ",0,0,u:42,ep1,0,,17,19,0,,phone-1:20,2," + at + "\r\n",
                stateCsv.out(), stateCsv.err());
        Cli.Result table = Cli.run(Cli.against(infra, "replay", "inbox-state", "--format", "table"));
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

        Cli.Result user = Cli.run(Cli.against(infra, "replay", "fallback", "--user", "42"));
        assertEquals(0, user.code(), user.err());
        assertEquals(2, user.lines().size(), user.out());
        assertTrue(user.lines().get(0).endsWith("\"key\":\"u:42\",\"value\":" + new String(firstJson, StandardCharsets.UTF_8) + "}"),
                "the value byte for byte: " + user.lines().get(0));
        Cli.Result id = Cli.run(Cli.against(infra, "replay", "notify.fallback", "--id", "ord-1:shipped", "--format", "csv"));
        assertEquals(List.of("timestamp,partition,offset,stream,channel,reason,id,type,epoch,seq,devices,dueAt,at,lateness",
                        rfc3339(other.at()) + ",0,0,u:43,push,no_ack,ord-1:shipped,order.shipped,ep1,1,phone-1:1,"
                                + rfc3339(other.dueAt()) + "," + rfc3339(other.at()) + ",40",
                        rfc3339(first.at()) + ",2,0,u:42,push,no_ack,ord-1:shipped,order.shipped,ep1,1,phone-1:1,"
                                + rfc3339(first.dueAt()) + "," + rfc3339(first.at()) + ",357"),
                id.lines(), id.err());
        Cli.Result table = Cli.run(Cli.against(infra, "replay", "fallback", "--type", "order.*", "--class", "durable", "--format", "table"));
        assertEquals(4, table.lines().size(), table.out());
        assertTrue(table.lines().get(0).startsWith("TIME") && table.lines().get(0).endsWith("DEVICES"), table.out());
        assertTrue(table.lines().get(3).contains("ord-2:shipped") && table.lines().get(3).contains("12 ms"), table.out());
        assertEquals("", Cli.run(Cli.against(infra, "replay", "fallback", "--class", "ephemeral")).out(), "always durable");
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

        Cli.Result json = Cli.run(Cli.against(infra, "replay", "push-outcomes", "--user", "42"));
        assertEquals(0, json.code(), json.err());
        assertEquals(3, json.lines().size(), json.out());
        assertTrue(json.lines().get(0).endsWith(",\"key\":\"u:42\",\"value\":" + new String(retry, StandardCharsets.UTF_8) + "}"),
                "the value byte for byte: " + json.lines().get(0));
        Cli.Result csv = Cli.run(Cli.against(infra, "replay", "notify.push-outcomes", "--id", "ord-1:shipped", "--user", "42", "--format",
                "csv"));
        assertEquals(List.of("timestamp,partition,offset,stream,eventId,seq,registration,provider,outcome,attempt,status,reason,"
                        + "providerId,at",
                rfc3339(t) + ",1,0,u:42,ord-1:shipped,17," + phone.id() + ",fcm,retry,1,503,UNAVAILABLE,," + rfc3339(t),
                rfc3339(t + 1) + ",1,1,u:42,ord-1:shipped,17," + phone.id() + ",fcm,sent,2,200,,m-1," + rfc3339(t + 1)),
                csv.lines(), csv.err());
        Cli.Result table = Cli.run(Cli.against(infra, "replay", "push-outcomes", "--format", "table", "--from", T0.plusMillis(2).toString()));
        assertEquals(3, table.lines().size(), table.out());
        assertTrue(table.lines().get(0).startsWith("TIME") && table.lines().get(0).endsWith("STATUS  REASON"), table.out());
        assertTrue(table.lines().get(1).contains("ord-2") && table.lines().get(1).contains("no_registration"), table.out());

        Cli.Result changeTable = Cli.run(Cli.against(infra, "replay", "push-changes", "--user", "42", "--format", "table"));
        assertEquals(3, changeTable.lines().size(), changeTable.out());
        assertTrue(changeTable.lines().get(1).contains("register    " + tablet.id() + "  fcm"), changeTable.out());
        assertTrue(changeTable.lines().get(2).endsWith("gone        " + tablet.id() + "  -         404 UNREGISTERED"), changeTable.out());

        Cli.Result state = Cli.run(Cli.against(infra, "replay", "push-registrations", "--user", "42", "--format", "table"));
        assertEquals(List.of("TIME                      P:OFFSET      STREAM            COUNT  LAST CHANGE",
                rfc3339(t - 30_000) + "  0:0           u:42              2      register " + tablet.id(),
                rfc3339(t + 3) + "  0:1           u:42              1      gone " + tablet.id() + " (404 UNREGISTERED)"),
                state.lines(), state.err());

        Cli.Result dead = Cli.run(Cli.against(infra, "replay", "push-dlq", "--id", "ord-1:shipped", "--type", "order.*", "--format", "table"));
        assertEquals(2, dead.lines().size(), dead.out() + dead.err());
        assertTrue(dead.lines().get(1).endsWith("u:42              17       ord-1:shipped                     " + tablet.id()
                + "  refused           refused by fcm (HTTP 400): INVALID_ARGUMENT"), dead.out());
        Cli.Result deadJson = Cli.run(Cli.against(infra, "replay", "push-dlq"));
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

        Cli.Result table = Cli.run(Cli.against(infra, "replay", "preferences", "--user", "42", "--format", "table"));
        assertEquals(List.of("TIME                      P:OFFSET      STREAM            TYPES                                     "
                        + "CATEGORIES                      QUIET HOURS",
                rfc3339(t) + "  0:0           u:42              order.shipped:-live-push                  marketing:-push"
                        + "                 22:00-07:00 Europe/Berlin",
                rfc3339(t + 1) + "  0:1           u:42              -                                         -"
                        + "                               -"),
                table.lines(), table.err());
        Cli.Result json = Cli.run(Cli.against(infra, "replay", "notify.preferences", "--user", "42"));
        assertEquals(2, json.lines().size(), json.out());
        assertTrue(json.lines().get(0).endsWith(",\"key\":\"u:42\",\"value\":" + new String(night, StandardCharsets.UTF_8) + "}"),
                "the value byte for byte: " + json.lines().get(0));
        assertTrue(json.lines().get(1).endsWith(",\"key\":\"u:42\",\"value\":null}"), "a reset: " + json.lines().get(1));
        Cli.Result csv = Cli.run(Cli.against(infra, "replay", "preferences", "--format", "csv", "--from", T0.plusMillis(1).toString()));
        assertEquals(List.of("timestamp,partition,offset,stream,types,categories,quietHours,updatedAt",
                rfc3339(t + 1) + ",0,1,u:42,,,,",
                rfc3339(t + 2) + ",1,0,u:43,,,," + rfc3339(t + 2)), csv.lines(), csv.err());
    }

    private static String rfc3339(long millis) {
        return new TimeText().format(millis);
    }
}
