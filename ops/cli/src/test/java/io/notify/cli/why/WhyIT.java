package io.notify.cli.why;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.notify.cli.replay.Cli;
import io.notify.cli.replay.Produce;
import io.notify.devstack.Infra;
import io.notify.devstack.NotifyInfraExtension;
import io.notify.protocol.NotifyJson;
import io.notify.protocol.event.Channel;
import io.notify.protocol.event.Digest;
import io.notify.protocol.event.EventClass;
import io.notify.protocol.event.Fallback;
import io.notify.protocol.inbox.FallbackRecord;
import io.notify.protocol.inbox.Receipt;
import io.notify.protocol.inbox.ReceiptKind;
import io.notify.protocol.push.PushOutcome;
import io.notify.protocol.push.PushRegistration;
import io.notify.protocol.stream.DeliveryMessage;
import io.notify.protocol.stream.SequencedEvent;
import io.notify.protocol.stream.StreamId;
import io.notify.schemas.serde.NotifySerdes;
import io.notify.schemas.topic.DlqFailure;
import io.notify.schemas.topic.TopicCatalog;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.StreamSupport;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * why against the real broker, with the records fan-out and the gateways would have written: every
 * record keyed as its writer keys it and placed by the producer's default partitioner (no explicit
 * partition), so the command must find the stream's partitions as it does in production.
 */
@ExtendWith(NotifyInfraExtension.class)
class WhyIT {

    /** Ten minutes ago: the 2 minute fallback is past due, the node topic's hour is not over. */
    private static final long T = Instant.now().minus(10, ChronoUnit.MINUTES).truncatedTo(ChronoUnit.SECONDS).toEpochMilli();
    private static final StreamId U42 = StreamId.forUser("42");

    private static String[] args(Infra infra, String... more) {
        List<String> all = new ArrayList<>(List.of(more));
        all.addAll(List.of("--bootstrap-servers", infra.bootstrapServers(), "--topic-prefix", infra.prefix()));
        return all.toArray(String[]::new);
    }

    private static ProducerRecord<byte[], byte[]> keyed(String topic, long ts, String key, byte[] value) {
        return new ProducerRecord<>(topic, null, ts, key.getBytes(StandardCharsets.UTF_8), value);
    }

    private static String detail(JsonNode root, String step, int nth) {
        return StreamSupport.stream(root.path("steps").spliterator(), false).filter(s -> s.path("step").asText().equals(step))
                .skip(nth).findFirst().map(s -> s.path("detail").asText()).orElse("no " + step + " step");
    }

    @Test
    void anAckedAndReadEventWithADuplicateCopyAndACancelledFallback(Infra infra) throws Exception {
        TopicCatalog c = TopicCatalog.of(infra.prefix());
        String events = infra.createTopic(c.events().name(), 3);
        infra.createTopic(c.eventsDlq().name(), 3);
        String log = infra.createTopic(c.streamLog().name(), 3);
        String receipts = infra.createTopic(c.receipts().name(), 3);
        infra.createTopic(c.fallback().name(), 3);
        String gw1 = infra.createTopic(c.node("gw-1").name(), 1);
        infra.createTopic(c.undelivered().name(), 3);
        String id = "ord-1:shipped";
        byte[] envelope = Produce.envelope(id, "order.shipped", EventClass.DURABLE, Produce.data("orderId", "ord-1"), "42");
        SequencedEvent event = Produce.withFallback("42", 17, id, T);
        SequencedEvent toMany = Produce.sequenced("42", 18, "multi-1", "order.shipped", T + 5000);
        Produce.all(infra, List.of(
                keyed(events, T, "u:42", envelope),
                keyed(events, T + 2000, "u:42", envelope), // the producer's retry: same id, same key
                keyed(events, T + 3000, "u:42", Produce.envelope("ord-2:shipped", "order.shipped", EventClass.DURABLE, null, "42")),
                keyed(events, T + 5000, "u:43", Produce.envelope("multi-1", "order.shipped", EventClass.DURABLE, null, "43", "42")),
                keyed(log, T - 1000, "u:42", Produce.json(Produce.sequenced("42", 16, "ord-0", "order.shipped", T - 1000))),
                keyed(log, T, "u:42", Produce.json(event)),
                keyed(log, T, "u:43", Produce.json(Produce.sequenced("43", 4, id, "order.shipped", T))),
                keyed(log, T + 5000, "u:42", Produce.json(toMany)),
                keyed(gw1, T, "u:42", NotifySerdes.deliveryMessage().serializer().serialize(gw1, DeliveryMessage.toAll(event, T + 25))),
                keyed(receipts, T + 100, "u:42", Produce.json(Receipt.ack(U42, "ep1", 16, "phone-1", T + 100))),
                keyed(receipts, T + 500, "u:42", Produce.json(Receipt.ack(U42, "ep1", 17, "phone-1", T + 500))),
                keyed(receipts, T + 900, "u:42", Produce.json(Receipt.ack(U42, "ep1", 18, "web-2", T + 900))),
                keyed(receipts, T + 1200, "u:42", Produce.json(Receipt.ack(U42, "ep1", 18, "phone-1", T + 1200))),
                keyed(receipts, T + 60_000, "u:42",
                        Produce.json(Receipt.markIds(U42, ReceiptKind.READ, "ep1", List.of(id), "web-2", T + 60_000)))));

        Cli.Result table = Cli.run(args(infra, "why", "--user", "42", "--event", id, "--from", "-1h"));
        assertEquals(0, table.code(), table.err() + table.out());
        assertTrue(table.lines().get(0).startsWith("TIME") && table.lines().get(0).endsWith("DETAIL"), table.out());
        assertTrue(table.out().contains("2 copies: the dedup window kept the first; deduplicated 1 copy"), table.out());
        assertTrue(table.err().contains("why: event " + id + " for user 42 found"), table.err());

        Cli.Result json = Cli.run(args(infra, "why", "--user", "42", "--event", id, "--from", "-1h", "--format", "json"));
        assertEquals(0, json.code(), json.err());
        assertEquals(1, json.lines().size(), json.out());
        JsonNode root = NotifyJson.mapper().readTree(json.out());
        assertTrue(root.path("found").asBoolean());
        assertTrue(detail(root, "ingested", 0).endsWith(", key u:42"), json.out());
        assertTrue(detail(root, "deduplicated", 0).startsWith("2 copies: the dedup window kept the first; deduplicated 1 copy"));
        assertTrue(detail(root, "sequenced", 0).startsWith("u:42 epoch ep1 seq 17 "), json.out());
        assertTrue(detail(root, "sequenced", 0).endsWith("fan-out latency 1 ms"), json.out());
        assertEquals("to gateway node gw-1 (every connection of the user there)", detail(root, "routed", 0));
        assertEquals("by device phone-1 (ack up to 17)", detail(root, "acked", 0), "the first ack covering seq 17");
        assertEquals("by device web-2 (ack up to 18)", detail(root, "acked", 1));
        assertEquals("no acked step", detail(root, "acked", 2), "one row per device");
        assertEquals("marked by id from device web-2", detail(root, "read", 0));
        assertTrue(detail(root, "seen", 0).startsWith("no seen mark covering the event in " + receipts), json.out());
        assertTrue(detail(root, "fallback", 0).startsWith("cancelled: acked by phone-1 at "), json.out());

        Cli.Result multi = Cli.run(args(infra, "why", "--user", "42", "--event", "multi-1", "--format", "json"));
        assertEquals(0, multi.code(), multi.err());
        JsonNode m = NotifyJson.mapper().readTree(multi.out());
        assertTrue(detail(m, "ingested", 0).endsWith(", key u:43"), "keyed by its first recipient, found in another partition: "
                + multi.out());
        assertTrue(detail(m, "sequenced", 0).startsWith("u:42 epoch ep1 seq 18 "), multi.out());
        assertEquals("not requested", detail(m, "fallback", 0));
    }

    @Test
    void aPushFallbackShowsWhatThePushSenderDidForEachRegistration(Infra infra) throws Exception {
        TopicCatalog c = TopicCatalog.of(infra.prefix());
        String events = infra.createTopic(c.events().name(), 3);
        infra.createTopic(c.eventsDlq().name(), 3);
        String log = infra.createTopic(c.streamLog().name(), 3);
        infra.createTopic(c.receipts().name(), 3);
        String fallback = infra.createTopic(c.fallback().name(), 3);
        String outcomes = infra.createTopic(c.pushOutcomes().name(), 3);
        String id = "ord-7:shipped";
        SequencedEvent event = Produce.withFallback("42", 17, id, T);
        PushRegistration phone = Produce.fcm("phone", T - 86_400_000L);
        PushRegistration tablet = Produce.fcm("tablet", T - 3_600_000L);
        FallbackRecord written = Produce.pushFallback(event, 300, List.of(phone, tablet));
        long at = written.at();
        Produce.all(infra, List.of(
                keyed(events, T, "u:42", Produce.envelope(id, "order.shipped", EventClass.DURABLE, null, "42")),
                keyed(log, T, "u:42", Produce.json(event)),
                keyed(fallback, at, "u:42", Produce.json(written)),
                keyed(outcomes, at + 100, "u:42", Produce.json(new PushOutcome(U42, id, 17, phone.id(), "fcm",
                        PushOutcome.Outcome.RETRY, 1, 503, "UNAVAILABLE", null, at + 100))),
                keyed(outcomes, at + 110, "u:42", Produce.json(new PushOutcome(U42, id, 17, tablet.id(), "fcm",
                        PushOutcome.Outcome.REFUSED, 1, 400, "INVALID_ARGUMENT", null, at + 110))),
                keyed(outcomes, at + 120, "u:42", Produce.json(new PushOutcome(U42, "ord-8", 18, phone.id(), "fcm",
                        PushOutcome.Outcome.SENT, 1, 200, null, null, at + 120))), // another event
                keyed(outcomes, at + 130, "u:43", Produce.json(new PushOutcome(StreamId.forUser("43"), id, 17, null, null,
                        PushOutcome.Outcome.NO_REGISTRATION, 0, 0, null, null, at + 130))), // another user
                keyed(outcomes, at + 900, "u:42", Produce.json(new PushOutcome(U42, id, 17, phone.id(), "fcm",
                        PushOutcome.Outcome.SENT, 2, 200, null, "projects/p/messages/m-1", at + 900)))));

        Cli.Result json = Cli.run(args(infra, "why", "--user", "42", "--event", id, "--from", "-1h", "--format", "json"));
        assertEquals(0, json.code(), json.err());
        JsonNode root = NotifyJson.mapper().readTree(json.out());
        assertTrue(detail(root, "fallback", 0).startsWith("written to " + fallback + ": channel push, reason no_ack, due "), json.out());
        assertTrue(detail(root, "fallback", 0).endsWith(", push registrations " + phone.id() + ":fcm;" + tablet.id() + ":fcm"),
                json.out());
        assertEquals("failed, tried again: fcm registration " + phone.id() + " (attempt 1, HTTP 503: UNAVAILABLE)",
                detail(root, "push", 0));
        assertEquals("refused: fcm registration " + tablet.id() + " (attempt 1, HTTP 400: INVALID_ARGUMENT); not to be tried "
                + "again: in notify.push.dlq", detail(root, "push", 1));
        assertEquals("sent: fcm registration " + phone.id() + " (attempt 2, HTTP 200), message id projects/p/messages/m-1",
                detail(root, "push", 2));
        assertEquals("no push step", detail(root, "push", 3), "only this event's outcomes, only user 42's: " + json.out());
        JsonNode sent = StreamSupport.stream(root.path("steps").spliterator(), false)
                .filter(s -> s.path("step").asText().equals("push")).skip(2).findFirst().orElseThrow();
        assertEquals("sent", sent.path("outcome").asText());
        assertEquals(2, sent.path("attempt").asInt());
        assertEquals(200, sent.path("status").asInt());

        Cli.Result table = Cli.run(args(infra, "why", "--user", "42", "--event", id, "--from", "-1h"));
        assertEquals(0, table.code(), table.err());
        assertTrue(table.lines().get(table.lines().size() - 1).contains("  push          sent: fcm registration " + phone.id()),
                table.out());
    }

    private static SequencedEvent comment(long seq, String id, long at, String digestKey, Channel... muted) {
        return new SequencedEvent(U42, "ep1", seq, id, "comment.added", null, null, "orders", at, at + 1, new Fallback("2m", "push"),
                null, "social", false, digestKey == null ? null : new Digest(digestKey, "1m"), List.of(muted));
    }

    @Test
    void aFoldedEventFindsItsDigestsRecordAndThePushOfItsLastEventAndAMutedOneNoFallback(Infra infra) throws Exception {
        TopicCatalog c = TopicCatalog.of(infra.prefix());
        infra.createTopic(c.events().name(), 3);
        infra.createTopic(c.eventsDlq().name(), 3);
        String log = infra.createTopic(c.streamLog().name(), 3);
        infra.createTopic(c.receipts().name(), 3);
        String fallback = infra.createTopic(c.fallback().name(), 3);
        String outcomes = infra.createTopic(c.pushOutcomes().name(), 3);
        SequencedEvent first = comment(15, "c-1", T, "comments:p-9");
        SequencedEvent asked = comment(17, "c-5", T + 20_000, "comments:p-9");
        SequencedEvent last = comment(19, "c-9", T + 40_000, "comments:p-9");
        SequencedEvent otherFirst = comment(14, "o-1", T, "comments:p-8");
        SequencedEvent otherLast = comment(18, "o-2", T + 30_000, "comments:p-8");
        PushRegistration phone = Produce.fcm("phone", T - 86_400_000L);
        long quietEnd = T + 300_000; // due at T + 1 + 2m, held by quiet hours to T + 5m
        FallbackRecord digest = new FallbackRecord("u:42", "42", "push", FallbackRecord.Reason.NO_ACK, last, List.of(), quietEnd,
                quietEnd + 200, List.of(phone), new FallbackRecord.Digested("comments:p-9", 3, first));
        FallbackRecord other = new FallbackRecord("u:42", "42", "push", FallbackRecord.Reason.NO_ACK, otherLast, List.of(),
                T + 120_001, T + 120_100, List.of(phone), new FallbackRecord.Digested("comments:p-8", 2, otherFirst));
        Produce.all(infra, List.of(
                keyed(log, T, "u:42", Produce.json(first)),
                keyed(log, T + 20_000, "u:42", Produce.json(asked)),
                keyed(log, T + 40_000, "u:42", Produce.json(last)),
                keyed(log, T + 50_000, "u:42", Produce.json(comment(20, "m-1", T + 50_000, null, Channel.PUSH))),
                keyed(fallback, T + 120_100, "u:42", Produce.json(other)),
                keyed(fallback, quietEnd + 200, "u:42", Produce.json(digest)),
                keyed(outcomes, quietEnd + 300, "u:42", Produce.json(new PushOutcome(U42, "c-9", 19, phone.id(), "fcm",
                        PushOutcome.Outcome.SENT, 1, 200, null, null, quietEnd + 300)))));

        Cli.Result json = Cli.run(args(infra, "why", "--user", "42", "--event", "c-5", "--from", "-1h", "--format", "json"));
        assertEquals(0, json.code(), json.err());
        JsonNode root = NotifyJson.mapper().readTree(json.out());
        String written = detail(root, "fallback", 0);
        assertTrue(written.startsWith("written to " + fallback + ": channel push, reason no_ack, due "), json.out());
        assertTrue(written.contains("; held by the user's quiet hours (due "), written);
        assertTrue(written.endsWith("; folded into digest comments:p-9: 3 events, first c-1, last c-9"), written);
        assertEquals("no fallback step", detail(root, "fallback", 1), "not the other digest's record: " + json.out());
        assertEquals("sent: fcm registration " + phone.id() + " (attempt 1, HTTP 200)", detail(root, "push", 0),
                "the push sender names the digest's last event");

        Cli.Result muted = Cli.run(args(infra, "why", "--user", "42", "--event", "m-1", "--from", "-1h", "--format", "json"));
        assertEquals(0, muted.code(), muted.err());
        JsonNode m = NotifyJson.mapper().readTree(muted.out());
        assertTrue(detail(m, "sequenced", 0).endsWith("; muted for push by the user's preferences (no fallback)"), muted.out());
        assertEquals("muted by the user's preferences: none is written (push after 2m)", detail(m, "fallback", 0));
    }

    @Test
    void anEventOnlyInTheDlqWasRejectedAndAnUnknownOneIsNotFound(Infra infra) throws Exception {
        TopicCatalog c = TopicCatalog.of(infra.prefix());
        String events = infra.createTopic(c.events().name(), 3);
        String dlq = infra.createTopic(c.eventsDlq().name(), 3);
        infra.createTopic(c.streamLog().name(), 3);
        byte[] bad = "{\"id\":\"bad-1\",\"type\":\"order.shipped\",\"to\":{}}".getBytes(StandardCharsets.UTF_8);
        DlqFailure failure = new DlqFailure("/to: at least one of users, rooms, broadcast is required", "schema", events, 2, 41,
                Instant.ofEpochMilli(T + 7));
        ProducerRecord<byte[], byte[]> rejected = new ProducerRecord<>(dlq, null, T, "u:42".getBytes(StandardCharsets.UTF_8), bad,
                failure.writeTo(new RecordHeaders()));
        Produce.all(infra, List.of(rejected, keyed(events, T, "u:42",
                Produce.envelope("fine-1", "order.shipped", EventClass.DURABLE, null, "42"))));

        Cli.Result r = Cli.run(args(infra, "why", "--user", "42", "--event", "bad-1"));
        assertEquals(0, r.code(), r.err() + r.out());
        List<String> rows = r.lines();
        assertEquals(4, rows.size(), r.out());
        assertTrue(rows.get(1).contains("ingested") && rows.get(1).contains("not found in " + events + " between ")
                && rows.get(1).endsWith("; the DLQ record below came from " + events + " 2:41"), r.out());
        assertTrue(rows.get(2).contains("rejected") && rows.get(2).contains(": schema: /to: at least one of users, rooms, "
                + "broadcast is required (from " + events + " 2:41)"), r.out());
        assertTrue(rows.get(3).contains("sequenced") && rows.get(3).endsWith(": fan-out rejected it"), r.out());

        Cli.Result none = Cli.run(args(infra, "why", "--user", "42", "--event", "never-sent"));
        assertEquals(1, none.code(), none.err());
        assertTrue(none.err().contains("why: event never-sent for user 42 not found in the window"), none.err());
        assertEquals(4, none.lines().size(), "still says where it looked: " + none.out());
    }
}
